import Foundation
import Contracts
import FakeAPNs
import FakeBackend

/// The admin API's `/apns/…` routes in `contract-check serve`: register and unregister
/// device tokens and keys, mint a provider token, script faults, take a device offline, and
/// read the journal and each device's deliveries. JSON in, JSON out (the provider token is
/// plain text, to paste into a header).
enum APNsAdminRoutes {
    /// Adds the routes for `apns` to `api`.
    /// - Parameters:
    ///   - keys: the keys serve registered, first used to mint provider tokens.
    ///   - topics: the topics a token registered without one gets.
    ///   - refuseConnections: takes the APNs port offline (true) or back (false).
    static func add(to api: inout AdminAPI, apns: FakeAPNs, keys: Locked<[ServeAPNsKey]>, topics: [String],
                    refuseConnections: @escaping @Sendable (Bool) -> Void) {
        api.add("GET", "/apns/provider-token", summary: "a provider token (text/plain) signed with serve's key, valid for an hour") { _ in
            guard let token = keys.withLock({ $0.lazy.compactMap { $0.mint() }.first }) else {
                return AdminAPI.problem(status: 404, title: "Not Found",
                                        detail: "No registered key has its private half; register one with POST /apns/keys and a .p8.")
            }
            return HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain"], body: Array((token + "\n").utf8))
        }
        api.add("POST", "/apns/tokens", summary: "register a device token: {\"token\",\"topic\"?,\"environment\"?}") { request in
            struct Body: Decodable { var token: String; var topic: String?; var environment: APNsEnvironment? }
            return respond(AdminAPI.decode(Body.self, from: request)) { body in
                guard APNsRequestValidator.isDeviceToken(body.token) else {
                    return AdminAPI.problem(status: 400, title: "Bad Request", detail: "/token: expected 2–200 hex digits, an even number")
                }
                let wanted = body.topic.map { [$0] } ?? topics
                guard !wanted.isEmpty else {
                    return AdminAPI.problem(status: 400, title: "Bad Request",
                                            detail: "/topic is required: serve runs without --apns-topic")
                }
                for topic in wanted { apns.register(token: body.token, topic: topic, environment: body.environment) }
                return AdminAPI.json(["token": body.token.lowercased(), "topics": wanted.joined(separator: ",")])
            }
        }
        api.add("POST", "/apns/unregister", summary: "pushes to a token get 410 Unregistered: {\"token\",\"timestamp\"? (ms)}") { request in
            struct Body: Decodable { var token: String; var timestamp: Int64? }
            return respond(AdminAPI.decode(Body.self, from: request)) { body in
                let at = body.timestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) }
                apns.unregister(token: body.token, at: at)
                return AdminAPI.json(["unregistered": body.token.lowercased()])
            }
        }
        api.add("POST", "/apns/keys", summary: "register a signing key: {\"keyID\",\"teamID\",\"pem\"} (.p8 or public key PEM)") { request in
            struct Body: Decodable { var keyID: String; var teamID: String; var pem: String }
            return respond(AdminAPI.decode(Body.self, from: request)) { body in
                var key: ServeAPNsKey
                if let signing = try? APNsSigningKey(pemRepresentation: body.pem) {
                    key = ServeAPNsKey(keyID: body.keyID, teamID: body.teamID, publicKey: signing.publicKey, signingKey: signing)
                } else {
                    do {
                        key = ServeAPNsKey(keyID: body.keyID, teamID: body.teamID,
                                           publicKey: try APNsPublicKey(pemRepresentation: body.pem))
                    } catch {
                        return AdminAPI.problem(status: 400, title: "Bad Request", detail: "/pem: \(error)")
                    }
                }
                apns.registerSigningKey(key.publicKey, keyID: key.keyID, teamID: key.teamID)
                keys.withLock { $0.removeAll { $0.keyID == key.keyID }; $0.append(key) }
                return AdminAPI.json(["keyID": key.keyID, "teamID": key.teamID])
            }
        }
        api.add("DELETE", "/apns/keys", summary: "forget a signing key: ?keyID=…") { request in
            guard let keyID = AdminAPI.query(request)["keyID"], !keyID.isEmpty else {
                return AdminAPI.problem(status: 400, title: "Bad Request", detail: "?keyID= is required")
            }
            apns.removeSigningKey(keyID: keyID)
            keys.withLock { $0.removeAll { $0.keyID == keyID } }
            return AdminAPI.json(["removed": keyID])
        }
        api.add("POST", "/apns/faults", summary: "script a fault: {\"kind\",\"reason\"?,\"delayMs\"?,\"count\"?,\"probability\"?,\"seed\"?,\"token\"?}") { request in
            respond(AdminAPI.decode(FaultBody.self, from: request)) { body in
                switch body.plan() {
                case .success(let plan):
                    apns.addFault(plan)
                    return AdminAPI.json(["added": "\(plan.fault)"])
                case .failure(let problem):
                    return AdminAPI.problem(status: 400, title: "Bad Request", detail: problem.message)
                }
            }
        }
        api.add("DELETE", "/apns/faults", summary: "clear the APNs faults") { _ in
            apns.clearFaults()
            return AdminAPI.json(["cleared": true])
        }
        api.add("POST", "/apns/duplicates", summary: "deliver the next pushes twice: {\"count\"?,\"token\"?}") { request in
            struct Body: Decodable { var count: Int?; var token: String? }
            return respond(AdminAPI.decode(Body.self, from: request)) { body in
                apns.injectDuplicateDeliveries(next: max(body.count ?? 1, 0), deviceToken: body.token)
                return AdminAPI.json(["duplicates": max(body.count ?? 1, 0)])
            }
        }
        api.add("POST", "/apns/online", summary: "take a device offline or back: {\"token\",\"online\"}") { request in
            struct Body: Decodable { var token: String; var online: Bool }
            return respond(AdminAPI.decode(Body.self, from: request)) { body in
                apns.setOnline(body.online, token: body.token)
                return AdminAPI.json(["token": body.token.lowercased(), "online": body.online ? "true" : "false"])
            }
        }
        api.add("POST", "/apns/offline", summary: "refuse connections on the APNs port: {\"offline\"}") { request in
            struct Body: Decodable { var offline: Bool }
            return respond(AdminAPI.decode(Body.self, from: request)) { body in
                refuseConnections(body.offline)
                return AdminAPI.json(["offline": body.offline])
            }
        }
        api.add("GET", "/apns/journal", summary: "every APNs request, oldest first") { _ in
            AdminAPI.json(JournalBody(entries: apns.journal.map(JournalItem.init), dropped: apns.droppedJournalEntries))
        }
        api.add("GET", "/apns/deliveries", summary: "what a device received: ?token=…") { request in
            guard let token = AdminAPI.query(request)["token"], !token.isEmpty else {
                return AdminAPI.problem(status: 400, title: "Bad Request", detail: "?token= is required")
            }
            return AdminAPI.json(["deliveries": apns.deliveredNotifications(for: token).map(DeliveryItem.init)])
        }
    }

    private static func respond<Value>(_ decoded: Result<Value, AdminRequestError>,
                                       _ body: (Value) -> HTTPResponse) -> HTTPResponse {
        switch decoded {
        case .success(let value): return body(value)
        case .failure(let error): return error.response
        }
    }

    /// The reasons a `reason` fault may name.
    static let reasons: [APNsReason] = [
        .badCollapseId, .badDeviceToken, .badExpirationDate, .badMessageId, .badPriority, .badTopic,
        .deviceTokenNotForTopic, .duplicateHeaders, .idleTimeout, .invalidPushType, .missingDeviceToken,
        .missingTopic, .payloadEmpty, .topicDisallowed, .badCertificate, .badCertificateEnvironment,
        .expiredProviderToken, .forbidden, .invalidProviderToken, .missingProviderToken, .unrelatedKeyIdInToken,
        .badEnvironmentKeyIdInToken, .badPath, .methodNotAllowed, .expiredToken, .unregistered, .payloadTooLarge,
        .tooManyProviderTokenUpdates, .tooManyRequests, .internalServerError, .serviceUnavailable, .shutdown,
    ]

    struct FaultBody: Decodable {
        var kind: String
        var reason: String?
        var delayMs: Int?
        var count: Int?
        var probability: Double?
        var seed: UInt64?
        var token: String?

        func plan() -> Result<FaultPlan, FaultProblem> {
            let fault: APNsFault
            switch kind {
            case "reason":
                guard let name = reason, let found = APNsAdminRoutes.reasons.first(where: { $0.reason == name }) else {
                    return .failure(FaultProblem("/reason: expected one of \(APNsAdminRoutes.reasons.map(\.reason).joined(separator: ", "))"))
                }
                fault = .reason(found)
            case "delay":
                guard let delayMs, delayMs >= 0 else { return .failure(FaultProblem("/delayMs: expected milliseconds ≥ 0")) }
                fault = .delay(milliseconds: delayMs)
            case "reset": fault = .reset
            case "loseResponse": fault = .loseResponse
            case "hang": fault = .hang
            case "goAway": fault = .goAway(reason: reason ?? "Shutdown")
            default:
                return .failure(FaultProblem("/kind: expected reason, delay, reset, loseResponse, hang or goAway"))
            }
            if let probability {
                guard (0...1).contains(probability) else { return .failure(FaultProblem("/probability: expected 0…1")) }
                return .success(.probability(probability, seed: seed ?? 0, fault, deviceToken: token))
            }
            return .success(.next(max(count ?? 1, 0), fault, deviceToken: token))
        }
    }

    struct FaultProblem: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    struct JournalBody: Encodable {
        var entries: [JournalItem]
        var dropped: Int
    }

    struct JournalItem: Encodable {
        var sequence: Int, receivedAt: Int64, method: String, path: String, deviceToken: String?, apnsID: String
        var topic: String?, pushType: String?, status: Int, reason: String?, violations: [String]
        var fault: String?, delivery: String?, protocolVersion: String

        init(_ entry: APNsJournalEntry) {
            sequence = entry.sequence
            receivedAt = entry.receivedAt
            method = entry.method
            path = entry.path
            deviceToken = entry.deviceToken
            apnsID = entry.apnsID
            topic = entry.topic
            pushType = entry.pushType
            status = entry.status
            reason = entry.reason
            violations = entry.violations.map { "\($0.pointer): \($0.message) [\($0.ruleID)]" }
            fault = entry.fault.map { "\($0)" }
            delivery = entry.delivery.map { "\($0)" }
            protocolVersion = "\(entry.protocolVersion)"
        }
    }

    struct DeliveryItem: Encodable {
        var apnsID: String, topic: String, pushType: String, priority: Int, collapseID: String?
        var deliveredAt: Int64, isDuplicate: Bool, payload: String

        init(_ delivery: DeliveredNotification) {
            apnsID = delivery.apnsID
            topic = delivery.topic
            pushType = delivery.pushType.rawValue
            priority = delivery.priority
            collapseID = delivery.collapseID
            deliveredAt = delivery.deliveredAt
            isDuplicate = delivery.isDuplicate
            payload = delivery.payloadText
        }
    }
}
