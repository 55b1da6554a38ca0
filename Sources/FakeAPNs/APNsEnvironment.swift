/// The APNs environment: production (`api.push.apple.com`) or sandbox / development
/// (`api.sandbox.push.apple.com`, also `api.development.push.apple.com`). Device tokens and
/// signing keys may be bound to one.
public enum APNsEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    case production
    case sandbox

    /// The environment APNs serves at `host` (a `Host` or `:authority` value; the port, a
    /// trailing dot and letter case are ignored), or nil for any other host, e.g.
    /// `127.0.0.1:2197`, where FakeAPNs plays ``FakeAPNsConfiguration/environment``.
    ///
    /// ```swift
    /// APNsEnvironment(host: "api.push.apple.com:443")           // .production
    /// APNsEnvironment(host: "api.development.push.apple.com")   // .sandbox
    /// ```
    public init?(host: String) {
        var name = Substring(host)
        if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]"),
           name[name.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber }) {
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        // Byte-wise and bounded: this runs on every push.
        guard name.utf8.count <= 40 else { return nil }
        switch name.lowercased() {
        case "api.push.apple.com": self = .production
        case "api.sandbox.push.apple.com", "api.development.push.apple.com": self = .sandbox
        default: return nil
        }
    }

    /// `production` or `development`, as Apple's docs and `--apns-environment` name them.
    public var displayName: String { self == .production ? "production" : "development" }
}
