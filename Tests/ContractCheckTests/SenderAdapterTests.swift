import Foundation
import Testing
import PushTestSupport

/// The Python adapters in `Examples/Senders/` (issue 38 item 4): each compiles, and speaks
/// sender-check's protocol before it ever pushes — it answers `tokenRegistered`, the order
/// tracker's first call (`{"id":N}` when its library has Live Activities, `unsupported` when
/// not) and `finish`, then exits 0. No push is sent, so no FakeAPNs is needed: the clients
/// connect on the first push. A library that is not installed skips its test
/// (`scripts/install-peers.sh` installs them all); `sender-check` itself runs them in
/// Docs/readme/sender-check-table.md.
@Suite struct SenderAdapterTests {
    struct Adapter: Sendable, CustomStringConvertible {
        var script: String
        var module: String
        /// Whether the library sends Live Activity pushes (push type liveactivity).
        var liveActivities: Bool
        var description: String { script }
    }

    static let aioapns = Adapter(script: "aioapns_adapter.py", module: "aioapns", liveActivities: true)
    static let apns2 = Adapter(script: "apns2_adapter.py", module: "apns2", liveActivities: false)
    static let kalyke = Adapter(script: "kalyke_adapter.py", module: "kalyke", liveActivities: true)
    static let pyapns = Adapter(script: "pyapns_client_adapter.py", module: "pyapns_client", liveActivities: false)

    static let folder = packageRoot + "/Examples/Senders"
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// python3 imports the adapter's library (and PyJWT, which they all sign with).
    static func installed(_ adapter: Adapter) async -> Bool {
        guard python != nil else { return false }
        return await offThread { ExternalPeer.pythonHas("\(adapter.module), jwt") }
    }

