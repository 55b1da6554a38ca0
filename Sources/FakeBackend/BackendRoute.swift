import Foundation

/// Where a request lands: an endpoint with its path parameter, a known path with the wrong
/// method, or nowhere. Parsed on UTF-8 bytes: this runs for every request.
enum BackendRoute: Equatable {
    case endpoint(FakeBackend.Endpoint, parameter: String)
    case methodNotAllowed(allow: [String])
    case notFound

    /// - Parameter target: the request target, query included (`?…` is ignored).
    init(method: String, target: String) {
        var target = target
        self = target.withUTF8 { bytes in
            switch Self.match(method: method, target: bytes) {
            case .endpoint(let endpoint, let parameter):
                return .endpoint(endpoint, parameter: String(decoding: UnsafeBufferPointer(rebasing: bytes[parameter]), as: UTF8.self))
            case .methodNotAllowed(let allow):
                return .methodNotAllowed(allow: allow)
            case .notFound:
                return .notFound
            }
        }
    }

    /// A route on the target's bytes: the parameter is where it sits in them, so the handler
    /// checks it, and makes a String of it, only where it must.
    enum Match: Equatable {
        case endpoint(FakeBackend.Endpoint, parameter: Range<Int>)
        case methodNotAllowed(allow: [String])
        case notFound
    }

    /// The route of `method` on `target`, the UTF-8 of the request target (query included).
    static func match(method: String, target bytes: UnsafeBufferPointer<UInt8>) -> Match {
        let end = firstIndex(of: UInt8(ascii: "?"), in: bytes, 0..<bytes.count) ?? bytes.count
        let devices: StaticString = "/v1/devices/"
        if starts(bytes, end: end, with: devices) {
            let start = devices.utf8CodeUnitCount
            guard firstIndex(of: UInt8(ascii: "/"), in: bytes, start..<end) == nil else { return .notFound }
            switch method {
            case "PUT": return .endpoint(.putDevice, parameter: start..<end)
            case "DELETE": return .endpoint(.deleteDevice, parameter: start..<end)
            default: return .methodNotAllowed(allow: ["PUT", "DELETE"])
            }
        }
        let notifications: StaticString = "/v1/notifications/"
        let opened: StaticString = "/opened"
        let prefix = notifications.utf8CodeUnitCount
        let suffix = opened.utf8CodeUnitCount
        if starts(bytes, end: end, with: notifications), end >= prefix + suffix,
           equal(bytes, at: end - suffix, opened) {
            guard firstIndex(of: UInt8(ascii: "/"), in: bytes, prefix..<(end - suffix)) == nil else { return .notFound }
            return method == "POST"
                ? .endpoint(.opened, parameter: prefix..<(end - suffix))
                : .methodNotAllowed(allow: ["POST"])
        }
        return .notFound
    }

    /// The first `byte` in `bytes[range]` (memchr: a target is scanned whole on every request).
    private static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, let base = bytes.baseAddress,
              let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, with literal: StaticString) -> Bool {
        end >= literal.utf8CodeUnitCount && equal(bytes, at: 0, literal)
    }

    /// Whether `literal` sits at `offset` (the caller checked that it fits).
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ literal: StaticString) -> Bool {
        guard let base = bytes.baseAddress else { return literal.utf8CodeUnitCount == 0 }
        return memcmp(base + offset, literal.utf8Start, literal.utf8CodeUnitCount) == 0
    }
}
