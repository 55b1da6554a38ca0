import LoopbackHTTP
import Foundation
import FakeSupport

extension AdminAPI {
    /// An admin API with `backend`'s routes (``FakeBackend/adminRoutes``).
    package init(backend: FakeBackend) {
        self.init(routes: backend.adminRoutes)
    }
}

extension FakeBackend {
    /// FakeBackend's admin routes: `GET /journal`, `GET /devices`, `GET /live-activities`, `GET /opens[?id=]`,
    /// `GET /faults`, `POST /faults`, `DELETE /faults`, `POST /offline`, `GET /sessions`, `POST /sessions`,
    /// `POST /reset`, and its part of `GET /events`. Bodies are decoded, and errors answered, by ``AdminAPI``'s shared helpers.
    package var adminRoutes: [AdminAPI.Route] {
        let backend = self
        var admin = AdminAPI()
        admin.add("GET", "/journal", summary: "Every request the backend received, oldest first (?since=SEQUENCE)") { [backend] request in
            switch AdminAPI.integerQuery(request, "since") {
            case .failure(let error): return error.response
            case .success(let since):
                let entries = backend.journal.filter { $0.sequence > UInt64(since ?? 0) }
                return AdminAPI.json(JournalBody(entries: entries, dropped: backend.droppedJournalEntries))
            }
        }
        admin.add("GET", "/devices", summary: "Registered devices") { [backend] _ in
            AdminAPI.json(DevicesBody(devices: backend.devices.values.sorted { $0.token < $1.token }))
        }
        admin.add("GET", "/live-activities", summary: "Live Activity tokens by order, and push-to-start tokens by device") { [backend] _ in
            let state = backend.state
            return AdminAPI.json(LiveActivitiesBody(
                liveActivities: state.liveActivities.values.sorted { $0.orderId < $1.orderId },
                pushToStart: state.pushToStartTokens.values.sorted { $0.deviceToken < $1.deviceToken }))
        }
        admin.add("GET", "/opens", summary: "Every opened report, duplicates included; ?id= filters") { [backend] request in
            if let id = AdminAPI.query(request)["id"] {
                return AdminAPI.json(OpensBody(opens: backend.opens(for: id)))
            }
            return AdminAPI.json(OpensBody(opens: backend.opens))
        }
        admin.add("GET", "/faults", summary: "Fault plans in force, and whether the backend is offline") { [backend] _ in
            AdminAPI.json(FaultsBody(faults: backend.faults, offline: backend.isOffline))
        }
        admin.add("POST", "/faults", summary: "Add a fault plan") { [backend] request in
            AdminAPI.withBody(BackendFaultPlan.self, of: request) { plan in
                backend.addFault(plan)
                return AdminAPI.json(FaultsBody(faults: backend.faults, offline: backend.isOffline), status: HTTPStatus(code: 201))
            }
        }
        admin.add("DELETE", "/faults", summary: "Clear every fault and come back online") { [backend] _ in
            if let failure = backend.clearFaults() { return AdminAPI.cannotComeOnline(failure) }
            return HTTPResponse(status: .noContent)
        }
        admin.add("POST", "/offline", summary: "Refuse connections on the backend's port, or stop refusing") { [backend] request in
            AdminAPI.withBody(AdminOfflineBody.self, of: request) { body in
                if let failure = backend.setOffline(body.offline) { return AdminAPI.cannotComeOnline(failure) }
                return HTTPResponse(status: .noContent)
            }
        }
        admin.add("GET", "/sessions", summary: "The bearer tokens the backend accepts and the account each acts as") { [backend] _ in
            AdminAPI.json(SessionsBody(sessions: backend.sessions.sorted { $0.key < $1.key }
                .map { SessionBody(bearer: $0.key, account: $0.value) }))
        }
        admin.add("POST", "/sessions", summary: "Let a bearer token act as an account") { [backend] request in
            AdminAPI.withBody(SessionBody.self, of: request) { body in
                guard !body.bearer.isEmpty, !body.account.isEmpty else {
                    return AdminAPI.badRequest(body.bearer.isEmpty ? "/bearer" : "/account", "must not be empty")
                }
                backend.addSession(bearer: body.bearer, account: body.account)
                return HTTPResponse(status: .noContent)
            }
        }
        admin.add("POST", "/reset", summary: "Back to start: forget devices, Live Activity tokens, opens, journal, faults and added sessions; come back online") { [backend] _ in
            if let failure = backend.reset() { return AdminAPI.cannotComeOnline(failure) }
            return HTTPResponse(status: .noContent)
        }
        return admin.routes + [.events(AdminEventSource(name: "backend", changes: changes) { [backend] in
            backend.store.withLock { $0.sequence }
        })]
    }
}

/// `GET /journal`.
struct JournalBody: Codable {
    var entries: [BackendJournalEntry]
    var dropped: Int
}

/// `GET /devices`.
struct DevicesBody: Codable {
    var devices: [RegisteredDevice]
}

/// `GET /live-activities`.
struct LiveActivitiesBody: Codable {
    var liveActivities: [RegisteredLiveActivity]
    var pushToStart: [RegisteredPushToStart]
}

/// `GET /opens`.
struct OpensBody: Codable {
    var opens: [RecordedOpen]
}

/// `GET /faults`, and the answer to `POST /faults`.
struct FaultsBody: Encodable {
    /// How plans are matched, as the docs say it.
    var order = FaultsBody.order
    var faults: [BackendFaultPlan]
    var offline: Bool

    static let order = "Plans are tried in the order they were added; the first whose endpoint matches and whose trigger strikes answers the request, and only that one fires (a probability plan that does not strike lets the next plan try). A count plan is removed once spent. offline is server-wide and comes before every plan."
}

/// `POST /sessions`.
/// `GET /sessions`, by bearer token.
struct SessionsBody: Codable {
    var sessions: [SessionBody]
}

struct SessionBody: Codable, FlatAdminRequestBody {
    enum CodingKeys: String, CodingKey, CaseIterable { case bearer, account }
    var bearer: String
    var account: String
}

