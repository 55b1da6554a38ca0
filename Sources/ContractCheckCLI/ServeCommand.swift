import FakeSupport
import PushCore
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
/// admin API as local servers until Ctrl-C, SIGTERM or SIGHUP, for local development and CI scripts.
///
/// ```
/// $ contract-check serve   # with a session and a ready file: see the help text below
/// backend http://127.0.0.1:50123
/// admin http://127.0.0.1:50124
/// Dashboard: http://127.0.0.1:50124/
/// 2026-11-30T04:05:06.123Z PUT /v1/devices/ab12 204 account=a1 violations=0
/// ```
package enum ServeCommand: Subcommand {
    /// `serve`.
    package static let name = "serve"

    /// Abstract, usage, every option and what serve prints, laid out like the other
    /// subcommands' help.
    package static var help: CommandHelp {
        CommandHelp(
            abstract: "Run FakeBackend (and FakeAPNs) as local servers, with an admin API on its own port.",
            usage: ServeOption.usage,
            options: optionSpecs,
            discussion: """
            SESSIONS: without any \(ServeOption.session.name), every bearer token is its own account.
            APNS: tokens PUT to FakeBackend become FakeAPNs devices for each \(ServeOption.apnsTopic.name).
            Without any \(ServeOption.apnsKey.name), FakeAPNs accepts every provider token unchecked; a .p8
            key also lets GET /apns/provider-token on the admin API mint tokens.

            OUTPUT: one line per server when it listens ("backend http://127.0.0.1:PORT",
            "apns http://127.0.0.1:PORT", "admin http://127.0.0.1:PORT"), the dashboard's page
            ("Dashboard: http://127.0.0.1:PORT/", on the admin port), then one line per
            request to either fake (backend and apns), written as it happens (to a terminal, a
            file or a pipe). Colour only on a terminal, and never with NO_COLOR set (or as
            \(ServeOption.color.name) says).
            With \(ServeOption.apnsChannelsPort.name), a line "apns-channels http://127.0.0.1:PORT" follows
            the apns line: FakeAPNs' broadcast channel management listener.

            SCRIPTS: wait with a timeout, never in an open loop:
              contract-check serve \(ServeOption.readyFile.name) "$TMP/ready.json" > "$TMP/serve.log" 2>&1 &
              contract-check wait-ready "$TMP/ready.json" --timeout 10 --pid $! --log "$TMP/serve.log"

            TLS: \(ServeOption.tls.name) serves TLS 1.3 (h2, http/1.1) on the backend and APNs ports (the admin
            API stays plain HTTP): the URLs are https://, a line "ca PATH" and a "ca" member
            of the ready file name the CA certificate a client trusts. Test-only TLS that
            protects nothing; see Docs/readme/tls.md. Under \(ServeOption.tls.name) FakeAPNs asks every client
            for an optional APNs client certificate, as APNs does, trusting the CA of \(ServeOption.tls.name)
            (\(ServeOption.apnsTrustClientCA.name) and \(ServeOption.apnsAnyClientCertificate.name) widen the trust): a
            certificate presented is judged as APNs judges it, a client without one goes on
            with its token; each request's log line names the certificate
            (certificate=UID/SERIAL/ENVIRONMENT).

            EXIT STATUS: 0 after Ctrl-C, SIGTERM or SIGHUP, 1 a server cannot start, 64 usage error
            (a bad option, or a key file or ready file that cannot be used).
            The admin API is described in Docs/admin-openapi.json.

            EXAMPLES:
              contract-check serve \(ServeOption.session.name) s1=a1 \(ServeOption.readyFile.name) /tmp/fakes.json
              contract-check serve \(ServeOption.apnsTopic.name) com.example.app \(ServeOption.apnsKey.name) ABC123DEFG:DEF123GHIJ:AuthKey_ABC123DEFG.p8
            """
        )
    }

    /// What the command line asked for.
    struct Options: Equatable {
        var backendPort: UInt16 = 0
        var adminPort: UInt16 = 0
        var sessions: [String: String] = [:]
        var readyFile: String?
        var apnsPort: UInt16 = 0
        /// `ServeOption.apnsChannelsPort`: FakeAPNs' channel management listener runs (0: a free port).
        var apnsChannelsPort: UInt16?
        var apnsTopics: [String] = []
        var apnsKeys: [APNsKeySpec] = []
        var apnsAnyToken = false
        var apnsEnvironment: APNsEnvironment = .sandbox
        var simulatorBundleID: String?
        var scenario: PushScenario?
        var colour = "auto"
        var quiet = false
        var tls = false
        var tlsCADirectory: String?
        var apnsClientCertificates = false
        var apnsTrustedClientCAs: [String] = []
        var apnsAnyClientCertificate = false

        var noAPNs = false

        /// Whether FakeAPNs runs: always, both fakes in one process, unless `ServeOption.noAPNs`.
        var runsAPNs: Bool { !noAPNs }
    }

    /// The signals that stop serve cleanly (servers stopped, ready file removed): Ctrl-C,
    /// `kill`, and SIGHUP, sent when the terminal serve runs in closes.
    static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Runs the servers until SIGINT, SIGTERM or SIGHUP, writing through `io` a line at a time;
    /// returns 0 after a clean stop, 1 when a server cannot start, 64 for a usage error.
    ///
    /// The calling thread waits for the signal itself (`sigwait`), so no thread is kept only
    /// to wait for one (a dispatch signal source kept libdispatch's manager thread): the stop
    /// signals are blocked here before any server starts, so every thread serve starts inherits
    /// the mask and none of them takes the signal or its default action (libdispatch blocks
    /// signals in its own worker threads).
    package static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        var signals = sigset_t()
        sigemptyset(&signals)
        for number in stopSignals { sigaddset(&signals, number) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        defer {
            // A stop signal sent again while serve was stopping is discarded (ignoring a
            // signal drops it when pending), not acted on once unblocked.
            for number in stopSignals { signal(number, SIG_IGN) }
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            for number in stopSignals { signal(number, SIG_DFL) }
        }
        return serve(arguments, io: io) {
            var received: Int32 = 0
            // Fails only for a bad set; then serve stops rather than waits for nothing.
            _ = sigwait(&signals, &received)
        }
    }

    /// Starts the servers, reports them, and blocks until `stop` is signalled; then stops
    /// them and returns the exit code. Tests call this with a capturing `io` and their own
    /// `stop`. `io.environment` holds `NO_COLOR` and the `PATH` on which
    /// `ServeOption.forwardToSimulator` finds `xcrun`.
    static func serve(_ arguments: [String], io: CommandIO, until stop: DispatchSemaphore) -> Int32 {
        serve(arguments, io: io) { stop.wait() }
    }

    /// ``serve(_:io:until:)`` around any wait: `waitForStop` returns when serve should stop.
    static func serve(_ arguments: [String], io: CommandIO, waitingFor waitForStop: () -> Void) -> Int32 {
        let options: Options
        switch parse(arguments, io: io) {
        case .exit(let status):
            io.flush()
            return status
        case .run(let parsed):
            do {
                options = try Options(parsed)
            } catch {
                let status = reportUsageError(error, io: io)
                io.flush()
                return status
            }
        }
        let output = io
        let keys: [(spec: APNsKeySpec, key: APNsPublicKey)]
        let clientCertificates: APNsClientCertificates?
        do {
            // Checked before anything listens: a key file that cannot be used is a command
            // line to correct, like any other value.
            keys = try loadKeys(options.apnsKeys)
            clientCertificates = try loadClientCertificates(options)
            if let path = options.readyFile { try checkReadyFileCanBeWritten(path) }
        } catch {
            let status = reportUsageError(error, io: io)
            io.flush()
            return status
        }

        let development: Development
        do {
            development = try Development(options: options, io: io)
        } catch {
            output.writeErrorLineNow("Error: cannot prepare \(ServeOption.forwardToSimulator.name): \(error)")
            return 1
        }
        let tls: LoopbackTLS?
        do {
            tls = try options.loopbackTLS()
        } catch {
            output.writeErrorLineNow("Error: \(ServeOption.tlsCADir.name): \(error)")
            return 64
        }
        // A CA made for this run only (no ServeOption.tlsCADir) goes with it, on every way out.
        defer { tls?.removeTemporaryFiles() }
        // Every server started is stopped through this one path, on every way out (a later
        // server that cannot start, a ready file that cannot be written, or the stop signal).
        let started = StartedServers()
        defer { started.stop() }
        let apns: FakeAPNs?
        do {
            apns = try startAPNs(options, keys: keys, development: development, tls: tls, clientCertificates: clientCertificates)
            started.apns = apns
        } catch {
            output.writeErrorLineNow("Error: " + startFailure("FakeAPNs", port: options.apnsPort, option: ServeOption.apnsPort.name, error))
            return 1
        }
        let quiet = options.quiet
        let topics = options.apnsTopics
        // The live log's hook (none when quiet), and FakeAPNs learning the devices the app registers.
        var log: (@Sendable (BackendJournalEntry) -> Void)?
        if !quiet { log = { entry in development.backendRequest(entry) } }
        var configuration = FakeBackend.Configuration(
            port: options.backendPort,
            sessions: options.sessions,
            acceptsAnyBearer: options.sessions.isEmpty,
            onRequest: log)
        if let apns { configuration.onDeviceRegistered = { device in learnDevice(device, into: apns, topics: topics) } }
        configuration.tls = tls
        let backend: FakeBackend
        let admin: AdminServer
        do {
            backend = try FakeBackend.startListening(configuration: configuration)
            started.backend = backend
        } catch {
            output.writeErrorLineNow("Error: " + startFailure("FakeBackend", port: options.backendPort, option: ServeOption.backendPort.name, error))
            return 1
        }
        var api = AdminAPI(routes: backend.adminRoutes)
        api.add(apns?.adminRoutes ?? [])
        development.started(apns: apns, backend: backend, api: &api)
        do {
            admin = try AdminServer.start(api: api, port: options.adminPort)
            started.admin = admin
        } catch {
            output.writeErrorLineNow("Error: " + startFailure("the admin API", port: options.adminPort, option: ServeOption.adminPort.name, error))
            return 1
        }
        var servers = [("backend", backend.baseURL.absoluteString)]
        if let apns { servers.append(("apns", apns.baseURL.absoluteString)) }
        if let channels = apns?.channelManagementURL { servers.append(("apns-channels", channels.absoluteString)) }
        servers.append(("admin", admin.baseURL.absoluteString))
        for (name, url) in servers { output.writeLineNow("\(name) \(url)") }
        output.writeLineNow("Dashboard: \(admin.baseURL.absoluteString)/")
        if let tls { output.writeLineNow("ca \(tls.caCertificatePath)") }
        development.announce(adminURL: admin.baseURL.absoluteString, apnsRuns: apns != nil, options: options)
        var readyFileWritten = false
        if let path = options.readyFile {
            do {
                try writeReadyFile(path: path, servers: servers + (tls.map { [("ca", $0.caCertificatePath)] } ?? []))
                readyFileWritten = true
            } catch {
                output.writeErrorLineNow("Error: cannot write the ready file \(path): \(error.reason)")
                return 1
            }
        }

        waitForStop()

        started.stop()
        development.stop()
        if readyFileWritten, let path = options.readyFile { removeReadyFileIfOwn(path) }
        output.writeLineNow("stopped")
        return 0
    }

    /// Serve's options, parsed by ``ParsedArguments`` like every other subcommand's.
    static let optionSpecs: [OptionSpec] = ServeOption.all

    /// Parses the command line (not `--help`); `--name value` and `--name=value` both work.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        try Options(ParsedArguments.parse(arguments, options: optionSpecs))
    }
}

