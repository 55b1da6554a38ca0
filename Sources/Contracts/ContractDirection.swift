/// Who writes a message and who reads it, which decides what a breaking change is.
public enum ContractDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apps send it; the backend must keep accepting what old app versions send.
    case appToBackend
    /// The backend sends it; every installed app version must still read it.
    case backendToApp
    /// The provider sends it to APNs (headers and size limits).
    case providerToAPNs
}
