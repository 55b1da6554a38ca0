@testable import PushCore
import Foundation
@testable import LoopbackHTTP
import PushTestSupport

extension ExternalPeer {
    /// A server whose handler echoes `path:body` and records which connections carried requests.
    final class EchoServer: Sendable {
        let server: HTTPServer
        let connections = Locked<[UInt64: Int]>([:])

        init(maxConcurrentStreams: Int = 1000) throws {
            var configuration = HTTPServerConfiguration()
            configuration.http2.maxConcurrentStreams = maxConcurrentStreams
            let connections = self.connections
            server = try HTTPServer.start(configuration: configuration) { request in
                connections.withLock { $0[request.connectionID, default: 0] += 1 }
                let body = request.method == "POST" ? request.body : Array("hello".utf8)
                return HTTPResponse(status: .ok, headers: ["content-type": "text/plain", "x-version": request.version.rawValue],
                                    body: Array("\(request.pathWithoutQuery):".utf8) + body + [0x0a])
            }
        }

        var url: String { "http://127.0.0.1:\(server.port)" }
        func stop() { server.stop() }
    }
}
