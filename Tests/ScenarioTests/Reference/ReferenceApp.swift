import Foundation
import Contracts
import PushScenarios

/// The reference app: a session, the device repository, the inbox and the opens reporter,
/// driven by the scenarios through ``ScenarioClient``.
actor ReferenceApp: ScenarioClient {
    private let environment: ScenarioEnvironment
    private let devices: DeviceRepository
    private let inbox: Inbox
    private let opens: OpensReporter
    /// The signed-in account and its bearer; nil when signed out.
    private var session: (account: String, bearer: String)?
    /// Reports in flight; ``settle()`` waits for them.
    private var work: [Task<Void, Never>] = []

    init(_ environment: ScenarioEnvironment, flaws: Flaws = [], backoff: Backoff? = nil) {
        // Waits go through the scenario's clock: a Retry-After costs no wall time.
        let backoff = backoff ?? Backoff(clock: environment.clock)
        self.environment = environment
        let http = HTTPExchange(freshConnections: true)
        devices = DeviceRepository(backend: environment.backendURL, http: http, backoff: backoff, flaws: flaws)
        inbox = Inbox(flaws: flaws)
        opens = OpensReporter(backend: environment.backendURL, http: http, backoff: backoff, flaws: flaws)
    }

    func register(token: String, account: String) async {
        let bearer = environment.bearer(for: account)
        session = (account, bearer)
        await devices.register(token: token, account: account, bearer: bearer)
    }

    func signOut() async {
        await devices.unregister()  // first, while the credentials are still here
        session = nil
    }

    func receive(_ payload: PushPayload) async -> Bool {
        await inbox.receive(payload)
    }

    func tap(_ payload: PushPayload, action: NotificationOpened.Action) async -> Route? {
        guard let route = await inbox.route(for: payload, signedIn: session?.account) else { return nil }
        if let session {
            let opens = self.opens
            // The open is reported even if the caller stops waiting.
            work.append(Task { await opens.markOpened(payload.notificationID, action: action, bearer: session.bearer) })
        }
        return route
    }

    func resume() async {
        await devices.sendPendingDelete()
    }

    func settle() async {
        let running = work
        work = []
        for task in running { await task.value }
    }
}