extension ServeCommand {

    /// Starts FakeAPNs (unless `ServeOption.noAPNs`): the topics served, the keys (or no
    /// provider-token checks without any), accept-any tokens.
    static func startAPNs(_ options: Options, keys: [(spec: APNsKeySpec, key: APNsPublicKey)], development: Development,
                          tls: LoopbackTLS? = nil, clientCertificates: APNsClientCertificates? = nil) throws -> FakeAPNs? {
        guard options.runsAPNs else { return nil }
        var configuration = FakeAPNs.Configuration()
        development.configure(&configuration)  // the log, Simulator forwarding, the scenario
        configuration.port = options.apnsPort
        configuration.topics = Set(options.apnsTopics)
        configuration.acceptAnyDeviceToken = options.apnsAnyToken
        configuration.environment = options.apnsEnvironment
        configuration.providerTokens = options.apnsKeys.isEmpty ? .ignore : .verify
        configuration.tls = tls
        configuration.clientCertificates = clientCertificates
        configuration.channelManagement = options.apnsChannelsPort != nil
        configuration.channelManagementPort = options.apnsChannelsPort ?? 0
        let apns = try FakeAPNs.startListening(configuration: configuration)
        for (spec, key) in keys { apns.registerSigningKey(key, keyID: spec.keyID, teamID: spec.teamID) }
        return apns
    }

