import Foundation
import Contracts
import FakeAPNs
import FakeBackend
import PushScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The servers of one `contract-check serve` run: FakeBackend, FakeAPNs (HTTP/1.1 and h2c on
/// one port) and the admin API, wired together — a token the app PUTs to the backend becomes
/// a device FakeAPNs knows — and logging each request through ``ServeLog``.
final class ServeSession: Sendable {
    let backend: FakeBackend
    let apns: FakeAPNs
    let admin: AdminServer
    private let apnsServer: HTTPServer
    private let forwarder: SimulatorForwarder?
    private let readyFile: String?

    private init(backend: FakeBackend, apns: FakeAPNs, admin: AdminServer, apnsServer: HTTPServer,
                 forwarder: SimulatorForwarder?, readyFile: String?) {
        self.backend = backend
        self.apns = apns
        self.admin = admin
        self.apnsServer = apnsServer
        self.forwarder = forwarder
        self.readyFile = readyFile
    }

    /// Starts every server, prints one line per server and the setup notes, and writes the
    /// ready file.
    /// - Throws: ``ServeCommand/UsageProblem`` for a bad `--apns-key`; another error when a
    ///   server cannot start or the ready file cannot be written (nothing is left running).
    static func start(options: ServeCommand.Options, output: some ServeOutput, log: ServeLog,
                      environment: [String: String]) throws -> ServeSession {
        var keys: [ServeAPNsKey] = []
        for option in options.apnsKeys { keys.append(try ServeAPNsKey.load(option)) }
        if keys.isEmpty { keys.append(.development()) }
        let quiet = options.quiet

        var apnsConfiguration = FakeAPNsConfiguration()
        apnsConfiguration.topics = Set(options.apnsTopics)
        apnsConfiguration.acceptAnyDeviceToken = options.apnsAnyToken
        options.scenario?.configure(&apnsConfiguration)
        let apns = FakeAPNs(configuration: apnsConfiguration)
        for key in keys { apns.registerSigningKey(key.publicKey, keyID: key.keyID, teamID: key.teamID) }

        // The backend's journal hook registers PUT tokens in FakeAPNs, with the environment
        // the app declared (a production token sent to the sandbox fake is BadDeviceToken).
        let backendBox = Locked<FakeBackend?>(nil)
        let topics = options.apnsTopics
        let configuration = FakeBackend.Configuration(
            port: options.backendPort, sessions: options.sessions, acceptsAnyBearer: options.sessions.isEmpty,
            onRequest: { entry in
                if entry.endpoint == .putDevice, entry.status == 204, let token = Self.token(inPath: entry.path) {
                    let declared = backendBox.withLock { $0?.devices[token]?.environment }
                    let environment = declared.flatMap(APNsEnvironment.init(rawValue:))
                    for topic in topics { apns.register(token: token, topic: topic, environment: environment) }
                }
                if !quiet { output.line(log.line(entry)) }
            })

        let forwarder = try options.simulatorBundleID.map { bundleID in
            try SimulatorForwarder(bundleID: bundleID, environment: environment) { text in
                output.line(log.note("sim", text))
            }
        }

        // `--scenario 410s`: a token is unregistered after its first accepted push, once.
        let unregisterAfterFirstPush = options.scenario?.unregistersAfterFirstPush ?? false
        let unregistered = Locked<Set<String>>([])

        var serverConfiguration = HTTPServerConfiguration()
        serverConfiguration.port = options.apnsPort
        serverConfiguration.maxBodyBytes = apnsConfiguration.maxBodyBytes
        let apnsServer = try HTTPServer.start(configuration: serverConfiguration) { request in
            let response = apns.handle(request)
            let apnsID = response.headers["apns-id"]
            let journal = apns.journal
            guard let entry = journal.last(where: { $0.apnsID == apnsID }) ?? journal.last else { return response }
            if !quiet { output.line(log.line(entry)) }
            if entry.isAccepted, let forwarder { forwarder.forward(payload: request.body, apnsID: entry.apnsID) }
            if entry.isAccepted, unregisterAfterFirstPush, let token = entry.deviceToken?.lowercased(),
               unregistered.withLock({ $0.insert(token).inserted }) {
                apns.unregister(token: token)
                if !quiet { output.line(log.note("scenario", "410s: \(ServeLog.shorten(token)) unregistered; its next push gets 410")) }
            }
            return response
        }

        let backend: FakeBackend
        do {
            backend = try FakeBackend.startListening(configuration: configuration)
        } catch {
            apnsServer.stop()
            throw error
        }
        backendBox.withLock { $0 = backend }

        var api = AdminAPI(backend: backend)
        let keyStore = Locked(keys)
        APNsAdminRoutes.add(to: &api, apns: apns, keys: keyStore, topics: topics) { refuse in
            _ = apnsServer.refuseConnections(refuse)
        }
        let admin: AdminServer
        do {
            admin = try AdminServer.start(api: api, port: options.adminPort)
        } catch {
            backend.stopListening()
            apnsServer.stop()
            throw error
        }

        let apnsURL = "http://127.0.0.1:\(apnsServer.port)"
        let servers = [("backend", backend.baseURL.absoluteString), ("admin", admin.baseURL.absoluteString),
                       ("apns", apnsURL)]
        for (name, url) in servers { output.line("\(name) \(url)") }
        let session = ServeSession(backend: backend, apns: apns, admin: admin, apnsServer: apnsServer,
                                   forwarder: forwarder, readyFile: options.readyFile)

        for key in keys {
            output.line(log.note("apns", "key \(key.keyID) team \(key.teamID)"
                                 + (key.signingKey == nil ? " (public half only)" : "; provider token: curl -s \(admin.baseURL.absoluteString)/apns/provider-token")))
        }
        if topics.isEmpty && !options.apnsAnyToken {
            output.line(log.note("apns", "no --apns-topic: tokens PUT to the backend are not registered in FakeAPNs (add --apns-topic BUNDLE_ID or --apns-any-token)"))
        } else if !topics.isEmpty {
            output.line(log.note("apns", "topics \(topics.joined(separator: ", ")); tokens PUT to the backend become FakeAPNs devices"))
        }
        if let forwarder {
            output.line(log.note("sim", "forwarding accepted pushes to the booted Simulator's \(forwarder.bundleID) (files in \(forwarder.directory.path))"))
        }
        if let scenario = options.scenario {
            for line in scenario.preload(backend: backend, apns: apns) { output.line(log.note("scenario", "\(scenario): \(line)")) }
        }

        if let path = options.readyFile {
            do {
                try ServeCommand.writeReadyFile(path: path, servers: servers)
            } catch {
                session.stopServers()
                throw ReadyFileError(message: "cannot write the ready file \(path): \(error)")
            }
        }
        return session
    }

    /// Stops the servers, waits for pending Simulator forwards, removes the ready file.
    func stop() {
        stopServers()
        forwarder?.drain()
        forwarder?.removeFiles()
        if let readyFile { unlink(readyFile) }
    }

    private func stopServers() {
        admin.stopNow()
        apnsServer.stop()
        backend.stopListening()
    }

    /// The lowercase token of `/v1/devices/{token}` (a query, if any, dropped).
    static func token(inPath path: String) -> String? {
        let bare = path.split(separator: "?", maxSplits: 1).first.map(String.init) ?? path
        let prefix = "/v1/devices/"
        guard bare.hasPrefix(prefix) else { return nil }
        let token = bare.dropFirst(prefix.count)
        return token.isEmpty || token.contains("/") ? nil : token.lowercased()
    }

    struct ReadyFileError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
