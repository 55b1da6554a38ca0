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
    }
}

/// Where a request lands: an endpoint with its path parameter, a known path with the wrong
/// method, or nowhere.
enum BackendRoute: Equatable {
    case endpoint(FakeBackend.Endpoint, parameter: String)
    case methodNotAllowed(allow: [String])
    case notFound

    init(method: String, path: Substring) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        // "/v1/devices/T" splits into ["", "v1", "devices", "T"].
        if segments.count == 4, segments[0].isEmpty, segments[1] == "v1", segments[2] == "devices" {
            let token = String(segments[3])
            switch method {
            case "PUT": self = .endpoint(.putDevice, parameter: token)
            case "DELETE": self = .endpoint(.deleteDevice, parameter: token)
            default: self = .methodNotAllowed(allow: ["PUT", "DELETE"])
            }
        } else if segments.count == 5, segments[0].isEmpty, segments[1] == "v1",
                  segments[2] == "notifications", segments[4] == "opened" {
            if method == "POST" {
                self = .endpoint(.opened, parameter: String(segments[3]))
            } else {
                self = .methodNotAllowed(allow: ["POST"])
            }
        } else {
            self = .notFound
        }
    }
}
