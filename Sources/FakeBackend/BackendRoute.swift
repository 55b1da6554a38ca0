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

    /// A path the backend serves and the endpoints on it, from ``FakeBackend/Endpoint/table``.
    /// Made once: matching a request reads these and builds nothing.
    struct Path {
        /// The template's bytes before its parameter, and after it.
        let prefix: [UInt8]
        let suffix: [UInt8]
        /// False for a template without a parameter: the target must then be the prefix.
        let hasParameter: Bool
        /// The endpoints on this path, in table order.
        var endpoints: [(method: String, endpoint: FakeBackend.Endpoint)]
        /// Their methods, as a 405 lists them (`Allow`).
        var allow: [String]
        /// The template, as a 404 names it.
        let template: String
    }

    /// The table's paths, each once, in the order they first appear.
    static let paths: [Path] = {
        var paths: [Path] = []
        for declaration in FakeBackend.Endpoint.table {
            let row = (method: declaration.method, endpoint: declaration.endpoint)
            if let index = paths.firstIndex(where: { $0.template == declaration.pathTemplate }) {
                paths[index].endpoints.append(row)
                paths[index].allow.append(declaration.method)
                continue
            }
            let parts = declaration.pathParts
            paths.append(Path(prefix: Array(parts.prefix.utf8), suffix: Array(parts.suffix.utf8),
                              hasParameter: parts.parameter != nil, endpoints: [row], allow: [declaration.method],
                              template: declaration.pathTemplate))
        }
        return paths
    }()

    /// What a 404 says the backend serves: `PUT and DELETE /v1/devices/{token} and POST …`.
    static let servedPaths: String = paths
        .map { "\($0.allow.joined(separator: " and ")) \($0.template)" }
        .joined(separator: " and ")

    /// The route of `method` on `target`, the UTF-8 of the request target (query included).
    static func match(method: String, target bytes: UnsafeBufferPointer<UInt8>) -> Match {
        let end = firstIndex(of: UInt8(ascii: "?"), in: bytes, 0..<bytes.count) ?? bytes.count
        for index in paths.indices {
            guard let parameter = paths[index].parameter(in: bytes, end: end) else { continue }
            for row in paths[index].endpoints where row.method == method {
                return .endpoint(row.endpoint, parameter: parameter)
            }
            return .methodNotAllowed(allow: paths[index].allow)
        }
        return .notFound
    }

    /// The first `byte` in `bytes[range]` (memchr: a target is scanned whole on every request).
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        guard !range.isEmpty, let base = bytes.baseAddress,
              let found = memchr(base + range.lowerBound, Int32(byte), range.count) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}

extension BackendRoute.Path {
    /// Where the parameter sits when `bytes[..<end]` (the target without its query) is this
    /// path: after the prefix, before the suffix, without a `/`. Nil when it is not this path.
    func parameter(in bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Range<Int>? {
        let start = prefix.count
        guard end >= start + suffix.count, Self.equal(bytes, at: 0, prefix),
              Self.equal(bytes, at: end - suffix.count, suffix) else { return nil }
        let parameter = start..<(end - suffix.count)
        if !hasParameter { return parameter.isEmpty ? parameter : nil }
        guard BackendRoute.firstIndex(of: UInt8(ascii: "/"), in: bytes, parameter) == nil else { return nil }
        return parameter
    }

    /// Whether `literal` sits at `offset` (the caller checked that it fits).
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ literal: [UInt8]) -> Bool {
        guard !literal.isEmpty else { return true }
        return literal.withUnsafeBufferPointer { literal in
            guard let start = literal.baseAddress, let base = bytes.baseAddress else { return false }
            return memcmp(base + offset, start, literal.count) == 0
        }
    }
}
