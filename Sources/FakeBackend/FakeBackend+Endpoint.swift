extension FakeBackend {
    /// The backend's endpoints, named the same wherever a fault, a wait or the journal names one.
    public enum Endpoint: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
        /// `PUT /v1/devices/{token}`: register (or move) a device token.
        case putDevice
        /// `DELETE /v1/devices/{token}`: remove a device token at sign-out.
        case deleteDevice
        /// `POST /v1/notifications/{id}/opened`: report that a notification was opened.
        case opened

        /// The HTTP method the endpoint answers.
        public var method: String {
            switch self {
            case .putDevice: return "PUT"
            case .deleteDevice: return "DELETE"
            case .opened: return "POST"
            }
        }

        /// The path template, e.g. `/v1/devices/{token}`.
        public var pathTemplate: String {
            switch self {
            case .putDevice, .deleteDevice: return "/v1/devices/{token}"
            case .opened: return "/v1/notifications/{id}/opened"
            }
        }

        public var description: String { rawValue }

        /// True when the endpoint reads a JSON body (so a body of another type is a 415).
        var readsJSONBody: Bool { self != .deleteDevice }
    }
}
