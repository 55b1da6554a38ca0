import Foundation
import LoopbackHTTP

/// One admin route FakeAPNs offers: a method, an exact path (no query), a one-line summary
/// and a handler. `contract-check serve` adds these to its admin API (its own port), e.g.
/// `for route in apns.adminRoutes { admin.add(route.method, route.path, summary: route.summary, route.handler) }`.
package struct APNsAdminRoute: Sendable {
    /// The HTTP method, e.g. `POST`.
    package var method: String
    /// The exact path, without a query, e.g. `/apns/journal`.
    package var path: String
    /// One line for the admin API's index.
    package var summary: String
    /// Answers the route's requests (never blocks, never traps on the body).
    package var handler: @Sendable (HTTPRequest) -> HTTPResponse
}

extension FakeAPNs {
    /// The admin routes for this fake, under `/apns/`: journal, deliveries, device tokens,
    /// signing keys, faults, device online/offline, service offline, reset. Bodies are JSON;
    /// errors are `application/problem+json` saying what to send instead.
    package var adminRoutes: [APNsAdminRoute] {
        [
            APNsAdminRoute(method: "GET", path: "/apns/journal", summary: "Every APNs request with its verdict (?since=SEQUENCE)") { [self] request in
                let since = Int(APNsAdmin.query(request)["since"] ?? "") ?? 0
                let entries = journal.filter { $0.sequence > since }.map(APNsAdmin.JournalItem.init)
                return APNsAdmin.json(APNsAdmin.JournalPage(entries: entries, dropped: droppedJournalEntries))
            },
            APNsAdminRoute(method: "GET", path: "/apns/deliveries", summary: "What a device received (?token=HEX), and what it shows") { [self] request in
                guard let token = APNsAdmin.query(request)["token"], !token.isEmpty else {
                    return APNsAdmin.problem(400, "add ?token=<device token hex> to the path")
                }
                return APNsAdmin.json(APNsAdmin.DeviceView(
                    token: token.lowercased(), online: isOnline(token: token),
                    delivered: deliveredNotifications(for: token).map(APNsAdmin.DeliveryItem.init),
                    visible: visibleNotifications(for: token).map(APNsAdmin.DeliveryItem.init),
                    stored: storedNotification(for: token).map(APNsAdmin.DeliveryItem.init)))
            },
            APNsAdminRoute(method: "POST", path: "/apns/tokens", summary: #"Register a device token: {"token","topic","environment"?}"#) { [self] request in
                APNsAdmin.with(APNsAdmin.TokenRegistration.self, request) { body in
                    guard APNsRequestValidator.isDeviceToken(body.token) else {
                        return APNsAdmin.problem(400, "/token: expected an even number (2–200) of hex digits")
                    }
                    register(token: body.token, topic: body.topic, environment: body.environment)
                    return APNsAdmin.noContent()
                }
            },
            APNsAdminRoute(method: "POST", path: "/apns/tokens/unregister", summary: #"Unregister a token: {"token","at"? (ms since 1970)} → 410 from then on"#) { [self] request in
                APNsAdmin.with(APNsAdmin.TokenUnregistration.self, request) { body in
                    unregister(token: body.token, at: body.at.map { Date(timeIntervalSince1970: Double($0) / 1000) })
                    return APNsAdmin.noContent()
                }
            },
            APNsAdminRoute(method: "POST", path: "/apns/keys", summary: #"Register a signing key: {"keyID","teamID","pem","environment"?} (.p8 or package PEM)"#) { [self] request in
                APNsAdmin.with(APNsAdmin.KeyRegistration.self, request) { body in
                    do {
                        let key = try APNsPublicKey(pemRepresentation: body.pem)
                        registerSigningKey(key, keyID: body.keyID, teamID: body.teamID, environment: body.environment)
                        return APNsAdmin.noContent()
                    } catch {
                        return APNsAdmin.problem(400, "/pem: \(error)")
                    }
                }
            },
            APNsAdminRoute(method: "POST", path: "/apns/faults", summary: #"Add a fault: {"fault":{"status","reason","timestamp"?}|{"delay"}|{"kind":"reset|loseResponse|hang|goAway","reason"?},"count"|"probability"+"seed","token"?}"#) { [self] request in
                APNsAdmin.with(APNsAdmin.FaultRequest.self, request) { body in
                    switch body.plan() {
                    case .success(let plan):
                        addFault(plan)
                        return APNsAdmin.noContent()
                    case .failure(let problem):
                        return problem.response
                    }
                }
            },
            APNsAdminRoute(method: "DELETE", path: "/apns/faults", summary: "Clear every fault and duplicate injection") { [self] _ in
                clearFaults()
                return APNsAdmin.noContent()
            },
            APNsAdminRoute(method: "POST", path: "/apns/duplicates", summary: #"Deliver twice: {"count"|"probability"+"seed","token"?}"#) { [self] request in
                APNsAdmin.with(APNsAdmin.DuplicateRequest.self, request) { body in
                    if let count = body.count {
                        injectDuplicateDeliveries(next: count, deviceToken: body.token)
                    } else if let probability = body.probability {
                        injectDuplicateDeliveries(probability: probability, seed: body.seed ?? 1, deviceToken: body.token)
                    } else {
                        return APNsAdmin.problem(400, "send \"count\", or \"probability\" with \"seed\"")
                    }
                    return APNsAdmin.noContent()
                }
            },
            APNsAdminRoute(method: "POST", path: "/apns/devices/online", summary: #"Put a device online or offline: {"token","online"}"#) { [self] request in
                APNsAdmin.with(APNsAdmin.OnlineRequest.self, request) { body in
                    setOnline(body.online, token: body.token)
                    return APNsAdmin.noContent()
                }
            },
            APNsAdminRoute(method: "POST", path: "/apns/offline", summary: #"Refuse or accept connections on the APNs port: {"offline"}"#) { [self] request in
                APNsAdmin.with(APNsAdmin.OfflineRequest.self, request) { body in
                    refuseConnections(body.offline)
                    return APNsAdmin.noContent()
                }
            },
            APNsAdminRoute(method: "POST", path: "/apns/reset", summary: "Forget journal, deliveries, faults; keep keys and tokens") { [self] _ in
                reset()
                return APNsAdmin.noContent()
            },
        ]
    }
}
