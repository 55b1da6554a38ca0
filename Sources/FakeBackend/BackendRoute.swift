/// Where a request lands: an endpoint with its path parameter, a known path with the wrong
/// method, or nowhere. Parsed on UTF-8 bytes: this runs for every request.
enum BackendRoute: Equatable {
    case endpoint(FakeBackend.Endpoint, parameter: String)
    case methodNotAllowed(allow: [String])
    case notFound

    private static let devices = Array("/v1/devices/".utf8)
    private static let notifications = Array("/v1/notifications/".utf8)
    private static let opened = Array("/opened".utf8)
    private static let slash = UInt8(ascii: "/")

    /// - Parameter target: the request target, query included (`?…` is ignored).
    init(method: String, target: String) {
        let bytes = target.utf8
        let end = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let path = bytes[bytes.startIndex..<end]
        if path.starts(with: Self.devices) {
            let parameter = path.dropFirst(Self.devices.count)
            guard !parameter.contains(Self.slash) else {
                self = .notFound
                return
            }
            switch method {
            case "PUT": self = .endpoint(.putDevice, parameter: String(Substring(parameter)))
            case "DELETE": self = .endpoint(.deleteDevice, parameter: String(Substring(parameter)))
            default: self = .methodNotAllowed(allow: ["PUT", "DELETE"])
            }
        } else if path.starts(with: Self.notifications), path.count >= Self.notifications.count + Self.opened.count,
                  path.suffix(Self.opened.count).elementsEqual(Self.opened) {
            let parameter = path.dropFirst(Self.notifications.count).dropLast(Self.opened.count)
            guard !parameter.contains(Self.slash) else {
                self = .notFound
                return
            }
            if method == "POST" {
                self = .endpoint(.opened, parameter: String(Substring(parameter)))
            } else {
                self = .methodNotAllowed(allow: ["POST"])
            }
        } else {
            self = .notFound
        }
    }
}
