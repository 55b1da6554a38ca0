// loopback-echo-server: a LoopbackHTTP server for benchmarks and manual interop runs.
// In the benchmark package:
// `swift build -c release --package-path Benchmarks --product loopback-echo-server`.
//
//   loopback-echo-server [--port N] [--max-streams N] [--spin-ns N]
//
// Prints `listening http://127.0.0.1:PORT` once ready; runs until killed. GET answers
// 200 with a short body; any other method answers 204 (like the nginx reference config).
// --spin-ns N adds N nanoseconds of busy work to each request before it is answered (the
// monotonic clock read until it has moved N on): a server with more work a request, for
// Benchmarks/client-threshold.sh.
import Foundation
import LoopbackHTTP

let usage = "Usage: loopback-echo-server [--port N] [--max-streams N] [--spin-ns N]\n"
var configuration = HTTPServerConfiguration()
var spinNanoseconds: UInt64 = 0
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("Error: \(flag) needs a value\n\(usage)".utf8))
        exit(64)
    }
    switch flag {
    case "--port": configuration.port = UInt16(value) ?? 0
    case "--max-streams": configuration.http2.maxConcurrentStreams = Int(value) ?? 100
    case "--spin-ns": spinNanoseconds = min(UInt64(value) ?? 0, 1_000_000_000)
    default:
        FileHandle.standardError.write(Data("Error: unknown option \(flag)\n\(usage)".utf8))
        exit(64)
    }
}

let hello = Array("hello\n".utf8)
/// Monotonic nanoseconds (the loop's own clock call).
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    _ = clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
}

let spin = spinNanoseconds
let server = try HTTPServer.start(configuration: configuration) { request in
    if spin > 0 {
        let end = monotonicNanoseconds() &+ spin
        while monotonicNanoseconds() < end {}
    }
    return request.method == "GET" ? HTTPResponse(status: .ok, headers: ["content-type": "text/plain"], body: hello) : HTTPResponse(status: .noContent)
}
FileHandle.standardOutput.write(Data("listening http://127.0.0.1:\(server.port)\n".utf8))
while true { sleep(3600) }
