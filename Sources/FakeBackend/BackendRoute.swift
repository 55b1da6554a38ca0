/// Where a request lands: an endpoint with its path parameter, a known path with the wrong
/// method, or nowhere. Parsed on UTF-8 bytes: this runs for every request.
enum BackendRoute: Equatable {
    case endpoint(FakeBackend.Endpoint, parameter: String)
    case methodNotAllowed(allow: [String])
    case notFound

    /// - Parameter target: the request target, query included (`?…` is ignored).
    init(method: String, target: String) {
        // On contiguous UTF-8 with plain index arithmetic: no generic collection algorithms.
        var target = target
        self = target.withUTF8 { bytes in Self.route(method: method, bytes) }
    }

    private static func route(method: String, _ bytes: UnsafeBufferPointer<UInt8>) -> BackendRoute {
        var end = 0
        while end < bytes.count && bytes[end] != UInt8(ascii: "?") { end += 1 }
        if starts(bytes, end: end, with: "/v1/devices/") {
            let start = 12
            guard !contains(bytes, slashIn: start..<end) else { return .notFound }
            switch method {
            case "PUT": return .endpoint(.putDevice, parameter: string(bytes, start..<end))
            case "DELETE": return .endpoint(.deleteDevice, parameter: string(bytes, start..<end))
            default: return .methodNotAllowed(allow: ["PUT", "DELETE"])
            }
        }
        let prefix = 18  // "/v1/notifications/"
        let suffix = 7  // "/opened"
        if starts(bytes, end: end, with: "/v1/notifications/"), end >= prefix + suffix, endsWithOpened(bytes, end: end) {
            guard !contains(bytes, slashIn: prefix..<(end - suffix)) else { return .notFound }
            return method == "POST"
                ? .endpoint(.opened, parameter: string(bytes, prefix..<(end - suffix)))
                : .methodNotAllowed(allow: ["POST"])
        }
        return .notFound
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, with literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end >= count else { return false }
        let pointer = literal.utf8Start
        for index in 0..<count where bytes[index] != pointer[index] { return false }
        return true
    }

    private static func endsWithOpened(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
        let literal: StaticString = "/opened"
        let count = literal.utf8CodeUnitCount
        let pointer = literal.utf8Start
        for index in 0..<count where bytes[end - count + index] != pointer[index] { return false }
        return true
    }

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, slashIn range: Range<Int>) -> Bool {
        for index in range where bytes[index] == UInt8(ascii: "/") { return true }
        return false
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}
