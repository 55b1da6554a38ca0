@testable import ContractCheckCLI
import Foundation
import PushScenarios
import Testing
import PushTestSupport

/// `contract-check sender-check`: the catalogue, the protocol driver, the verdicts on a naive
/// and a careful sender, the sentences for a sender that breaks the protocol, the reports.
@Suite("sender-check")
struct SenderCheckCommandTests {
    /// Runs sender-check in-process and returns what it printed.
    static func check(_ arguments: [String], in directory: String = packageRoot) async -> RunResult {
        let io = CommandIO.capturing(currentDirectory: directory)
        let status = await SenderCheckCommand.run(arguments, io: io)
        return RunResult(status: status, output: io.capturedOutput, error: io.capturedError)
    }

    /// The JSON report of a run, as an object.
    static func json(_ arguments: [String]) async throws -> (status: Int32, report: [String: Any]) {
        let result = await check(arguments + ["--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return (result.status, try #require(object, "not a JSON report: \(result.output) \(result.error)"))
    }

    /// Each case's outcome and sentences, by name.
    static func cases(_ report: [String: Any]) -> [String: (outcome: String, sentences: [String])] {
        var cases: [String: (String, [String])] = [:]
        for item in report["cases"] as? [[String: Any]] ?? [] {
            if let name = item["name"] as? String {
                cases[name] = (item["outcome"] as? String ?? "", item["sentences"] as? [String] ?? [])
            }
        }
        return cases
    }

    static func has(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)") }
    }

    static let naiveAvailable = has("curl") && has("openssl") && has("python3")
    static let carefulAvailable = ServeLiveActivitySenderTests.python(with: "httpx, h2") != nil

    /// A sender in three lines of sh that answers every call at once and sends nothing.
    static let liar = #"sh -c 'while read -r l; do id=${l#*\"id\":}; id=${id%%,*}; echo "{\"id\":$id,\"result\":\"delivered\"}"; done'"#

    @Test("the JUnit report escapes XML's five characters and keeps line feeds and tabs as references, dropping what XML 1.0 forbids")
    func junitEscaping() {
        #expect(SenderCheckReport.escape("a&b<c>d\"e'f\ng\th\r\u{1}\u{FFFE}\u{FFFF}é🙂")
                == "a&amp;b&lt;c&gt;d&quot;e&apos;f&#10;g&#9;hé🙂")
    }

