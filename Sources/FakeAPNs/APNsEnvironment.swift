/// The APNs environment: production (`api.push.apple.com`) or sandbox / development
/// (`api.sandbox.push.apple.com`). Device tokens and signing keys may be bound to one.
public enum APNsEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    case production
    case sandbox
}
