import Foundation
import Contracts
import FakeAPNs
import FakeSupport
import LoopbackHTTP
import PushCore
import PushScenarios

/// `contract-check sender-check --sender 'COMMAND'`: grades an APNs sender in any language,
/// case by case, over the wire (DESIGN, "Checking a sender in any language").
enum SenderCheckCommand: Subcommand {
    static let name = "sender-check"

    static let help = CommandHelp(
        abstract: "Grade an APNs sender in any language against FakeAPNs, case by case.",
        usage: "sender-check --sender 'COMMAND' [--case NAME ...] [--list] [--auth token|certificate] [--no-tls] [--format text|json|junit] [--output FILE] [--timeout SECONDS]",
        options: [
            OptionSpec("--sender", valueName: "COMMAND", help: "The adapter to run once for the whole run, through /bin/sh -c."),
            OptionSpec("--case", valueName: "NAME", isRepeatable: true, help: "Run only this case (repeat for more; default: every case)."),
            OptionSpec("--list", help: "Print every case with one sentence and exit."),
            OptionSpec("--auth", valueName: "AUTH", allowedValues: SenderCheckAuthentication.allCases.map(\.rawValue),
                       help: "token (default: a .p8 key) or certificate (a client certificate; needs TLS)."),
            OptionSpec("--no-tls", help: "FakeAPNs speaks h2c (HTTP/2 without TLS) instead of TLS."),
            OptionSpec("--format", valueName: "FORMAT", allowedValues: ["text", "json", "junit"], help: "The report's format (default text)."),
            OptionSpec("--output", valueName: "FILE", help: "Write the report to FILE instead of standard output."),
            OptionSpec("--timeout", valueName: "SECONDS", help: "How long a call may stay unanswered (default 30)."),
        ],
        discussion: """
            ENVIRONMENT (the sender's): APNS_URL, APNS_CA_FILE (PEM to trust; empty with --no-tls),
            APNS_TOPIC; token auth: APNS_KEY_FILE (.p8), APNS_KEY_ID, APNS_TEAM_ID; certificate
            auth: APNS_CERT_FILE, APNS_CERT_KEY_FILE, APNS_P12_FILE (empty password).

            PROTOCOL: one JSON call a line on stdin; answer each with one line on stdout with its
            id once done. Other stdout lines and stderr are the sender's log.
              {"id":1,"call":"tokenRegistered","token":HEX}                  -> {"id":1}
              {"id":2,"call":"send","token":HEX,"pushType":"alert","payload":{...}}
                  -> {"id":2,"result":"delivered"|"token-invalid"|"failed"}
              {"id":N,"call":"finish"}                                       -> {"id":N}, then exit
              a call you have no code for                                    -> {"id":N,"unsupported":true}

            AN ADAPTER, in a few lines (python3, your sender in place of my_sender):
              import json, sys, my_sender
              for line in sys.stdin:
                  call = json.loads(line); answer = {"id": call["id"]}
                  if call["call"] == "send": answer["result"] = my_sender.send(call["token"], call["payload"])
                  elif call["call"] != "tokenRegistered" and call["call"] != "finish": answer["unsupported"] = True
                  print(json.dumps(answer), flush=True)

            EXIT STATUS: 0 every case passed (or was skipped), 1 a case failed or the sender broke
            the protocol (exited early, left a call unanswered past --timeout, wrote an answer
            that is not the protocol), 64 usage error.
              See Docs/readme/sender-check.md.
            """)

    /// The topic FakeAPNs accepts and the sender gets in `APNS_TOPIC`.
    static let topic = "com.example.app"

    struct Options {
        var sender: String
        var cases: [SenderCheckCase]
        var authentication: SenderCheckAuthentication
        var tls: Bool
        var format: String
        var output: String?
        var timeout: Double
    }

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        // Help, --list and usage errors are answered here, on the caller's thread: only the
        // check itself needs a task, so `--help` never waits for a cooperative thread (a
        // caller on one, as the tests are, would otherwise hold one while the task needs one).
        let options: Options
        switch prepare(arguments, io: io) {
        case .exit(let code): return code
        case .check(let checked): options = checked
        }
        let done = DispatchSemaphore(value: 0)
        let status = Locked<Int32>(ExitCode.findings)
        Task.detached {
            let code = await check(options, io: io)
            status.withLock { $0 = code }
            done.signal()
        }
        done.wait()
        return status.withLock { $0 }
    }

    /// ``run(_:io:)`` for callers already in `async` code (the tests).
    static func run(_ arguments: [String], io: CommandIO) async -> Int32 {
        switch prepare(arguments, io: io) {
        case .exit(let code): return code
        case .check(let options): return await check(options, io: io)
        }
    }

    /// What the arguments ask for: an exit with its status (help, `--list`, a usage error,
    /// each already printed), or a check with its options.
    enum Prepared {
        case exit(Int32)
        case check(Options)
    }

    static func prepare(_ arguments: [String], io: CommandIO) -> Prepared {
        let parsed: ParsedArguments
        switch parse(arguments, io: io) {
        case .run(let arguments): parsed = arguments
        case .exit(let code): return .exit(code)
        }
        if parsed.flags.contains("--list") {
            for testCase in SenderCheckCase.allCases {
                io.writeLine(CommandHelp.row(testCase.rawValue, testCase.summary).dropFirst(2).description)
            }
            return .exit(ExitCode.success)
        }
        do {
            return .check(try readOptions(parsed))
        } catch {
            return .exit(reportUsageError(error, io: io))
        }
    }

    static func readOptions(_ parsed: ParsedArguments) throws(UsageError) -> Options {
        if let extra = parsed.positionals.first {
            throw .unexpectedArgument(extra, hint: "give the sender with --sender 'COMMAND'.")
        }
        guard let sender = parsed.value(for: "--sender"), !sender.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .missingArgument("--sender 'COMMAND'")
        }
        var cases: [SenderCheckCase] = []
        for name in parsed.values["--case"] ?? [] {
            guard let testCase = SenderCheckCase(name: name) else {
                let names = SenderCheckCase.allCases.map(\.rawValue)
                throw .invalidValue(name, option: "--case", allowed: names,
                                    suggestion: Suggestion.closest(to: name, among: names, acceptingUniquePrefix: true))
            }
            if !cases.contains(testCase) { cases.append(testCase) }
        }
        let authentication = parsed.value(for: "--auth").flatMap(SenderCheckAuthentication.init(rawValue:)) ?? .token
        let tls = !parsed.flags.contains("--no-tls")
        if authentication == .certificate && !tls {
            throw .conflictingOptions("--auth certificate", "--no-tls", advice: "a client certificate is presented in the TLS handshake; drop --no-tls")
        }
        var timeout = 30.0
        if let text = parsed.value(for: "--timeout") {
            guard let value = Double(text), value.isFinite, value > 0, value <= 3600 else {
                throw .invalidValue(text, option: "--timeout", expected: "a number of seconds above 0 and at most 3600, e.g. 30",
                                    outOfRange: Double(text) != nil)
            }
            timeout = value
        }
        if let output = parsed.value(for: "--output"), output.isEmpty {
            throw .unusableValue(output, option: "--output", reason: "give a file path")
        }
        return Options(sender: sender, cases: cases.isEmpty ? SenderCheckCase.allCases : cases, authentication: authentication,
                       tls: tls, format: parsed.value(for: "--format") ?? "text", output: parsed.value(for: "--output"),
                       timeout: timeout)
    }
}
