/// A bad day the backend can have for one request.
///
/// Faults split by whether the request's change happens: `status`, `hang`, `reset` and
/// `offline` stop the request before it is applied (a retry is the first real attempt);
/// `delay` and `loseResponse` apply it first (so after `loseResponse`, a client's retry
/// is a real duplicate the journal and the opens show).
public enum BackendFault: Sendable, Hashable, CustomStringConvertible {
    /// Answer with this status (429, 500, 503…) and a problem+json body, without applying
    /// the request. `retryAfter` adds `Retry-After: N` (seconds).
    case status(code: Int, retryAfter: Int? = nil)
    /// Apply the request, then answer after this many milliseconds.
    case delay(milliseconds: Int)
    /// Refuse connections on the backend's port until cleared. Server-wide: it cannot be
    /// limited to one endpoint or counted, since a refused connection carries no request.
    /// A request on a connection opened earlier is reset, not applied.
    case offline
    /// Accept the request and never answer; not applied. The client sees a timeout.
    case hang
    /// Reset the connection without answering; not applied.
    case reset
    /// Apply the request, then close the connection without answering.
    case loseResponse

    /// `429 Too Many Requests` with `Retry-After`.
    public static func tooManyRequests(retryAfter seconds: Int) -> BackendFault {
        .status(code: 429, retryAfter: seconds)
    }

    /// The kind's name as the admin API spells it: `status`, `delay`, `offline`, `hang`,
    /// `reset`, `loseResponse`.
    public var kind: String {
        switch self {
        case .status: return "status"
        case .delay: return "delay"
        case .offline: return "offline"
        case .hang: return "hang"
        case .reset: return "reset"
        case .loseResponse: return "loseResponse"
        }
    }

    /// True when the request's change is applied before the fault acts.
    public var appliesRequest: Bool {
        switch self {
        case .delay, .loseResponse: return true
        case .status, .offline, .hang, .reset: return false
        }
    }

    public var description: String {
        switch self {
        case .status(let code, let retryAfter):
            return retryAfter.map { "status(\(code), retryAfter: \($0))" } ?? "status(\(code))"
        case .delay(let ms): return "delay(\(ms)ms)"
        default: return kind
        }
    }
}

extension BackendFault: Codable {
    /// The members a fault is written with in the admin API's flat form.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, status, retryAfter, delayMs
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "status":
            let code = try container.decode(Int.self, forKey: .status)
            guard (400...599).contains(code) else {
                throw DecodingError.dataCorruptedError(forKey: .status, in: container,
                    debugDescription: "status must be 400-599, found \(code)")
            }
            let retryAfter = try container.decodeIfPresent(Int.self, forKey: .retryAfter)
            if let retryAfter, retryAfter < 0 {
                throw DecodingError.dataCorruptedError(forKey: .retryAfter, in: container,
                    debugDescription: "retryAfter must be 0 or more seconds, found \(retryAfter)")
            }
            self = .status(code: code, retryAfter: retryAfter)
        case "delay":
            let ms = try container.decode(Int.self, forKey: .delayMs)
            guard (0...600_000).contains(ms) else {
                throw DecodingError.dataCorruptedError(forKey: .delayMs, in: container,
                    debugDescription: "delayMs must be 0-600000, found \(ms)")
            }
            self = .delay(milliseconds: ms)
        case "offline": self = .offline
        case "hang": self = .hang
        case "reset": self = .reset
        case "loseResponse": self = .loseResponse
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container,
                debugDescription: "unknown kind \"\(kind)\"; use status, delay, offline, hang, reset or loseResponse")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .status(let code, let retryAfter):
            try container.encode(code, forKey: .status)
            try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
        case .delay(let ms):
            try container.encode(ms, forKey: .delayMs)
        case .offline, .hang, .reset, .loseResponse:
            break
        }
    }
}