    /// A device token the app registered with FakeBackend (`PUT /v1/devices/{token}` → 204)
    /// becomes a FakeAPNs device, in the environment the app declared, for each served topic.
    /// Runs for every device PUT serve answers, with the device as FakeBackend holds it (its
    /// token lowercase); a device FakeAPNs knows so already costs one lookup.
    static func learnDevice(_ device: RegisteredDevice, into apns: FakeAPNs, topics: [String]) {
        // FakeAPNs checks the token (only when it is not the one it learnt last).
        apns.learn(lowercaseToken: device.token, topics: topics, environment: environment(named: device.environment))
    }

    /// `APNsEnvironment(rawValue: name)`, compared against each case's raw value as a literal
    /// (a short String compares in a few instructions; the synthesised initialiser searches a
    /// table of them, ~160 instructions on every PUT). ServeCommandTests holds it to that.
    static func environment(named name: String) -> APNsEnvironment? {
        if name == "production" { return .production }
        if name == "sandbox" { return .sandbox }
        return nil
    }

    /// `{"admin":"http://…","backend":"http://…","pid":123}`, written to a temporary file in
    /// the same folder and renamed, so a reader never sees half of it.
    /// - Throws: ``TextFiles/WriteFailure`` saying what is wrong (no Foundation error dump).
    static func writeReadyFile(path: String, servers: [(String, String)]) throws(TextFiles.WriteFailure) {
        var members = [("pid", String(getpid()))]
        for (name, url) in servers { members.append((name, JSONTreeWriter.quoted(url))) }
        members.sort { $0.0 < $1.0 }
        let text = "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
        try TextFiles.write(text, to: path)
    }

