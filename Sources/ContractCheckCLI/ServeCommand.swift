import Foundation
import Dispatch
import FakeBackend
import PushScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `contract-check serve`: runs FakeBackend, FakeAPNs and the admin API as local servers
/// until Ctrl-C or SIGTERM, for local development and CI scripts. A token the app PUTs to
/// the backend becomes a device FakeAPNs knows, so a push to it is delivered.
///
/// ```
/// $ contract-check serve --session s1=a1 --apns-topic com.example.app
/// backend http://127.0.0.1:50123
/// admin http://127.0.0.1:50124
/// apns http://127.0.0.1:50125
/// 04:05:06.123 backend PUT   /v1/devices/ab12 204 account=a1
/// 04:05:07.456 apns    POST  /3/device/ab12 200 apns-id=… delivered
/// ```
public enum ServeCommand {
    /// The one line shown in the tool's list of subcommands.
    public static let abstract = "Run FakeBackend and FakeAPNs as local servers, with an admin API on its own port."

    /// The usage line, after the tool's name.
    public static let usage = "serve [--backend-port N] [--apns-port N] [--admin-port N] [--session TOKEN=ACCOUNT ...] [--ready-file PATH] [--quiet] [--color auto|always|never] [--apns-topic BUNDLE_ID ...] [--apns-key KEY_ID:TEAM_ID:FILE.p8 ...] [--apns-any-token] [--forward-to-simulator BUNDLE_ID] [--scenario NAME]"

    /// The full `--help` text.
    public static let helpText = """
        OVERVIEW: \(abstract)

        USAGE: contract-check \(usage)

        OPTIONS:
          --backend-port N            Port for FakeBackend (default 0: a free port).
          --admin-port N              Port for the admin API (default 0: a free port).
          --session TOKEN=ACCOUNT     A bearer token and its account id; repeat for more.
                                      Without any, every bearer token is its own account.
          --ready-file PATH           Once every server listens, write their URLs to PATH as
                                      JSON (atomically); removed again on exit.
          --quiet                     Do not log requests (the journal still keeps them).
          --color WHEN                auto (default: colour on a terminal unless NO_COLOR
                                      is set), always or never.
          --apns-port N               Port for FakeAPNs, HTTP/1.1 and h2c (default 0).
          --apns-topic BUNDLE_ID      The app's bundle id; repeat for more. Other topics get
                                      TopicDisallowed; tokens PUT to the backend are
                                      registered in FakeAPNs for these topics.
          --apns-key KEY_ID:TEAM_ID:FILE.p8
                                      A provider-token key FakeAPNs verifies (a .p8 or a
                                      public key PEM); repeat for more. Without one, serve
                                      makes a development key (DEVKEY0001, team DEVTEAM001).
          --apns-any-token            Any well-formed device token is a known device.
          --forward-to-simulator BUNDLE_ID
                                      Write each accepted push to a .apns file and run
                                      `xcrun simctl push booted BUNDLE_ID FILE` (macOS).
          --scenario NAME             Preload a scenario's faults: throttling, 410s,
                                      offline-sign-out, duplicate-delivery.
          -h, --help                  Show this help.

        Prints one line per server when it listens ("backend http://127.0.0.1:PORT",
        "admin …", "apns …"), then one line per request to either fake. A provider token for
        serve's key: GET <admin>/apns/provider-token. Stops on Ctrl-C or SIGTERM and exits 0.
        The admin API is described in Docs/admin-openapi.json; GET <admin>/ lists its routes.

        """

    /// What the command line asked for.
    struct Options: Equatable {
        var backendPort: UInt16 = 0
        var adminPort: UInt16 = 0
        var sessions: [String: String] = [:]
        var readyFile: String?
        var quiet = false
        var wantsHelp = false
        var colour = "auto"
        var apnsPort: UInt16 = 0
        var apnsTopics: [String] = []
        var apnsKeys: [String] = []
        var apnsAnyToken = false
        var simulatorBundleID: String?
        var scenario: PushScenario?
    }

    /// A command line that cannot be run.
    struct UsageProblem: Error, Equatable {
        var message: String
    }

    private static let valueOptions = ["--backend-port", "--apns-port", "--admin-port", "--session", "--ready-file",
                                       "--apns-topic", "--apns-key", "--forward-to-simulator", "--scenario", "--color"]
    private static let flagOptions = ["--apns-any-token", "--quiet", "-h", "--help"]

    /// Runs the servers until SIGINT or SIGTERM; returns 0 after a clean stop, 1 when a server
    /// cannot start, 64 for a usage error.
    public static func run(_ arguments: [String]) -> Int32 {
        let stop = DispatchSemaphore(value: 0)
        // Signals arrive through dispatch sources, so the default action (terminate) is off.
        let queue = DispatchQueue(label: "contract-check.serve.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { stop.signal() }
            source.resume()
            sources.append(source)
        }
        defer {
            for source in sources { source.cancel() }
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        return serve(arguments, output: StandardOutput(), until: stop)
    }

    /// Starts the servers, reports them, and blocks until `stop` is signalled; then stops
    /// them and returns the exit code. Tests call this with their own `output` and `stop`.
    /// - Parameter environment: the process environment (`NO_COLOR`, and the `PATH` that
    ///   `--forward-to-simulator` finds `xcrun` on).
    static func serve(_ arguments: [String], output: some ServeOutput, until stop: DispatchSemaphore,
                      environment: [String: String] = ProcessInfo.processInfo.environment) -> Int32 {
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            output.error("Error: \(error.message)")
            output.error("Usage: contract-check \(usage)")
            output.error("  See 'contract-check serve --help' for more information.")
            return 64
        }
        if options.wantsHelp {
            output.line(helpText)
            return 0
        }
        let isTerminal = output is StandardOutput && isatty(STDOUT_FILENO) == 1
        let log = ServeLog(colour: ServeLog.wantsColour(options.colour, environment: environment, isTerminal: isTerminal))
        let session: ServeSession
        do {
            session = try ServeSession.start(options: options, output: output, log: log, environment: environment)
        } catch let problem as UsageProblem {
            output.error("Error: \(problem.message)")
            output.error("  See 'contract-check serve --help' for more information.")
            return 64
        } catch {
            output.error("Error: \(error)")
            return 1
        }

        stop.wait()

        session.stop()
        output.line("stopped")
        return 0
    }

