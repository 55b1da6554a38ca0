import Foundation
import LoopbackHTTP

extension FakeAPNs {
    /// The admin routes for this fake, under `/apns/`: journal, deliveries, device tokens,
    /// signing keys, faults, device online/offline, service offline, reset. `contract-check
    /// serve` adds them to its admin API (`admin.add(apns.adminRoutes)`), whose shared helpers
    /// decode the JSON bodies and answer errors as `application/problem+json`.
    package var adminRoutes: [AdminAPI.Route] {
        [
            AdminAPI.Route(method: "GET", path: "/apns/journal", summary: "Every APNs request with its verdict (?since=SEQUENCE)") { [self] request in
                let since = Int(AdminAPI.query(request)["since"] ?? "") ?? 0
                let entries = journal.filter { $0.sequence > since }.map(APNsAdmin.JournalItem.init)
                return AdminAPI.json(APNsAdmin.JournalPage(entries: entries, dropped: droppedJournalEntries))
            },
            AdminAPI.Route(method: "GET", path: "/apns/deliveries", summary: "What a device received (?token=HEX), and what it shows") { [self] request in
                guard let token = AdminAPI.query(request)["token"], !token.isEmpty else {
                    return AdminAPI.problem(status: 400, detail: "add ?token=<device token hex> to the path")
                }
                return AdminAPI.json(APNsAdmin.DeviceView(
                    token: token.lowercased(), online: isOnline(token: token),
                    delivered: deliveredNotifications(for: token).map(APNsAdmin.DeliveryItem.init),
                    visible: visibleNotifications(for: token).map(APNsAdmin.DeliveryItem.init),
                    stored: storedNotification(for: token).map(APNsAdmin.DeliveryItem.init)))
            },
            AdminAPI.Route(method: "POST", path: "/apns/tokens", summary: #"Register a device token: {"token","topic","environment"?}"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.TokenRegistration.self, of: request) { body in
                    guard APNsRequestValidator.isDeviceToken(body.token) else {
                        return AdminAPI.problem(status: 400, detail: "/token: expected an even number (2–200) of hex digits")
                    }
                    register(token: body.token, topic: body.topic, environment: body.environment)
                    return HTTPResponse(status: .noContent)
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/tokens/unregister", summary: #"Unregister a token: {"token","at"? (ms since 1970)} → 410 from then on"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.TokenUnregistration.self, of: request) { body in
                    unregister(token: body.token, at: body.at.map { Date(timeIntervalSince1970: Double($0) / 1000) })
                    return HTTPResponse(status: .noContent)
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/keys", summary: #"Register a signing key: {"keyID","teamID","pem","environment"?} (.p8 or package PEM)"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.KeyRegistration.self, of: request) { body in
                    do {
                        let key = try APNsPublicKey(pemRepresentation: body.pem)
                        registerSigningKey(key, keyID: body.keyID, teamID: body.teamID, environment: body.environment)
                        return HTTPResponse(status: .noContent)
                    } catch {
                        return AdminAPI.problem(status: 400, detail: "/pem: \(error)")
                    }
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/faults", summary: #"Add a fault: {"fault":{"status","reason","timestamp"?}|{"delay"}|{"kind":"reset|loseResponse|hang|goAway","reason"?},"count"|"probability"+"seed","token"?}"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.FaultRequest.self, of: request) { body in
                    switch body.plan() {
                    case .success(let plan):
                        addFault(plan)
                        return HTTPResponse(status: .noContent)
                    case .failure(let problem):
                        return problem.response
                    }
                }
            },
            AdminAPI.Route(method: "DELETE", path: "/apns/faults", summary: "Clear every fault and duplicate injection") { [self] _ in
                clearFaults()
                return HTTPResponse(status: .noContent)
            },
            AdminAPI.Route(method: "POST", path: "/apns/duplicates", summary: #"Deliver twice: {"count"|"probability"+"seed","token"?}"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.DuplicateRequest.self, of: request) { body in
                    if let count = body.count {
                        injectDuplicateDeliveries(next: count, deviceToken: body.token)
                    } else if let probability = body.probability {
                        injectDuplicateDeliveries(probability: probability, seed: body.seed ?? 1, deviceToken: body.token)
                    } else {
                        return AdminAPI.problem(status: 400, detail: "send \"count\", or \"probability\" with \"seed\"")
                    }
                    return HTTPResponse(status: .noContent)
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/devices/online", summary: #"Put a device online or offline: {"token","online"}"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.OnlineRequest.self, of: request) { body in
                    setOnline(body.online, token: body.token)
                    return HTTPResponse(status: .noContent)
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/offline", summary: #"Refuse or accept connections on the APNs port: {"offline"}"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.OfflineRequest.self, of: request) { body in
                    refuseConnections(body.offline)
                    return HTTPResponse(status: .noContent)
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/reset", summary: "Forget journal, deliveries, faults; keep keys and tokens") { [self] _ in
                reset()
                return HTTPResponse(status: .noContent)
            },
        ]
    }
}
