import Foundation
import Dispatch
import Testing
@testable import ContractCheckCLI
import Contracts
@testable import FakeAPNs
import FakeBackend
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `contract-check serve`, in-process: options, ready file, request log, clean stop.
@Suite struct ServeCommandTests {
    /// Collects what `serve` prints through a capturing ``CommandIO``, as lines.
    final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var io = CommandIO.capturing()
        /// A capturing `io` with `environment` for one serve run; `output` reads it.
        func start(environment: [String: String]) -> CommandIO {
            lock.lock(); defer { lock.unlock() }
            io = CommandIO.capturing(environment: environment)
            return io
        }
        private var current: CommandIO { lock.lock(); defer { lock.unlock() }; return io }
        var output: [String] { current.capturedOutput.split(separator: "\n").map(String.init) }
        var errorOutput: [String] { current.capturedError.split(separator: "\n").map(String.init) }
    }

    /// The exit status, set by the serving thread.
    final class ExitStatus: @unchecked Sendable {
        private let lock = NSLock()
        private var code: Int32?
        func set(_ value: Int32) { lock.lock(); code = value; lock.unlock() }
        var value: Int32? { lock.lock(); defer { lock.unlock() }; return code }
    }

    /// For runs that must fail before serving: a stop already signalled, so a serve that
    /// wrongly starts stops at once and the test fails on its exit status instead of hanging.
    /// (Signalled after creation, not created with 1: libdispatch traps when a semaphore is
    /// freed below its initial value.)
    static func stopAtOnce() -> DispatchSemaphore {
        let stop = DispatchSemaphore(value: 0)
        stop.signal()
        return stop
    }

    /// The environment FakeAPNs learns a registered device in is the one its `environment`
    /// names, exactly as `APNsEnvironment(rawValue:)` reads it.
    @Test func aDevicesEnvironmentIsReadAsItsRawValue() {
        for name in APNsEnvironment.allCases.map(\.rawValue) + ["", "Production", "sandbox ", "development", "prod"] {
            #expect(ServeCommand.environment(named: name) == APNsEnvironment(rawValue: name), "\(name)")
        }
    }

    @Test func parsesEveryOption() throws {
        let options = try ServeCommand.parse(["--backend-port", "8080", "--admin-port=8081", "--session", "s1=a1",
                                              "--session=s2=a=2", "--ready-file", "/tmp/x.json", "--quiet"])
        #expect(options.backendPort == 8080)
        #expect(options.adminPort == 8081)
        #expect(options.sessions == ["s1": "a1", "s2": "a=2"])
        #expect(options.readyFile == "/tmp/x.json")
        #expect(options.quiet)
        let apns = try ServeCommand.parse(["--apns-any-token", "--apns-topic", "com.example", "--apns-port=8082",
                                           "--apns-key", "ABC123DEFG:DEF123GHIJ:/keys/AuthKey.p8"])
        #expect(apns.apnsAnyToken && apns.apnsTopics == ["com.example"] && apns.apnsPort == 8082)
        #expect(apns.apnsKeys.map(\.keyID) == ["ABC123DEFG"] && apns.apnsKeys.first?.path == "/keys/AuthKey.p8")
        #expect(apns.runsAPNs)
        #expect(try ServeCommand.parse(["--quiet"]).runsAPNs)
        #expect(try !ServeCommand.parse(["--no-apns"]).runsAPNs)
        let development = try ServeCommand.parse(["--scenario", "410s", "--forward-to-simulator", "com.example", "--color", "never"])
        #expect(development.scenario == .unregistered)
        #expect(development.simulatorBundleID == "com.example")
        #expect(development.colour == "never")
        #expect(development.runsAPNs)
    }

    @Test(arguments: [
        (["--backend-port", "70000"], "invalid value '70000' for '--backend-port': out of range; expected a port from 0 to 65535"),
        (["--session", "nope"], "invalid value 'nope' for '--session': expected TOKEN=ACCOUNT"),
        (["--ready-file"], "needs a value"),
        (["--backend-prot", "1"], "unknown option '--backend-prot'; did you mean '--backend-port'?"),
        (["extra"], "options only"),
        (["--apns-key", "ABC123DEFG:/x.p8"], "Error: invalid value 'ABC123DEFG:/x.p8' for '--apns-key': expected KEY_ID:TEAM_ID:FILE.p8, e.g. ABC123DEFG:DEF123GHIJ:AuthKey_ABC123DEFG.p8"),
        // Worded as every subcommand words a value outside a set, with its did-you-mean.
        (["--scenario", "sunny-day"], "invalid value 'sunny-day' for '--scenario': expected one of 'throttling', '410s', 'offline-sign-out', 'duplicate-delivery', 'order-tracker'"),
        (["--scenario", "410"], "expected one of 'throttling', '410s', 'offline-sign-out', 'duplicate-delivery', 'order-tracker'; did you mean '410s'?"),
        (["--color", "allways"], "invalid value 'allways' for '--color': expected one of 'auto', 'always', 'never'; did you mean 'always'?"),
        (["--apns-environment", "prod"], "invalid value 'prod' for '--apns-environment': expected one of 'production', 'development'; did you mean 'production'?"),
        // Checked before anything starts, in a sentence rather than a Foundation error dump.
        (["--ready-file", "/nonexistent-dir/x.json"], "Error: cannot use '/nonexistent-dir/x.json' for '--ready-file': the folder /nonexistent-dir does not exist; create it or give another path"),
        (["--ready-file", "/tmp"], "cannot use '/tmp' for '--ready-file': it is a folder; give a file path"),
    ])
    func usageErrorsExit64(arguments: [String], expected: String) {
        let output = Collected()
        let status = ServeCommand.serve(arguments, output: output, until: Self.stopAtOnce())
        #expect(status == 64)
        #expect(output.errorOutput.first?.contains(expected) == true, "\(output.errorOutput)")
        #expect(output.errorOutput.contains { $0.hasPrefix("Usage: contract-check serve") })
    }

    /// An option for FakeAPNs with `--no-apns` is a script's mistake, said before anything starts.
    @Test(arguments: [
        ["--apns-port", "8082"], ["--apns-key", "ABC123DEFG:DEF123GHIJ:/keys/AuthKey.p8"], ["--apns-topic", "com.example.app"],
        ["--apns-environment", "production"], ["--apns-any-token"], ["--forward-to-simulator", "com.example.app"],
        ["--scenario", "410s"],
    ])
    func noAPNsWithAnAPNsOptionExits64NamingBoth(_ apnsOption: [String]) {
        let output = Collected()
        let status = ServeCommand.serve(["--no-apns"] + apnsOption, output: output, until: Self.stopAtOnce())
        #expect(status == 64)
        #expect(output.errorOutput.first == "Error: --no-apns and \(apnsOption[0]) cannot be combined; --no-apns runs no FakeAPNs, so drop one of them",
                "\(output.errorOutput)")
        #expect(output.output.isEmpty, "nothing started")
    }

    /// A port in use: the server named once, the admin API named as the admin API, and the option to change.
    @Test(arguments: [("--backend-port", "FakeBackend"), ("--admin-port", "the admin API"), ("--apns-port", "FakeAPNs")])
    func aBusyPortNamesTheServerOnceAndItsOption(option: String, server: String) async throws {
        let first = try await ServeRun(["--quiet"])
        let busy = try #require(URL(string: first.backend)?.port)
        let output = Collected()
        let status = ServeCommand.serve([option, String(busy)], output: output, until: Self.stopAtOnce())
        #expect(first.stop() == 0)
        #expect(status == 1)
        let line = output.errorOutput.first ?? ""
        #expect(line.hasPrefix("Error: cannot start \(server) on 127.0.0.1:\(busy): bind("), "\(line)")
        #expect(line.hasSuffix("; give another \(option), or 0 for a free port"), "\(line)")
        #expect(!line.contains("FakeBackend: ") && !line.contains("could not listen"), "no repeated prefix: \(line)")
    }

    /// A key file that cannot be used is the command line's mistake (64), said before anything starts.
    @Test func anUnreadableAPNsKeyFileExits64() {
        let output = Collected()
        #expect(ServeCommand.serve(["--apns-key", "ABC123DEFG:DEF123GHIJ:/no/such/AuthKey.p8"], output: output,
                                   until: Self.stopAtOnce()) == 64)
        #expect(output.errorOutput.first?.contains("for '--apns-key': /no/such/AuthKey.p8 does not exist") == true, "\(output.errorOutput)")
        #expect(output.output.isEmpty)
    }

    @Test func servesUntilStoppedWithReadyFileAndLog() async throws {
        let readyFile = FileManager.default.temporaryDirectory.appendingPathComponent("serve-\(UUID().uuidString).json").path
        let output = Collected()
        let stop = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let status = ExitStatus()
        Thread.detachNewThread {
            status.set(ServeCommand.serve(["--session", "s1=a1", "--ready-file", readyFile], output: output, until: stop))
            finished.signal()
        }
        // The ready file appears once both servers listen (bounded wait on the file itself).
        var ready: [String: Any]?
        for _ in 0..<500 where ready == nil {
            if let data = FileManager.default.contents(atPath: readyFile) {
                ready = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let backendURL = try #require(ready?["backend"] as? String)
        let adminURL = try #require(ready?["admin"] as? String)
        let apnsURL = try #require(ready?["apns"] as? String)
        #expect(output.output.prefix(3) == ["backend \(backendURL)", "apns \(apnsURL)", "admin \(adminURL)"])
        #expect(output.output.dropFirst(3).first == "Dashboard: \(adminURL)/", "the page's URL follows the servers' (issue 26)")

        var put = URLRequest(url: try #require(URL(string: backendURL + "/v1/devices/abcd")))
        put.httpMethod = "PUT"
        put.setValue("Bearer s1", forHTTPHeaderField: "Authorization")
        put.httpBody = Data(#"{"platform":"ios","environment":"sandbox","appVersion":"1.0.0","publicKey":"\#(Data([4] + [UInt8](repeating: 7, count: 64)).base64EncodedString())"}"#.utf8)
        let (_, response) = try await URLSession.shared.data(for: put)
        #expect((response as? HTTPURLResponse)?.statusCode == 204)
        let (devices, _) = try await URLSession.shared.data(from: try #require(URL(string: adminURL + "/devices")))
        #expect(String(decoding: devices, as: UTF8.self).contains(#""account" : "a1""#))
        #expect(output.output.contains { $0.contains("PUT /v1/devices/abcd 204 account=a1 violations=0") })

        stop.signal()
        finished.wait()
        #expect(status.value == 0)
        #expect(!FileManager.default.fileExists(atPath: readyFile))
        #expect(output.output.last == "stopped")
    }
}

/// The live log's line content (issue 16, items 14 and 19): the path as requested, device
/// tokens shortened and cased alike in backend and APNs lines, the journal's detail, and the
/// document's root named `(document)` as `validate` names it.
@Suite struct ServeLogLineTests {
    static let token = "0A1B2C3D4E5F60718293A4B5C6D7E8F90A1B2C3D4E5F60718293A4B5C6D7E8F9"

    func apnsEntry(method: String = "POST", path: String, status: Int, reason: String?, detail: String? = nil) -> APNsJournalEntry {
        var entry = APNsJournalEntry(sequence: 1, receivedAt: 1_796_136_788_123, method: method, path: path,
                                     deviceToken: nil, apnsID: "x", topic: nil, pushType: nil, collapseID: nil, payloadBytes: 0,
                                     status: status, reason: reason, violations: [], fault: nil, delivery: nil,
                                     detail: detail, connectionID: 1, protocolVersion: .http2)
        entry.environment = .sandbox
        return entry
    }

    @Test func apnsLinesShowTheRequestedPathAndTheDetail() {
        let log = ServeLog(colour: false)
        #expect(log.line(apnsEntry(method: "GET", path: "/3/device/\(Self.token)", status: 405, reason: "MethodNotAllowed"))
            == "14:53:08.123 apns GET /3/device/0a1b2c3d…e8f9 405 MethodNotAllowed")
        #expect(log.line(apnsEntry(path: "/foo", status: 404, reason: "BadPath"))
            == "14:53:08.123 apns POST /foo 404 BadPath")
        #expect(log.line(apnsEntry(path: "/3/device/\(Self.token)", status: 403, reason: "InvalidProviderToken",
                                   detail: "the signature does not verify"))
            == "14:53:08.123 apns POST /3/device/0a1b2c3d…e8f9 403 InvalidProviderToken (the signature does not verify)")
    }

    @Test func backendLinesShortenTokensAsAPNsLinesDoAndNameTheRootDocument() {
        let entry = BackendJournalEntry(
            sequence: 1, time: Date(timeIntervalSince1970: 1_796_136_788.123), endpoint: .putDevice, method: "PUT",
            path: "/v1/devices/\(Self.token)", account: "a1", status: 400,
            violations: [Violation(pointer: "", ruleID: "device-registration.json", message: "expected an object")],
            fault: nil)
        #expect(ServeLog(colour: false).line(entry) == """
            14:53:08.123 backend PUT /v1/devices/0a1b2c3d…e8f9 400 account=a1 violations=1
                (document): expected an object [device-registration.json]
            """)
    }
}