    /// Parses the command line; `--name value` and `--name=value` both work.
    static func parse(_ arguments: [String]) throws(UsageProblem) -> Options {
        var options = Options()
        var index = 0
        while index < arguments.count {
            var argument = arguments[index]
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            index += 1
            if flagOptions.contains(argument) {
                if argument == "-h" || argument == "--help" { options.wantsHelp = true }
                if argument == "--quiet" { options.quiet = true }
                if argument == "--apns-any-token" { options.apnsAnyToken = true }
                continue
            }
            guard valueOptions.contains(argument) else {
                let hint = suggestion(for: argument).map { " Did you mean '\($0)'?" } ?? ""
                if argument.hasPrefix("-") { throw UsageProblem(message: "unknown option '\(argument)'.\(hint)") }
                throw UsageProblem(message: "unexpected argument '\(argument)'; serve takes options only.")
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageProblem(message: "\(argument) needs a value.")
            }
            switch argument {
            case "--backend-port": options.backendPort = try port(value, option: argument)
            case "--admin-port": options.adminPort = try port(value, option: argument)
            case "--session":
                let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw UsageProblem(message: "--session expects TOKEN=ACCOUNT, found '\(value)'.")
                }
                options.sessions[String(parts[0])] = String(parts[1])
            case "--ready-file":
                guard !value.isEmpty else { throw UsageProblem(message: "--ready-file needs a path.") }
                options.readyFile = value
            case "--apns-port": options.apnsPort = try port(value, option: argument)
            case "--apns-topic":
                guard !value.isEmpty else { throw UsageProblem(message: "--apns-topic needs a bundle id.") }
                options.apnsTopics.append(value)
            case "--apns-key": options.apnsKeys.append(value)
            case "--forward-to-simulator":
                guard !value.isEmpty else { throw UsageProblem(message: "--forward-to-simulator needs a bundle id.") }
                options.simulatorBundleID = value
            case "--scenario":
                guard let scenario = PushScenario(name: value) else {
                    let names = PushScenario.allCases.map(\.rawValue).joined(separator: ", ")
                    throw UsageProblem(message: "--scenario expects one of \(names), found '\(value)'.")
                }
                options.scenario = scenario
            case "--color":
                guard ["auto", "always", "never"].contains(value) else {
                    throw UsageProblem(message: "--color expects auto, always or never, found '\(value)'.")
                }
                options.colour = value
            default:
                break
            }
        }
        return options
    }

    private static func port(_ text: String, option: String) throws(UsageProblem) -> UInt16 {
        guard let port = UInt16(text) else {
            throw UsageProblem(message: "\(option) expects a port from 0 to 65535, found '\(text)'.")
        }
        return port
    }

    /// The closest known option, when one is a small edit away.
    private static func suggestion(for argument: String) -> String? {
        let known = valueOptions + flagOptions.filter { $0.hasPrefix("--") }
        let scored = known.map { ($0, editDistance(Array(argument), Array($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 3 else { return nil }
        return best.0
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// `{"admin":"http://…","backend":"http://…","pid":123}`, written to a temporary file in
    /// the same folder and renamed, so a reader never sees half of it.
    static func writeReadyFile(path: String, servers: [(String, String)]) throws {
        var object: [String: Any] = ["pid": Int(getpid())]
        for (name, url) in servers { object[name] = url }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        let temporary = "\(path).\(getpid()).tmp"
        try (data + Data("\n".utf8)).write(to: URL(fileURLWithPath: temporary))
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "rename to \(path) failed: \(reason)"])
        }
    }
}

/// Where `serve` writes: a line per server and per request, and errors.
protocol ServeOutput: Sendable {
    func line(_ text: String)
    func error(_ text: String)
}

/// The process's standard output and error, flushed after every line so a script that
/// reads the log sees each request as it happens.
struct StandardOutput: ServeOutput {
    private static let lock = NSLock()

    func line(_ text: String) { write(text + "\n", to: STDOUT_FILENO) }
    func error(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

    private func write(_ text: String, to descriptor: Int32) {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                #else
                Darwin.write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                #endif
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}

extension ServeCommand: Subcommand {
    /// `serve`.
    public static let name = "serve"

    /// The tool's listing shows ``abstract``; `serve --help` prints ``helpText``.
    public static var help: CommandHelp { CommandHelp(abstract: abstract, usage: usage) }

    /// Runs ``run(_:)``. `serve` is long-running and logs as it goes, so it writes to the
    /// process's standard streams rather than through `io`.
    public static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        io.flush()
        return run(arguments)
    }
}
