import LoopbackHTTP
import Foundation
import Contracts
import FakeAPNs
import FakeBackend
import PushScenarios
import FakeSupport
import PushCore

extension ServeCommand {
    /// What `serve` adds around the fakes for local development: the coloured live log,
    /// `ServeOption.scenario` (faults preloaded; for `410s`, each token unregistered after its first
    /// accepted push), `ServeOption.forwardToSimulator`, and `GET /apns/provider-token` when a
    /// `ServeOption.apnsKey` file holds the private half (a `.p8`).
    final class Development: Sendable {
        let log: ServeLog
        let scenario: PushScenario?
        let forwarder: SimulatorForwarder?
        /// The `ServeOption.apnsKey` keys whose private half serve holds, to mint provider tokens.
        let signingKeys: [(keyID: String, teamID: String, key: APNsSigningKey)]
        private let output: CommandIO
        /// The per-request log lines, written in batches off the loop threads.
        private let liveLog: LiveLogWriter
        private let quiet: Bool
        private let apns = Locked<FakeAPNs?>(nil)
        private let unregisteredByScenario = Locked<Set<String>>([])
        /// What the scenario preloaded, held until the URL lines are out (scripts read those first).
        private let scenarioNotes = Locked<[String]>([])
        /// `ServeOption.apnsKey` was given, but no file holds a private key.
        private let hasPublicKeysOnly: Bool

        init(options: Options, io output: CommandIO) throws {
            let environment = output.environment
            let log = ServeLog(colour: ServeLog.wantsColour(options.colour, environment: environment, isTerminal: output.outputIsTerminal))
            self.log = log
            self.output = output
            liveLog = LiveLogWriter(output: output, log: log)
            quiet = options.quiet
            scenario = options.scenario
            forwarder = try options.simulatorBundleID.map { bundleID in
                try SimulatorForwarder(bundleID: bundleID, environment: environment) { text in
                    output.writeLineNow(log.note("sim", text))
                }
            }
            signingKeys = options.apnsKeys.compactMap { spec in
                guard let text = try? String(contentsOfFile: spec.path, encoding: .utf8),
                      let key = try? APNsSigningKey(pemRepresentation: text) else { return nil }
                return (spec.keyID, spec.teamID, key)
            }
            hasPublicKeysOnly = !options.apnsKeys.isEmpty && signingKeys.isEmpty
        }

        /// The backend's log line.
        func backendRequest(_ entry: BackendJournalEntry) {
            if !quiet { liveLog.writeLine(entry) }
        }

        /// Also stopped here, for serve's early exits (`stop()` is the normal path; FakeAPNs'
        /// request hook holds this object, so it may outlive serve).
        deinit { liveLog.stop() }

        /// Sets what the scenario needs in FakeAPNs' configuration and the request hook.
        func configure(_ configuration: inout FakeAPNs.Configuration) {
            scenario?.configure(&configuration)
            configuration.onRequest = { [self] entry in apnsRequest(entry) }
        }

        /// Logs an APNs request, forwards a delivered push to the Simulator, and plays the
        /// `410s` scenario.
        func apnsRequest(_ entry: APNsJournalEntry) {
            if !quiet { liveLog.writeLine(entry) }
            guard entry.isAccepted, let token = entry.deviceToken?.lowercased(), let apns = apns.snapshot else { return }
            if let forwarder, entry.delivery == .delivered || entry.delivery == .deliveredTwice,
               let delivered = apns.deliveredNotifications(for: token).last(where: { $0.apnsID == entry.apnsID }) {
                forwarder.forward(payload: delivered.payload, apnsID: entry.apnsID)
            }
            if scenario?.unregistersAfterFirstPush == true, unregisteredByScenario.withLock({ $0.insert(token).inserted }) {
                apns.unregister(token: token)
                if !quiet { output.writeLineNow(log.note("scenario", "410s: \(ServeLog.shorten(token)) unregistered; its next push gets 410")) }
            }
        }

        /// Once the servers listen: the provider-token route, the scenario's faults, and a
        /// note per setting.
        func started(apns fake: FakeAPNs?, backend: FakeBackend, api: inout AdminAPI) {
            apns.withLock { $0 = fake }
            if let first = signingKeys.first {
                api.add("GET", "/apns/provider-token",
                        summary: "A provider token (text/plain) signed with the first \(ServeOption.apnsKey.name) .p8, valid for an hour") { _ in
                    let token = ProviderToken.mint(keyID: first.keyID, teamID: first.teamID, signingKey: first.key)
                    return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array((token + "\n").utf8))
                }
            } else if fake != nil {
                // Without a private key there is nothing to sign with: say what is needed.
                let detail = hasPublicKeysOnly
                    ? "No provider token: the \(ServeOption.apnsKey.name) files are public keys, which verify tokens but cannot sign them. Pass the private key, Apple's .p8: \(ServeOption.apnsKey.name) KEYID:TEAMID:PATH (e.g. \(ServeOption.apnsKey.name) ABC123DEFG:DEF123GHIJ:AuthKey_ABC123DEFG.p8)."
                    : "No provider token: serve mints them only with a .p8 private key, and none was given (FakeAPNs does not check tokens now). Start serve with \(ServeOption.apnsKey.name) KEYID:TEAMID:PATH (e.g. \(ServeOption.apnsKey.name) ABC123DEFG:DEF123GHIJ:AuthKey_ABC123DEFG.p8)."
                api.add("GET", "/apns/provider-token",
                        summary: "A provider token: needs an \(ServeOption.apnsKey.name) .p8 private key (404 problem without one)") { _ in
                    AdminAPI.problem(status: 404, detail: detail)
                }
            }
            if let scenario, let fake {
                // Preloaded before the URLs are printed; the lines are printed after them, by `announce`.
                let lines = scenario.preload(backend: backend, apns: fake)
                scenarioNotes.withLock { $0 = lines.map { "\(scenario): \($0)" } }
            }
        }

        /// Notes printed after the server lines: the scenario's preloads, then the settings.
        func announce(adminURL: String, apnsRuns: Bool, options: Options) {
            for line in scenarioNotes.snapshot { output.writeLineNow(log.note("scenario", line)) }
            guard apnsRuns else { return }
            if options.apnsKeys.isEmpty {
                output.writeLineNow(log.note("apns", "provider tokens are not checked (no \(ServeOption.apnsKey.name))"))
            } else if let first = signingKeys.first {
                output.writeLineNow(log.note("apns", "provider tokens for key \(first.keyID): curl -s \(adminURL)/apns/provider-token"))
            }
            if !options.apnsTopics.isEmpty {
                output.writeLineNow(log.note("apns", "topics \(options.apnsTopics.joined(separator: ", ")); tokens PUT to the backend become FakeAPNs devices"))
            }
            if let forwarder {
                if forwarder.xcrun == nil {
                    output.writeLineNow(log.note("sim", "no xcrun on PATH (it comes with Xcode, on macOS): delivered pushes are written as .apns files in \(forwarder.directory.path) (kept after serve exits) but not pushed to a Simulator"))
                } else {
                    output.writeLineNow(log.note("sim", "forwarding delivered pushes to the booted Simulator's \(forwarder.bundleID) (files in \(forwarder.directory.path))"))
                }
            }
        }

        /// Waits for pending Simulator forwards. Their files are removed once pushed; without
        /// `xcrun` the files are all there is of them, so they stay (as the start-up note says).
        func stop() {
            forwarder?.drain()
            if forwarder?.xcrun != nil { forwarder?.removeFiles() }
            liveLog.stop()
        }
    }
}