    @Test("--list prints every case of DESIGN with one sentence")
    func list() async {
        let result = await Self.check(["--list"])
        #expect(result.status == 0)
        for testCase in SenderCheckCase.allCases {
            #expect(result.outputLines.contains { $0.hasPrefix(testCase.rawValue + " ") && $0.hasSuffix(".") }, "\(testCase)")
        }
        #expect(result.outputLines.count == SenderCheckCase.allCases.count)
        let names = SenderCheckCase.allCases.map(\.rawValue)
        #expect(names == ["basic", "connection-reuse", "provider-token-reuse", "expired-provider-token", "max-concurrent-streams",
                          "goaway", "throttling", "server-errors", "unregistered", "bad-device-token", "payload-too-large",
                          "order-tracker", "certificate"])
    }

    @Test("usage errors exit 64: an unknown case with a suggestion, no sender, certificate without TLS, a bad timeout")
    func usage() async {
        let unknown = await Self.check(["--sender", "true", "--case", "basik"])
        #expect(unknown.status == 64)
        #expect(unknown.error.contains("did you mean 'basic'?"))
        #expect(await Self.check(["--case", "basic"]).status == 64)
        #expect(await Self.check(["--sender", "true", "--auth", "certificate", "--no-tls"]).status == 64)
        #expect(await Self.check(["--sender", "true", "--timeout", "0"]).status == 64)
        let help = await Self.check(["--help"])
        #expect(help.status == 0 && help.output.contains("for line in sys.stdin:"))
    }

    @Test("a sender that answers delivered without sending fails basic with its sentence; the JUnit report is valid XML, one testcase per case")
    func junit() async throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let result = await Self.check(["--sender", Self.liar, "--case", "basic", "--case", "unregistered", "--case", "order-tracker", "--case", "certificate",
                                       "--no-tls", "--format", "junit", "--output", folder.path + "/report.xml"])
        #expect(result.status == 1)
        #expect(result.output.contains("✗ basic: 3 of 3 push(es) never reached the device (FakeAPNs answered nothing (no request)), 3 of them answered delivered"))
        let xml = try String(contentsOfFile: folder.path + "/report.xml", encoding: .utf8)
        let parsed = try ServeLiveActivitySenderTests.run("/usr/bin/python3", ["-c", """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            print(len(root.findall('.//testcase')), len(root.findall('.//testcase/failure')), len(root.findall('.//testcase/skipped')))
            """, folder.path + "/report.xml"])
        #expect(parsed.trimmingCharacters(in: .whitespacesAndNewlines) == "4 3 1", "\(xml)")
        #expect(result.output.contains("✗ order-tracker: the tracker never started on the device"))
    }

    @Test("a sender that breaks the protocol fails the run with a sentence saying how",
          arguments: [
            ("sh -c 'read -r l; echo \"{\\\"id\\\":1}\"; read -r l; exit 3'", "the sender exited (status 3) before answering call 2 (send)"),
            ("sh -c 'while read -r l; do :; done'", "the sender left call 1 (tokenRegistered) unanswered for 3 s (--timeout)"),
            (#"sh -c 'while read -r l; do id=${l#*\"id\":}; id=${id%%,*}; echo "{\"id\":$id,\"result\":\"sent\"}"; done'"#,
             "the sender answered send 2 with result \"sent\"; answer one of delivered, token-invalid, failed"),
            ("sh -c 'read -r l; echo \"{\\\"id\\\":7}\"; sleep 5'", "the sender answered id 7, which no call is waiting for"),
            (#"sh -c 'while read -r l; do id=${l#*\"id\":}; id=${id%%,*}; echo "{\"id\":$id}"; done'"#,
             "the sender answered send 2 without a result"),
          ])
    func misbehaviour(sender: String, sentence: String) async throws {
        let (status, report) = try await Self.json(["--sender", sender, "--case", "basic", "--case", "goaway", "--no-tls", "--timeout", "3"])
        #expect(status == 1)
        let misbehaviour = try #require(report["misbehaviour"] as? String)
        #expect(misbehaviour.hasPrefix(sentence), "\(misbehaviour)")
        let cases = Self.cases(report)
        #expect(cases["basic"]?.outcome == "failed")
        #expect(cases["goaway"]?.outcome == "skipped")
    }

    @Test("the naive curl sender: basic passes; connection-reuse, provider-token-reuse, throttling, server-errors and unregistered fail with their sentences",
          .enabled(if: naiveAvailable, "curl, openssl or python3 is not installed (scripts/install-peers.sh)"))
    func naive() async throws {
        let (status, report) = try await Self.json(["--sender", "sh Examples/Senders/naive-curl.sh", "--case", "basic", "--case", "connection-reuse",
                                                    "--case", "provider-token-reuse", "--case", "throttling", "--case", "server-errors",
                                                    "--case", "unregistered"])
        #expect(status == 1)
        let cases = Self.cases(report)
        #expect(cases["basic"]?.outcome == "passed", "\(cases["basic"]?.sentences ?? [])")
        let expected = [
            "connection-reuse": "pushed 50 notifications over 50 connections; keep one connection open and send on it — APNs treats a connection per push as a denial-of-service attack",
            "provider-token-reuse": "minted 20 provider tokens for 20 pushes; mint one and reuse it",
            "throttling": "2 of 2 push(es) never reached the device (FakeAPNs answered 429 TooManyRequests ×2), 2 of them answered delivered; after 429 TooManyRequests wait",
            "server-errors": "2 of 2 push(es) never reached the device (FakeAPNs answered 500 InternalServerError, 503 ServiceUnavailable)",
            "unregistered": "answered delivered for push 2, which APNs refused with 410 Unregistered",
        ]
        for (name, sentence) in expected {
            #expect(cases[name]?.outcome == "failed", "\(name)")
            #expect(cases[name]?.sentences.contains { $0.hasPrefix(sentence) } == true, "\(name): \(cases[name]?.sentences ?? [])")
        }
    }

    @Test("a careful python3 sender (one connection, one token, backoff) passes every case it supports, token and certificate",
          .enabled(if: carefulAvailable, "python3 with httpx[http2] and PyJWT is not installed (scripts/install-peers.sh)"))
    func careful() async throws {
        for auth in ["token", "certificate"] {
            let (status, report) = try await Self.json(["--sender", "python3 Tests/SenderFixtures/careful_sender.py", "--auth", auth])
            let cases = Self.cases(report)
            #expect(status == 0, "\(auth): \(cases.filter { $0.value.outcome == "failed" })")
            for name in ["basic", "connection-reuse", "goaway", "throttling", "server-errors", "unregistered", "bad-device-token", "payload-too-large"] {
                #expect(cases[name]?.outcome == "passed", "\(auth) \(name): \(cases[name]?.sentences ?? [])")
            }
            let authCases = auth == "token" ? ["provider-token-reuse", "expired-provider-token"] : ["certificate"]
            for name in authCases { #expect(cases[name]?.outcome == "passed", "\(auth) \(name): \(cases[name]?.sentences ?? [])") }
            #expect(cases["order-tracker"]?.outcome == "skipped")
        }
    }
}
