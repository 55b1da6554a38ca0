import LoopbackHTTP

/// The APNs environment: production (`api.push.apple.com`) or sandbox / development
/// (`api.sandbox.push.apple.com`, also `api.development.push.apple.com`). Device tokens and
/// signing keys may be bound to one.
public enum APNsEnvironment: String, Sendable, Hashable, Codable, CaseIterable {
    /// `api.push.apple.com`.
    case production
    /// `api.sandbox.push.apple.com` (development builds).
    case sandbox

    /// Apple's provider API hosts, production first: the names FakeAPNs' TLS leaf is also
    /// issued for, so a sender that connects to them (through `--connect-to`, a resolver
    /// override or /etc/hosts) sees a matching certificate.
    public static let hostNames = ["api.push.apple.com", "api.sandbox.push.apple.com", "api.development.push.apple.com"]

    /// The environment APNs serves at `host` (a `Host` or `:authority` value; the port, a
    /// trailing dot and letter case are ignored), or nil for any other host, e.g.
    /// `127.0.0.1:2197`, where FakeAPNs plays ``FakeAPNs/Configuration/environment``.
    ///
    /// ```swift
    /// APNsEnvironment(host: "api.push.apple.com:443")           // .production
    /// APNsEnvironment(host: "api.development.push.apple.com")   // .sandbox
    /// ```
    public init?(host: String) {
        var bytes = host
        if let known = bytes.withUTF8({ Self.environment(ofASCIIHost: $0) }) {
            guard let environment = known else { return nil }
            self = environment
            return
        }
        guard let environment = Self.environment(ofHost: host) else { return nil }
        self = environment
    }

    /// ``init(host:)`` for any host, through `String` (Unicode case mapping).
    static func environment(ofHost host: String) -> APNsEnvironment? {
        var name = Substring(host)
        if let colon = name.lastIndex(of: ":"), !name.hasSuffix("]"),
           name[name.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber }) {
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        // Byte-wise and bounded: this runs on every push.
        guard name.utf8.count <= 40 else { return nil }
        switch name.lowercased() {
        case "api.push.apple.com": return .production
        case "api.sandbox.push.apple.com", "api.development.push.apple.com": return .sandbox
        case "api-manage-broadcast.push.apple.com": return .production
        case "api-manage-broadcast.sandbox.push.apple.com": return .sandbox
        default: return nil
        }
    }

    /// ``init(host:)`` on an ASCII host, without building a `String` (this runs on every
    /// push: ~10,000 instructions through `Substring` and `lowercased()`, callgrind). The
    /// outer nil: not ASCII (the `String` path decides, as Unicode case mapping may).
    static func environment(ofASCIIHost host: UnsafeBufferPointer<UInt8>) -> APNsEnvironment?? {
        guard !host.contains(where: { $0 >= 0x80 }) else { return nil }
        var end = host.count
        if let colon = host.lastIndex(of: UInt8(ascii: ":")), host.last != UInt8(ascii: "]"),
           host[(colon + 1)...].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            end = colon
        }
        if end > 0 && host[end - 1] == UInt8(ascii: ".") { end -= 1 }
        guard end <= 40 else { return .some(nil) }  // as the String path: a bounded name
        let name = UnsafeBufferPointer(rebasing: host[0..<end])
        for (candidate, environment) in hosts where candidate.count == name.count {
            if zip(name, candidate).allSatisfy({ ASCII.lowercase($0) == $1 }) { return environment }
        }
        return .some(nil)
    }

    private static let hosts: [([UInt8], APNsEnvironment)] = [
        (Array("api.push.apple.com".utf8), .production), (Array("api.sandbox.push.apple.com".utf8), .sandbox),
        (Array("api.development.push.apple.com".utf8), .sandbox),
        (Array("api-manage-broadcast.push.apple.com".utf8), .production),
        (Array("api-manage-broadcast.sandbox.push.apple.com".utf8), .sandbox),
    ]

    /// `production` or `development`, as Apple's docs and `--apns-environment` name them.
    public var displayName: String { self == .production ? "production" : "development" }
}
