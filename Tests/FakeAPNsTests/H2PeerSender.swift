import Contracts
import LoopbackHTTP
import Foundation
import PushTestSupport
@testable import FakeAPNs

/// Sends requests over one HTTP/2 cleartext connection (prior knowledge) with Python's `h2`
/// library, one after another, and reads each answer: status, headers, body, or how the
/// stream or connection ended (RST_STREAM, GOAWAY with its debug data).
///
/// Python's `h2` sends exactly the header fields given (repeated ones too), which curl's
/// `--next` chains on one connection do not reliably do. Skipped without `python3 -c "import h2"`
/// (`scripts/install-peers.sh` installs it).
enum H2PeerSender {
    struct Answer: Decodable {
        var status: Int
        var headers: [String: String]
        var body: String
        /// nil, "reset", "goaway" or "closed".
        var event: String?
        /// GOAWAY debug data (UTF-8).
        var debug: String?
        var bodyBytes: [UInt8] { Array(body.utf8) }
    }

    static let python: String? = ExternalPeer.find("python3").flatMap { ExternalPeer.pythonHas("h2") ? $0 : nil }

    static var isAvailable: Bool { python != nil }

    /// ``send(_:port:)`` on a thread of its own: awaiting the peer does not hold one of the
    /// cooperative pool's threads (two on a two-core machine), which other suites need.
    static func send(_ requests: [HTTPRequest], port: UInt16) async throws -> [Answer] {
        try await offThread { try send(requests, port: port) }
    }

    static func send(_ requests: [HTTPRequest], port: UInt16) throws -> [Answer] {
        guard let python else { return [] }
        let list: [[String: Any]] = requests.map { request in
            ["method": request.method, "path": request.path,
             "headers": request.headers.map { [$0.name.lowercased(), $0.value] },
             "body": Data(request.body).base64EncodedString()]
        }
        let input = try JSONSerialization.data(withJSONObject: list)
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("h2-sender-\(UUID().uuidString).py")
        try Data(source.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }
        let output = try run(python, [script.path, "127.0.0.1", String(port)], input: input)
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("[") }) else {
            throw PeerFailure(output: output)
        }
        return try JSONDecoder().decode([Answer].self, from: Data(line.utf8))
    }

    struct PeerFailure: Error, CustomStringConvertible {
        var output: String
        var description: String { "the h2 peer printed no answers:\n\(output)" }
    }

    /// ``run(_:_:input:)`` on a thread of its own (see ``send(_:port:)``).
    static func run(_ executable: String, _ arguments: [String], input: Data) async throws -> String {
        try await offThread { try run(executable, arguments, input: input) }
    }

    static func run(_ executable: String, _ arguments: [String], input: Data) throws -> String {
        let directory = FileManager.default.temporaryDirectory
        let inputURL = directory.appendingPathComponent("h2-in-\(UUID().uuidString)")
        let outputURL = directory.appendingPathComponent("h2-out-\(UUID().uuidString)")
        try input.write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: inputURL)
            try? FileManager.default.removeItem(at: outputURL)
        }
        let output = try FileHandle(forWritingTo: outputURL)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = output
        process.standardError = output
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + 30) == .timedOut {
            process.terminate()
            _ = exited.wait(timeout: .now() + 5)
        }
        return (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
    }

    /// The peer: reads the requests as JSON on stdin, prints the answers as one JSON line.
    static let source = #"""
    import base64, json, socket, sys
    import h2.config, h2.connection, h2.events

    host, port = sys.argv[1], int(sys.argv[2])
    requests = json.load(sys.stdin)
    sock = socket.create_connection((host, port), timeout=20)
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    answers = []
    for request in requests:
        sid = conn.get_next_available_stream_id()
        headers = [(":method", request["method"]), (":scheme", "http"),
                   (":authority", "%s:%d" % (host, port)), (":path", request["path"])]
        headers += [(name, value) for name, value in request["headers"]]
        body = base64.b64decode(request["body"])
        conn.send_headers(sid, headers, end_stream=not body)
        if body:
            conn.send_data(sid, body, end_stream=True)
        sock.sendall(conn.data_to_send())
        answer = {"status": 0, "headers": {}, "body": "", "event": None, "debug": None}
        chunks = []
        done = False
        while not done:
            data = sock.recv(65535)
            if not data:
                answer["event"] = "closed"
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.ResponseReceived) and event.stream_id == sid:
                    for name, value in event.headers:
                        if name == ":status":
                            answer["status"] = int(value)
                        else:
                            answer["headers"][name] = value
                elif isinstance(event, h2.events.DataReceived):
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    if event.stream_id == sid:
                        chunks.append(event.data)
                elif isinstance(event, h2.events.StreamEnded) and event.stream_id == sid:
                    done = True
                elif isinstance(event, h2.events.StreamReset) and event.stream_id == sid:
                    answer["event"] = "reset"
                    done = True
                elif isinstance(event, h2.events.ConnectionTerminated):
                    answer["event"] = "goaway"
                    answer["debug"] = (event.additional_data or b"").decode("utf-8", "replace")
                    done = True
            out = conn.data_to_send()
            if out:
                sock.sendall(out)
        answer["body"] = b"".join(chunks).decode("utf-8", "replace")
        answers.append(answer)
        if answer["event"] in ("goaway", "closed"):
            break
    print(json.dumps(answers))
    """#
}