    /// Removes the ready file at `path` only while it is still this process's (its "pid" is
    /// ours): another serve started on the same path since has written its own (issue 39).
    static func removeReadyFileIfOwn(_ path: String) {
        guard WaitReadyCommand.ReadyState.pid(inFile: path) == getpid() else { return }
        unlink(path)
    }

    /// `cannot start FakeBackend on 127.0.0.1:8080: bind(…) failed: Address already in use
    /// (errno 98); give another ServeOption.backendPort, or 0 for a free port`: the server's own
    /// error without the name it repeats, and the option that moves it.
    static func startFailure(_ server: String, port: UInt16, option: String, _ error: any Error) -> String {
        var reason = "\(error)"
        // The fakes' errors start with their own name and address; say each once.
        for prefix in ["FakeBackend: ", "FakeAPNs could not listen on 127.0.0.1:\(port): ", "cannot listen on 127.0.0.1:\(port): "]
        where reason.hasPrefix(prefix) {
            reason.removeFirst(prefix.count)
        }
        for suffix in [". Use port 0 to pick a free port.", "."] where reason.hasSuffix(suffix) {
            reason.removeLast(suffix.count)
        }
        let isBindFailure = reason.contains("bind(")
        return "cannot start \(server)" + (isBindFailure ? " on 127.0.0.1:\(port)" : "") + ": \(reason)"
            + (isBindFailure ? "; give another \(option), or 0 for a free port" : "")
    }
}
