import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import LoopbackHTTP
import PushTestSupport

/// Starts a server for one test and stops it afterwards, whatever happens.
func withServer<T>(
    _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    handler: @escaping HTTPHandler,
    _ body: (HTTPServer) async throws -> T
) async throws -> T {
    var configuration = HTTPServerConfiguration()
    configure(&configuration)
    let server = try HTTPServer.start(configuration: configuration, handler: handler)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// A handler that answers 200 with "METHOD path body-length".
let echoHandler: HTTPHandler = { request in
    HTTPResponse(status: .ok, headers: ["content-type": "text/plain"],
                 body: Array("\(request.method) \(request.path) \(request.body.count)".utf8))
}

/// An ephemeral URLSession with no cache, for one test.
func makeSession(timeout: Double = 10) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
}

func url(_ server: HTTPServer, _ path: String) -> URL {
    URL(string: "http://127.0.0.1:\(server.port)\(path)") ?? URL(fileURLWithPath: "/")
}

/// How many descriptors this process has open (Linux: entries of /proc/self/fd).
func openDescriptorCount() -> Int? {
    #if os(Linux)
    return (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count
    #else
    return nil
    #endif
}

/// The status code of a raw HTTP/1.1 response, or nil.
func statusCode(_ reply: [UInt8]) -> Int? {
    let text = reply.text
    guard text.hasPrefix("HTTP/1.1 "), text.count >= 12 else { return nil }
    return Int(text.dropFirst(9).prefix(3))
}

/// How many threads of this process are server loop threads (Linux: by thread name).
func loopThreadCount() -> Int? {
    #if os(Linux)
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task") else { return nil }
    return tasks.filter { task in
        // /proc files report size 0, so read them with read(2) rather than Foundation.
        let fd = open("/proc/self/task/\(task)/comm", O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        return String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == LoopThread.threadName
    }.count
    #else
    return nil
    #endif
}

/// Raises the soft RLIMIT_NOFILE to at least `wanted` (up to the hard limit).
func raiseDescriptorLimit(to wanted: Int) throws {
    var limit = rlimit()
    #if canImport(Glibc)
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limit) == 0 else { throw RawClient.Failure(operation: "getrlimit", errno: errno) }
    guard limit.rlim_cur < rlim_t(wanted) else { return }
    limit.rlim_cur = min(rlim_t(wanted), limit.rlim_max)
    guard setrlimit(resource, &limit) == 0 else { throw RawClient.Failure(operation: "setrlimit", errno: errno) }
    try #require(limit.rlim_cur >= rlim_t(wanted), "the hard descriptor limit \(limit.rlim_max) is below \(wanted)")
}

/// Sends `GET /c<index>` on every client (all in flight at once), then reads each answer
/// from an echo server; returns how many came back 200 with their own path.
func answeredEchoRequests(from clients: [RawClient]) throws -> Int {
    for (index, client) in clients.enumerated() {
        try client.send("GET /c\(index) HTTP/1.1\r\nHost: h\r\n\r\n")
    }
    var answered = 0
    for (index, client) in clients.enumerated() {
        let reply = try client.read { $0.text.hasSuffix("GET /c\(index) 0") }
        if statusCode(reply) == 200 && reply.text.hasSuffix("GET /c\(index) 0") { answered += 1 }
    }
    return answered
}