    /// What a run printed: exit status, stdout, stderr.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        /// The stdout lines that are answers, decoded.
        var answers: [Answer] {
            stdout.split(separator: "\n").compactMap { line in try? JSONDecoder().decode(Answer.self, from: Data(line.utf8)) }
        }
    }

    /// One answer line: `{"id":N}`, with `"unsupported":true` or a `result`.
    struct Answer: Decodable, Equatable {
        var id: Int
        var unsupported: Bool?
        var result: String?

        static func done(_ id: Int) -> Answer { Answer(id: id) }
        static func unsupported(_ id: Int) -> Answer { Answer(id: id, unsupported: true) }
    }

    /// Runs `executable` (under `timeout 60`) in the adapters' folder with `input` on stdin,
    /// on a thread of its own: waiting for python does not hold a cooperative thread.
    static func run(_ executable: String, _ arguments: [String], input: String, environment: [String: String] = [:]) async throws -> Output {
        try await offThread { try blockingRun(executable, arguments, input: input, environment: environment) }
    }

    private static func blockingRun(_ executable: String, _ arguments: [String], input: String, environment: [String: String]) throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("sender-adapter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = ["in", "out", "err"].map { scratch.appendingPathComponent($0) }
        try Data(input.utf8).write(to: files[0])
        for file in files.dropFirst() { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let handles = try (FileHandle(forReadingFrom: files[0]), FileHandle(forWritingTo: files[1]), FileHandle(forWritingTo: files[2]))
        defer { [handles.0, handles.1, handles.2].forEach { try? $0.close() } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // Byte code goes to the scratch folder, never into Examples/Senders.
        let settings = environment.merging(["PYTHONPYCACHEPREFIX": scratch.path + "/pycache"]) { $1 }
        process.arguments = settings.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + ["timeout", "60", executable] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        (process.standardInput, process.standardOutput, process.standardError) = handles
        try process.run()
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: files[1], encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: files[2], encoding: .utf8)) ?? "")
    }

    /// sender-check's environment for token authentication, with a port nothing listens on.
    static func tokenEnvironment() throws -> (environment: [String: String], folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sender-adapter-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("AuthKey_ADAPTER001.p8")
        // Read at start, signed with only at the first push: its contents do not matter here.
        try Data("-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n".utf8).write(to: key)
        return (["APNS_URL": "https://127.0.0.1:9", "APNS_CA_FILE": "", "APNS_TOPIC": "com.example.app",
                 "APNS_KEY_FILE": key.path, "APNS_KEY_ID": "ADAPTER001", "APNS_TEAM_ID": "ADAPTTEAM1"], folder)
    }

    static let calls = """
        {"id":1,"call":"tokenRegistered","token":"\(String(repeating: "ab", count: 32))"}
        {"id":2,"call":"pushToStartTokenRegistered","token":"\(String(repeating: "cd", count: 32))","device":"\(String(repeating: "ab", count: 32))"}
        {"id":3,"call":"finish"}

        """

    /// The adapter compiles and answers the three calls, in order, then exits 0.
    static func check(_ adapter: Adapter) async throws {
        let python = try #require(python)
        let script = folder + "/" + adapter.script
        let compiled = try await run(python, ["-m", "py_compile", script, folder + "/adapter_protocol.py"], input: "")
        #expect(compiled.status == 0, "python3 -m py_compile \(adapter.script): \(compiled.stderr)")

        let (environment, keyFolder) = try tokenEnvironment()
        defer { try? FileManager.default.removeItem(at: keyFolder) }
        let output = try await run(python, [script], input: calls, environment: environment)
        #expect(output.status == 0, "\(adapter.script) exited \(output.status): \(output.stderr)")
        let tracker: Answer = adapter.liveActivities ? .done(2) : .unsupported(2)
        #expect(output.answers == [.done(1), tracker, .done(3)], "\(adapter.script) answered: \(output.stdout) \(output.stderr)")
    }

    @Test(.enabled("python3 with aioapns and PyJWT is not installed") { await installed(aioapns) })
    func aioapnsAdapterAnswersTheProtocol() async throws { try await Self.check(Self.aioapns) }

    @Test(.enabled("python3 with apns2 (apns2-up) and PyJWT is not installed") { await installed(apns2) })
    func apns2AdapterAnswersTheProtocol() async throws { try await Self.check(Self.apns2) }

    @Test(.enabled("python3 with kalyke (kalyke-apns) and PyJWT is not installed") { await installed(kalyke) })
    func kalykeAdapterAnswersTheProtocol() async throws { try await Self.check(Self.kalyke) }

    @Test(.enabled("python3 with pyapns_client and PyJWT is not installed") { await installed(pyapns) })
    func pyapnsClientAdapterAnswersTheProtocol() async throws { try await Self.check(Self.pyapns) }

    /// Under `--no-tls` (an `http://` APNS_URL) an adapter stops before any call and says why:
    /// its library would fall back to HTTP/1.1 and every case would fail for that alone.
    @Test(.enabled("python3 with pyapns_client is not installed") { await installed(pyapns) })
    func anAdapterRefusesCleartextWithASentence() async throws {
        let python = try #require(Self.python)
        let (environment, keyFolder) = try Self.tokenEnvironment()
        defer { try? FileManager.default.removeItem(at: keyFolder) }
        let output = try await Self.run(python, [Self.folder + "/" + Self.pyapns.script], input: Self.calls,
                                  environment: environment.merging(["APNS_URL": "http://127.0.0.1:9"]) { $1 })
        #expect(output.status == 2)
        #expect(output.answers == [])
        #expect(output.stderr.contains("this adapter needs TLS (APNS_URL http://127.0.0.1:9): run sender-check without --no-tls"), "\(output.stderr)")
    }

    /// With `--auth certificate` (a certificate and no `.p8`), a library that has no
    /// certificate client for alert pushes answers `tokenRegistered` unsupported, so
    /// sender-check skips its cases instead of failing them.
    @Test(.enabled("python3 with kalyke and pyapns_client is not installed") {
              guard await installed(kalyke) else { return false }
              return await installed(pyapns)
          },
          arguments: [kalyke, pyapns])
    func tokenOnlyLibrariesAnswerUnsupportedUnderCertificateAuth(_ adapter: Adapter) async throws {
        let python = try #require(Self.python)
        let environment = ["APNS_URL": "https://127.0.0.1:9", "APNS_CA_FILE": "", "APNS_TOPIC": "com.example.app",
                           "APNS_CERT_FILE": "/nonexistent/cert.pem", "APNS_CERT_KEY_FILE": "/nonexistent/key.pem"]
        let output = try await Self.run(python, [Self.folder + "/" + adapter.script], input: Self.calls, environment: environment)
        #expect(output.status == 0, "\(adapter.script) exited \(output.status): \(output.stderr)")
        #expect(output.answers == [.unsupported(1), .unsupported(2), .done(3)], "\(adapter.script) answered: \(output.stdout)")
    }
}
