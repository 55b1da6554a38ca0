import Foundation
import Dispatch
import Testing
import PushTestSupport
@testable import ContractCheckCLI
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `contract-check serve` running in-process on its own thread, for the serve tests: waits
/// for the ready file, offers the servers' URLs, and stops cleanly.
final class ServeRun: @unchecked Sendable {
    let output = ServeCommandTests.Collected()
    let backend: String
    let admin: String
    let apns: String
    private let stopSignal = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let status = ServeCommandTests.ExitStatus()

    /// Starts serve with `arguments` (a ready file is added) and waits until it listens.
    init(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment,
         readyFile given: String? = nil) async throws {
        let readyFile = given ?? FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).json").path
        let output = self.output, stop = stopSignal, finished = self.finished, status = self.status
        Thread.detachNewThread {
            status.set(ServeCommand.serve(arguments + ["--ready-file", readyFile], output: output, until: stop,
                                          environment: environment))
            finished.signal()
        }
        var ready: [String: Any]?
        for _ in 0..<500 where ready == nil {
            if let data = FileManager.default.contents(atPath: readyFile) {
                ready = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            } else if status.value != nil {
                break
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        backend = ready?["backend"] as? String ?? ""
        admin = ready?["admin"] as? String ?? ""
        apns = ready?["apns"] as? String ?? ""
    }

    /// Stops serve and returns its exit status.
    func stop() -> Int32? {
        stopSignal.signal()
        finished.wait()
        return status.value
    }

    /// One HTTP/1.1 request with URLSession.
    func send(_ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil) async throws
        -> (status: Int, body: String) {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// Registers `token` for the bearer's account with a valid PUT.
    func putDevice(_ token: String, bearer: String = "s1", environment: String = "sandbox") async throws -> Int {
        let key = Data([4] + [UInt8](repeating: 7, count: 64)).base64EncodedString()
        return try await send("PUT", backend + "/v1/devices/\(token)",
                              headers: ["Authorization": "Bearer \(bearer)", "Content-Type": "application/json"],
                              body: #"{"platform":"ios","environment":"\#(environment)","appVersion":"1.0.0","publicKey":"\#(key)"}"#).status
    }

    /// A push with the curl of the machine over h2c (prior knowledge); returns curl's
    /// `%{http_version} %{http_code}`.
    /// `host`: the Apple host the push is addressed to (curl connects to this serve's port
    /// instead, as a sender patched only in where it connects would).
    func pushWithCurl(_ token: String, providerToken: String, payload: String, host: String? = nil) async throws -> String {
        var url = apns + "/3/device/\(token)"
        var redirect: [String] = []
        if let host, let port = URL(string: apns)?.port {
            url = "http://\(host):\(port)/3/device/\(token)"
            redirect = ["--connect-to", "\(host):\(port):127.0.0.1:\(port)"]
        }
        return try await Self.curl(["-s", "-o", "/dev/null", "-w", "%{http_version} %{http_code}", "--http2-prior-knowledge",
                              "-H", "authorization: bearer \(providerToken)", "-H", "apns-topic: com.example.app",
                              "-H", "apns-push-type: alert", "-d", payload] + redirect + [url])
    }

    /// ``curl(_:)`` on a thread of its own: waiting for curl does not hold a cooperative thread.
    static func curl(_ arguments: [String]) async throws -> String {
        try await offThread { try curl(arguments) }
    }

    /// Runs the machine's curl (from PATH) with `arguments`; returns its standard output.
    static func curl(_ arguments: [String]) throws -> String {
        try tool("curl", arguments)
    }

    /// Runs `name` from PATH with `arguments` under timeout(1) (60 s); returns its standard output.
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["timeout", "60", name] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits (bounded) until a log line satisfies `predicate`.
    func waitForLine(_ predicate: (String) -> Bool) async throws -> String? {
        for _ in 0..<300 {
            if let line = output.output.first(where: predicate) { return line }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }
}

extension ServeCommand {
    /// Serve writing to `output`'s capturing ``CommandIO``, seeing `environment` (the
    /// process's by default, as the tool does).
    static func serve(_ arguments: [String], output: ServeCommandTests.Collected, until stop: DispatchSemaphore,
                      environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        serve(arguments, io: output.start(environment: environment), until: stop)
    }
}
