// TEMPORARY: stand-ins for APIs promised by other branches (json, contracts, http1).
// Deleted when those branches are merged. Internal, so nothing outside sees them.
import Foundation
import Contracts

struct HTTPServerConfiguration: Sendable {
    var host = "127.0.0.1"
    var port: UInt16 = 0
    var maxBodyBytes = 1 << 20
    var maxHeaderBytes = 16 << 10
}

final class HTTPServer: Sendable {
    static func start(configuration: HTTPServerConfiguration = .init(), handler: @escaping HTTPHandler) throws -> HTTPServer {
        HTTPServer()
    }
    var port: UInt16 { 0 }
    func stop() {}
    func stop() async {}
    func refuseConnections(_ refuse: Bool) {}
}
