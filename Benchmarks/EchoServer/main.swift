// loopback-echo-server: a LoopbackHTTP server for benchmarks and manual interop runs.
// In the benchmark package:
// `swift build -c release --package-path Benchmarks --product loopback-echo-server`.
//
//   loopback-echo-server [--port N] [--max-streams N]
//
// Prints `listening http://127.0.0.1:PORT` once ready; runs until killed. GET answers
// 200 with a short body; any other method answers 204 (like the nginx reference config).
import Foundation
import LoopbackHTTP

var configuration = HTTPServerConfiguration()
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst() else {
        FileHandle.standardError.write(Data("Error: \(flag) needs a value\nUsage: loopback-echo-server [--port N] [--max-streams N]\n".utf8))
        exit(64)
    }
    switch flag {
    case "--port": configuration.port = UInt16(value) ?? 0
    case "--max-streams": configuration.http2.maxConcurrentStreams = Int(value) ?? 100
    default:
        FileHandle.standardError.write(Data("Error: unknown option \(flag)\nUsage: loopback-echo-server [--port N] [--max-streams N]\n".utf8))
        exit(64)
    }
}

let hello = Array("hello\n".utf8)
let server = try HTTPServer.start(configuration: configuration) { request in
    request.method == "GET" ? HTTPResponse(status: .ok, headers: ["content-type": "text/plain"], body: hello) : HTTPResponse(status: .noContent)
}
FileHandle.standardOutput.write(Data("listening http://127.0.0.1:\(server.port)\n".utf8))
while true { sleep(3600) }
