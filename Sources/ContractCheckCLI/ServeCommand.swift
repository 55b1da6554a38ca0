import Contracts
import LoopbackHTTP
import Foundation
import Dispatch
import FakeBackend
import PushScenarios
import FakeAPNs
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `contract-check serve`: runs FakeBackend, FakeAPNs (with any `--apns-*` option) and the
/// admin API as local servers until Ctrl-C or SIGTERM, for local development and CI scripts.
///
/// ```
/// $ contract-check serve --session s1=a1 --ready-file /tmp/fakes.json
/// backend http://127.0.0.1:50123
/// admin http://127.0.0.1:50124
/// 2026-11-30T04:05:06.123Z PUT /v1/devices/ab12 204 account=a1 violations=0
/// ```
public enum ServeCommand {
    /// The one line shown in the tool's list of subcommands.
    public static let abstract = "Run FakeBackend (and FakeAPNs) as local servers, with an admin API on its own port."

    /// The usage line, after the tool's name.
    public static let usage = "serve [--backend-port N] [--apns-port N] [--admin-port N] [--session TOKEN=ACCOUNT ...] [--ready-file PATH] [--quiet] [--apns-topic BUNDLE_ID] [--apns-key KEY_ID:TEAM_ID:FILE.p8 ...] [--apns-environment production|development] [--apns-any-token] [--no-apns] [--forward-to-simulator BUNDLE_ID] [--scenario NAME]"

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
          --apns-port N               Port for FakeAPNs (default 0: a free port).
          --no-apns                   Run FakeBackend only (no FakeAPNs).
          --apns-topic BUNDLE_ID      A bundle id FakeAPNs serves; repeat for more. Tokens
                                      the app PUTs to FakeBackend become devices for them.
          --apns-key KEY_ID:TEAM_ID:FILE.p8
                                      A provider-token signing key (Apple's .p8, or a PEM
                                      public key); repeat for more. Without any, FakeAPNs
                                      accepts every provider token unchecked.
          --apns-environment production|development
                                      The environment of a push whose host is not Apple's
                                      (default development). A push addressed to
                                      api.push.apple.com is production, to
                                      api.sandbox.push.apple.com development, whatever this says.
          --apns-any-token            Accept every well-formed device token.
          --forward-to-simulator BUNDLE_ID
                                      Write each delivered push to a .apns file and run
                                      `xcrun simctl push booted BUNDLE_ID FILE` (macOS).
          --scenario NAME             Preload a scenario's faults: throttling, 410s,
                                      offline-sign-out, duplicate-delivery.
          --color WHEN                auto (colour on a terminal unless NO_COLOR is set),
                                      always or never.
          -h, --help                  Show this help.

        Prints one line per server when it listens ("backend http://127.0.0.1:PORT",
        "apns http://127.0.0.1:PORT", "admin http://127.0.0.1:PORT"), then one line per
        backend request. Stops on Ctrl-C or SIGTERM
        and exits 0. The admin API is described in Docs/admin-openapi.json.

