import Foundation
import LoopbackHTTP
import FakeSupport

extension FakeAPNs {
    /// The admin routes for this fake, under `/apns/`: journal, deliveries, Live Activities,
    /// device tokens, signing keys, faults, device online/offline, service offline, reset, and its
    /// part of `GET /events`. `contract-check
    /// serve` adds them to its admin API (`admin.add(apns.adminRoutes)`), whose shared helpers
    /// decode the JSON bodies and answer errors as `application/problem+json`.
    package var adminRoutes: [AdminAPI.Route] {
        [
            .events(AdminEventSource(name: "apns", changes: changes) { [self] in
                UInt64(max(0, state.withLock { $0.journal.sequence }))
            }),
            AdminAPI.Route(method: "GET", path: "/apns/journal", summary: "Every APNs request with its verdict (?since=SEQUENCE)") { [self] request in
                switch AdminAPI.integerQuery(request, "since") {
                case .failure(let error): return error.response
                case .success(let since):
                    let entries = journal.filter { $0.sequence > since ?? 0 }.map(APNsAdmin.JournalItem.init)
                    return AdminAPI.json(APNsAdmin.JournalPage(entries: entries, dropped: droppedJournalEntries))
                }
            },
            AdminAPI.Route(method: "GET", path: "/apns/deliveries", summary: "What a device received (?token=HEX), and what it shows") { [self] request in
                guard let token = AdminAPI.query(request)["token"], !token.isEmpty else {
                    return AdminAPI.badRequest("/query/token", rule: "admin.query", "required; add ?token=<device token hex> to the path")
                }
                guard APNsRequestValidator.isDeviceToken(token) else {
                    return AdminAPI.notADeviceToken("?token=\(token)", pointer: "/query/token")
                }
                return AdminAPI.json(APNsAdmin.DeviceView(
                    token: token.lowercased(), online: isOnline(token: token),
                    delivered: deliveredNotifications(for: token).map(APNsAdmin.DeliveryItem.init),
                    visible: visibleNotifications(for: token).map(APNsAdmin.DeliveryItem.init),
                    stored: storedNotification(for: token).map(APNsAdmin.DeliveryItem.init)))
            },
            AdminAPI.Route(method: "GET", path: "/apns/live-activities", summary: "Each device's push-to-start token and Live Activities with their state, as of now") { [self] _ in
                AdminAPI.json(liveActivityDevices)
            },
            AdminAPI.Route(method: "POST", path: "/apns/live-activities/push-to-start", summary: #"Give a device its push-to-start token of a declared activity type (the tracker by default): {"device","token"?,"attributesType"?} → {"deviceToken","pushToStartToken","attributesType"}"#) { [self] request in
                adminRegisterPushToStart(request)
            },
            AdminAPI.Route(method: "POST", path: "/apns/live-activities", summary: #"Start an activity as the app does: {"device","attributes":{"orderId"},"contentState":{"stage",…},"pushToken"?,"staleDate"?,"timestamp"?} → 201 with its push token"#) { [self] request in
                adminStartLiveActivity(request)
            },
            AdminAPI.Route(method: "GET", path: "/apns/channels", summary: "Every broadcast channel with its subscribers (push token, device, state)") { [self] _ in
                AdminAPI.json(channelList)
            },
            AdminAPI.Route(method: "POST", path: "/apns/channels/subscriptions", summary: #"Subscribe an activity to a channel, as Activity.request(pushType: .channel(id)) does: {"channelId","pushToken"}"#) { [self] request in
                adminSubscribe(request)
            },
            AdminAPI.Route(method: "POST", path: "/apns/tokens", summary: #"Register a device token: {"token","topic","environment"?}"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.TokenRegistration.self, of: request) { body in
                    guard APNsRequestValidator.isDeviceToken(body.token) else {
                        return AdminAPI.notADeviceToken("/token")
                    }
                    register(token: body.token, topic: body.topic, environment: body.environment)
                    return HTTPResponse(status: .noContent)
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/tokens/unregister", summary: #"Unregister a token: {"token","at"? (ms since 1970)} → 410 from then on"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.TokenUnregistration.self, of: request) { body in
                    guard APNsRequestValidator.isDeviceToken(body.token) else {
                        return AdminAPI.notADeviceToken("/token")
                    }
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
                        return AdminAPI.badRequest("/pem", "\(error)")
                    }
                }
            },
            AdminAPI.Route(method: "GET", path: "/apns/faults", summary: "Fault plans and duplicate injections in force, in match order") { [self] _ in
                AdminAPI.json(faultList)
            },
            AdminAPI.Route(method: "POST", path: "/apns/faults", summary: #"Add a fault: {"fault":{"status"?,"reason","timestamp"?}|{"delay"}|{"kind":"reset|loseResponse|hang|goAway","reason"?},"count"|"probability"+"seed","token"?} → 201 with the list"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.FaultRequest.self, of: request) { body in
                    switch body.plan() {
                    case .success(let plan):
                        addFault(plan)
                        return AdminAPI.json(faultList, status: HTTPStatus(code: 201))
                    case .failure(let problem):
                        return problem.response
                    }
                }
            },
            AdminAPI.Route(method: "DELETE", path: "/apns/faults", summary: "Clear every fault and duplicate injection") { [self] _ in
                if let failure = clearFaults() { return AdminAPI.cannotComeOnline(failure) }
                return HTTPResponse(status: .noContent)
            },
            AdminAPI.Route(method: "POST", path: "/apns/duplicates", summary: #"Deliver twice: {"count"|"probability"+"seed","token"?}"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.DuplicateRequest.self, of: request) { body in
                    if let token = body.token, !APNsRequestValidator.isDeviceToken(token) {
                        return AdminAPI.notADeviceToken("/token")
                    }
                    if let count = body.count {
                        guard count >= 1 else { return AdminAPI.badRequest("/count", "expected 1 or more, found \(count)") }
                        injectDuplicateDeliveries(next: count, deviceToken: body.token)
                    } else if let probability = body.probability {
                        guard (0...1).contains(probability) else {
                            return AdminAPI.badRequest("/probability", "expected 0–1, found \(probability)")
                        }
                        injectDuplicateDeliveries(probability: probability, seed: body.seed ?? 1, deviceToken: body.token)
                    } else {
                        return AdminAPI.badRequest("", rule: "admin.missing-member", "send \"count\", or \"probability\" with \"seed\"")
                    }
                    return HTTPResponse(status: .noContent)
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/devices/online", summary: #"Put a device online or offline: {"token","online"}"#) { [self] request in
                AdminAPI.withBody(APNsAdmin.OnlineRequest.self, of: request) { body in
                    guard APNsRequestValidator.isDeviceToken(body.token) else {
                        return AdminAPI.notADeviceToken("/token")
                    }
                    setOnline(body.online, token: body.token)
                    return HTTPResponse(status: .noContent)
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/offline", summary: #"Refuse or accept connections on the APNs port: {"offline"}"#) { [self] request in
                AdminAPI.withBody(AdminOfflineBody.self, of: request) { body in
                    if let failure = setOffline(body.offline) { return AdminAPI.cannotComeOnline(failure) }
                    return HTTPResponse(status: .noContent)
                }
            },
            AdminAPI.Route(method: "POST", path: "/apns/reset", summary: "Back to start: forget journal, faults, tokens, devices and deliveries; accept connections; keys stay") { [self] _ in
                if let failure = reset() { return AdminAPI.cannotComeOnline(failure) }
                return HTTPResponse(status: .noContent)
            },
            adminSendRoute,
        ]
    }

    /// `GET /apns/faults`: the plans and duplicate injections in match order.
    var faultList: APNsAdmin.FaultList {
        APNsAdmin.FaultList(
            faults: faults.map { APNsAdmin.FaultRequest($0, remaining: $0.remainingCount) },
            duplicates: duplicateDeliveries.map { plan in
                var item = APNsAdmin.DuplicateRequest(token: plan.deviceToken)
                switch plan.trigger {
                case .next(let n): item.count = n
                case .probability(let p, let seed):
                    item.probability = p
                    item.seed = seed
                }
                return item
            })
    }
}

extension APNsFaultPlan {
    /// What is left of a `next(n)` plan; 0 for a probability plan.
    var remainingCount: Int {
        if case .next(let n) = trigger { return n }
        return 0
    }
}

extension AdminAPI {
    /// 400: `place` (`/token`, `?token=zz`) is not a device token; its violation points at
    /// `pointer` (`/query/token` for a query, as `?since=` does), the place itself by default.
    static func notADeviceToken(_ place: String, pointer: String? = nil) -> HTTPResponse {
        let message = "expected an even number (2–200) of hex digits"
        return problem(status: 400, detail: "\(place): \(message)",
                       violations: [ViolationRecord(pointer: pointer ?? place, rule: "admin.value", message: message)])
    }
}