        """

    /// What the command line asked for.
    struct Options: Equatable {
        var backendPort: UInt16 = 0
        var adminPort: UInt16 = 0
        var sessions: [String: String] = [:]
        var readyFile: String?
        var apnsPort: UInt16?
        var apnsTopics: [String] = []
        var apnsKeys: [APNsKeySpec] = []
        var apnsAnyToken = false
        var apnsEnvironment: APNsEnvironment = .sandbox
        var simulatorBundleID: String?
        var scenario: PushScenario?
        var colour = "auto"
        var quiet = false
        var wantsHelp = false

        var noAPNs = false

        /// Whether FakeAPNs runs: always, both fakes in one process, unless `--no-apns`.
        var runsAPNs: Bool { !noAPNs }
    }

    /// A command line that cannot be run.
    struct UsageProblem: Error, Equatable {
        var message: String
    }

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
    /// - Parameter environment: the process environment (`NO_COLOR`, and the `PATH` on which
    ///   `--forward-to-simulator` finds `xcrun`).
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

        let development: Development
        do {
            development = try Development(options: options, output: output, environment: environment)
        } catch {
            output.error("Error: cannot prepare --forward-to-simulator: \(error)")
            return 1
        }
        let apns: FakeAPNs?
        do {
            apns = try startAPNs(options, output: output, development: development)
        } catch {
            output.error("Error: cannot start FakeAPNs: \(error)")
            return 1
        }
        let quiet = options.quiet
        let topics = options.apnsTopics
        // Set once FakeBackend listens; the hook reads the environment the app declared.
        let backendBox = Locked<FakeBackend?>(nil)
        let log: @Sendable (BackendJournalEntry) -> Void = { entry in
            if !quiet { development.backendRequest(entry) }
            if let apns { learnDevice(from: entry, into: apns, topics: topics, backend: backendBox.snapshot) }
        }
        let configuration = FakeBackend.Configuration(
            port: options.backendPort,
            sessions: options.sessions,
            acceptsAnyBearer: options.sessions.isEmpty,
            onRequest: log)
        let backend: FakeBackend
        let admin: AdminServer
        do {
            backend = try FakeBackend.startListening(configuration: configuration)
            backendBox.withLock { $0 = backend }
        } catch {
            apns?.stopListening()
            output.error("Error: cannot start FakeBackend: \(error)")
            return 1
        }
        var api = AdminAPI(backend: backend)
        for route in apns?.adminRoutes ?? [] { api.add(route.method, route.path, summary: route.summary, route.handler) }
        development.started(apns: apns, backend: backend, api: &api)
        do {
            admin = try AdminServer.start(api: api, port: options.adminPort)
        } catch {
            backend.stopListening()
            apns?.stopListening()
            output.error("Error: cannot start the admin API: \(error)")
            return 1
        }
        var servers = [("backend", backend.baseURL.absoluteString)]
        if let apns { servers.append(("apns", apns.baseURL.absoluteString)) }
        servers.append(("admin", admin.baseURL.absoluteString))
        for (name, url) in servers { output.line("\(name) \(url)") }
        development.announce(adminURL: admin.baseURL.absoluteString, apnsRuns: apns != nil, options: options)
        var readyFileWritten = false
        if let path = options.readyFile {
            do {
                try writeReadyFile(path: path, servers: servers)
                readyFileWritten = true
            } catch {
                output.error("Error: cannot write the ready file \(path): \(error)")
                admin.stopNow()
                backend.stopListening()
                apns?.stopListening()
                return 1
            }
        }

        stop.wait()

        admin.stopNow()
        backend.stopListening()
        apns?.stopListening()
        development.stop()
        if readyFileWritten, let path = options.readyFile { unlink(path) }
        output.line("stopped")
        return 0
    }

    /// Serve's options, parsed by ``ParsedArguments`` like every other subcommand's.
    static let optionSpecs: [OptionSpec] = [
        OptionSpec("--backend-port", valueName: "N", help: "Port for FakeBackend."),
        OptionSpec("--admin-port", valueName: "N", help: "Port for the admin API."),
        OptionSpec("--session", valueName: "TOKEN=ACCOUNT", isRepeatable: true, help: "A bearer token and its account id."),
        OptionSpec("--ready-file", valueName: "PATH", help: "Where to write the servers' URLs."),
        OptionSpec("--quiet", help: "Do not log requests."),
        OptionSpec("--apns-port", valueName: "N", help: "Port for FakeAPNs."),
        OptionSpec("--no-apns", help: "Run FakeBackend only."),
        OptionSpec("--apns-topic", valueName: "BUNDLE_ID", isRepeatable: true, help: "A bundle id FakeAPNs serves."),
        OptionSpec("--apns-key", valueName: "KEY_ID:TEAM_ID:FILE.p8", isRepeatable: true, help: "A provider-token signing key."),
        OptionSpec("--apns-environment", valueName: "production|development", help: "The environment of a push to a host that is not Apple's."),
        OptionSpec("--apns-any-token", help: "Accept every well-formed device token."),
        OptionSpec("--forward-to-simulator", valueName: "BUNDLE_ID", help: "Push deliveries to the booted Simulator."),
        OptionSpec("--scenario", valueName: "NAME", help: "Preload a scenario's faults."),
        OptionSpec("--color", valueName: "WHEN", help: "auto, always or never."),
    ]

    /// Parses the command line; `--name value` and `--name=value` both work.
    static func parse(_ arguments: [String]) throws(UsageProblem) -> Options {
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments.parse(arguments, options: optionSpecs)
        } catch {
            throw UsageProblem(message: error.message)
        }
        var options = Options()
        if parsed.wantsHelp {
            options.wantsHelp = true
            return options
        }
        if let extra = parsed.positionals.first {
            throw UsageProblem(message: "unexpected argument '\(extra)'; serve takes options only.")
        }
        options.quiet = parsed.flags.contains("--quiet")
        options.apnsAnyToken = parsed.flags.contains("--apns-any-token")
        options.noAPNs = parsed.flags.contains("--no-apns")
        if let value = parsed.value(for: "--backend-port") { options.backendPort = try port(value, option: "--backend-port") }
        if let value = parsed.value(for: "--admin-port") { options.adminPort = try port(value, option: "--admin-port") }
        if let value = parsed.value(for: "--apns-port") { options.apnsPort = try port(value, option: "--apns-port") }
        for value in parsed.values["--session"] ?? [] {
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw UsageProblem(message: "--session expects TOKEN=ACCOUNT, found '\(value)'.")
            }
            options.sessions[String(parts[0])] = String(parts[1])
        }
        if let value = parsed.value(for: "--ready-file") {
            guard !value.isEmpty else { throw UsageProblem(message: "--ready-file needs a path.") }
            options.readyFile = value
        }
        for value in parsed.values["--apns-topic"] ?? [] {
            guard !value.isEmpty, !value.contains(" ") else {
                throw UsageProblem(message: "--apns-topic expects a bundle id such as com.example.app, found '\(value)'.")
            }
            options.apnsTopics.append(value)
        }
        for value in parsed.values["--apns-key"] ?? [] {
            do {
                options.apnsKeys.append(try APNsKeySpec(parsing: value))
            } catch {
                throw UsageProblem(message: "\(error)")
            }
        }
        if let value = parsed.value(for: "--apns-environment") {
            switch value {
            case "production": options.apnsEnvironment = .production
            case "development", "sandbox": options.apnsEnvironment = .sandbox
            default: throw UsageProblem(message: "--apns-environment expects production or development, found '\(value)'.")
            }
        }
        if let value = parsed.value(for: "--forward-to-simulator") {
            guard !value.isEmpty else { throw UsageProblem(message: "--forward-to-simulator needs a bundle id.") }
            options.simulatorBundleID = value
        }
        if let value = parsed.value(for: "--scenario") {
            guard let scenario = PushScenario(name: value) else {
                let names = PushScenario.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageProblem(message: "--scenario expects one of \(names), found '\(value)'.")
            }
            options.scenario = scenario
        }
        if let value = parsed.value(for: "--color") {
            guard ["auto", "always", "never"].contains(value) else {
                throw UsageProblem(message: "--color expects auto, always or never, found '\(value)'.")
            }
            options.colour = value
        }
        return options
    }

    /// Starts FakeAPNs (unless `--no-apns`): the topics served, the keys (or no
    /// provider-token checks without any), accept-any tokens.
    static func startAPNs(_ options: Options, output: some ServeOutput, development: Development) throws -> FakeAPNs? {
        guard options.runsAPNs else { return nil }
        var configuration = FakeAPNsConfiguration()
        development.configure(&configuration)  // the log, Simulator forwarding, the scenario
        configuration.port = options.apnsPort ?? 0
        configuration.topics = Set(options.apnsTopics)
        configuration.acceptAnyDeviceToken = options.apnsAnyToken
        configuration.environment = options.apnsEnvironment
        configuration.providerTokens = options.apnsKeys.isEmpty ? .ignore : .verify
        let keys = try options.apnsKeys.map { spec in (spec, try spec.loadPublicKey()) }
        let apns = try FakeAPNs.startListening(configuration: configuration)
        for (spec, key) in keys { apns.registerSigningKey(key, keyID: spec.keyID, teamID: spec.teamID) }
        return apns
    }

    /// A device token the app registered with FakeBackend (`PUT /v1/devices/{token}` → 204)
    /// becomes a FakeAPNs device, in the environment the app declared, for each served topic.
    static func learnDevice(from entry: BackendJournalEntry, into apns: FakeAPNs, topics: [String], backend: FakeBackend?) {
        guard entry.endpoint == .putDevice, entry.status == 204 else { return }
        // Runs for every request serve answers: cut the token out by bytes, no splitting.
        let utf8 = entry.path.utf8
        let end = utf8.firstIndex(of: UInt8(ascii: "?")) ?? utf8.endIndex
        guard let slash = utf8[..<end].lastIndex(of: UInt8(ascii: "/")) else { return }
        let token = String(Substring(utf8[utf8.index(after: slash)..<end]))
        guard APNsRequestValidator.isDeviceToken(token) else { return }
        let environment = backend?.devices[token.lowercased()].flatMap { APNsEnvironment(rawValue: $0.environment) }
        if topics.isEmpty {
            apns.register(token: token, topic: nil, environment: environment)
        } else {
            for topic in topics { apns.register(token: token, topic: topic, environment: environment) }
        }
    }

    private static func port(_ text: String, option: String) throws(UsageProblem) -> UInt16 {
        guard let port = UInt16(text) else {
            throw UsageProblem(message: "\(option) expects a port from 0 to 65535, found '\(text)'.")
        }
        return port
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

    /// `2026-11-30T04:05:06.123Z PUT /v1/devices/ab12 204 account=a1 violations=0`, plus each
    /// violation on its own indented line.
    static func logLine(_ entry: BackendJournalEntry) -> String {
        var line = "\(timestamp(entry.time)) \(entry.logLine)"
        for violation in entry.violations {
            line += "\n    \(violation.pointer.isEmpty ? "(body)" : violation.pointer): \(violation.message) [\(violation.ruleID)]"
        }
        return line
    }

    private static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var time = time_t(milliseconds / 1000)
        var parts = tm()
        gmtime_r(&time, &parts)
        let ms = Int(milliseconds % 1000)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let msText = ms < 10 ? "00\(ms)" : ms < 100 ? "0\(ms)" : "\(ms)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(msText)Z"
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
