import Contracts
import Foundation
import FakeSupport

/// The bodies of FakeAPNs' admin routes (``FakeAPNs/adminRoutes``); ``AdminAPI`` decodes and
/// encodes them. Request bodies are `Codable` so the shared decoder can tell unknown keys.
enum APNsAdmin {
    struct JournalPage: Encodable {
        var entries: [JournalItem]
        var dropped: Int
    }

    /// One journal entry as JSON: the members FakeBackend's entries share (`sequence`, `time`
    /// in millisecond ISO 8601, `method`, `path`, `status`, `detail`, `fault`, `violations` as
    /// ``ViolationRecord``s, `serverName` over TLS), then APNs' own, each under the entry's
    /// own name. Nil members (and a `status` of 0, not answered) are left out.
    struct JournalItem: Encodable {
        var entry: APNsJournalEntry

        init(_ entry: APNsJournalEntry) { self.entry = entry }

        enum CodingKeys: String, CodingKey {
            case sequence, time, method, path, deviceToken, apnsID, topic, pushType, collapseID, payloadBytes, status
            case reason, detail, violations, fault, delivery, environment, connectionID, protocolVersion, serverName
            case certificate, channelID
        }

        func encode(to encoder: any Encoder) throws {
            let e = entry
            var json = encoder.container(keyedBy: CodingKeys.self)
            let texts: [(CodingKeys, String?)] = [
                (.time, AdminJSON.timestamp(milliseconds: e.receivedAt)), (.method, e.method), (.path, e.path),
                (.deviceToken, e.deviceToken), (.apnsID, e.apnsID), (.topic, e.topic), (.pushType, e.pushType),
                (.collapseID, e.collapseID), (.reason, e.reason), (.detail, e.detail),
                (.delivery, e.delivery.map { String(describing: $0) }), (.environment, e.environment.rawValue),
                (.protocolVersion, e.protocolVersion.rawValue), (.serverName, e.serverName), (.channelID, e.channelID),
            ]
            for (key, text) in texts { try json.encodeIfPresent(text, forKey: key) }
            for (key, number) in [(CodingKeys.sequence, e.sequence), (.payloadBytes, e.payloadBytes)] { try json.encode(number, forKey: key) }
            try json.encodeIfPresent(e.status == 0 ? nil : e.status, forKey: .status)
            try json.encode(e.connectionID, forKey: .connectionID)
            try json.encode(e.violations.map(ViolationRecord.init(journaling:)), forKey: .violations)
            try json.encodeIfPresent(e.fault.map { FaultRequest(APNsFaultPlan.next(1, $0), remaining: 1).fault }, forKey: .fault)
            try json.encodeIfPresent(e.certificate, forKey: .certificate)
        }
    }

    struct DeviceView: Encodable {
        var token: String
        var online: Bool
        var delivered: [DeliveryItem]
        var visible: [DeliveryItem]
        var stored: DeliveryItem?
    }

    /// A delivered notification as JSON: its members under their own names, the payload as
    /// text, times in millisecond ISO 8601 as journal times are. Nil members are left out.
    struct DeliveryItem: Encodable {
        var notification: DeliveredNotification

        init(_ notification: DeliveredNotification) { self.notification = notification }

        enum CodingKeys: String, CodingKey {
            case apnsID, topic, pushType, priority, collapseID, expiration, payload, deliveredAt, acceptedAt, isDuplicate
        }

        func encode(to encoder: any Encoder) throws {
            let n = notification
            var json = encoder.container(keyedBy: CodingKeys.self)
            let texts: [(CodingKeys, String?)] = [
                (.apnsID, n.apnsID), (.topic, n.topic), (.pushType, n.pushType.rawValue), (.collapseID, n.collapseID),
                (.payload, n.payloadText), (.deliveredAt, AdminJSON.timestamp(milliseconds: n.deliveredAt)),
                (.acceptedAt, AdminJSON.timestamp(milliseconds: n.acceptedAt)),
            ]
            for (key, text) in texts { try json.encodeIfPresent(text, forKey: key) }
            try json.encode(n.priority, forKey: .priority)
            try json.encodeIfPresent(n.expiration, forKey: .expiration)
            try json.encode(n.isDuplicate, forKey: .isDuplicate)
        }
    }

    struct TokenRegistration: Codable, FlatAdminRequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable { case token, topic, environment }
        var token: String
        var topic: String
        var environment: APNsEnvironment?
    }

    struct TokenUnregistration: Codable, FlatAdminRequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable { case token, at }
        var token: String
        /// Milliseconds since 1970; now when absent.
        var at: Int64?
    }

    struct KeyRegistration: Codable, FlatAdminRequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable { case keyID, teamID, pem, environment }
        var keyID: String
        var teamID: String
        var pem: String
        var environment: APNsEnvironment?
    }

    struct OnlineRequest: Codable, FlatAdminRequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable { case token, online }
        var token: String
        var online: Bool
    }

    struct DuplicateRequest: Codable, FlatAdminRequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable { case count, probability, seed, token }
        var count: Int?
        var probability: Double?
        var seed: UInt64?
        var token: String?
    }

    /// `POST /apns/faults`, and each item of `GET /apns/faults`: the same shape both ways.
    struct FaultRequest: Codable, AdminRequestBody {
        struct Fault: Codable {
            enum CodingKeys: String, CodingKey, CaseIterable { case kind, status, reason, delay, timestamp }
            /// `reason` (with status and reason), `delay`, `reset`, `loseResponse`, `hang`, `goAway`.
            var kind: String?
            var status: Int?
            var reason: String?
            var delay: Int?
            /// A 410's `timestamp` (ms since 1970); now on the fake's clock when absent.
            var timestamp: Int64?
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case fault, count, probability, seed, token }
        static var members: [String] {
            pointers(to: CodingKeys.self).filter { $0 != "/fault" } + pointers(to: Fault.CodingKeys.self, under: "/fault")
        }

        var fault: Fault
        var count: Int?
        var probability: Double?
        var seed: UInt64?
        var token: String?

        /// The request a plan answers to `GET /apns/faults` with; `remaining` is what is left of `next(n)`.
        init(_ plan: APNsFaultPlan, remaining: Int) {
            switch plan.fault {
            case .reason(let reason):
                fault = Fault(kind: "reason", status: reason.status, reason: reason.reason, timestamp: reason.timestamp)
            case .delay(let ms): fault = Fault(kind: "delay", delay: ms)
            case .reset: fault = Fault(kind: "reset")
            case .loseResponse: fault = Fault(kind: "loseResponse")
            case .hang: fault = Fault(kind: "hang")
            case .goAway(let reason): fault = Fault(kind: "goAway", reason: reason)
            }
            switch plan.trigger {
            case .next: count = remaining
            case .probability(let p, let s):
                probability = p
                seed = s
            }
            token = plan.deviceToken
        }

        /// Every reason a scripted fault may carry: Apple's (both spellings) and the fake's own.
        static let knownReasons = APNsErrorReason.allSpellings
            + [APNsReason.invalidPayloadJSON.reason, APNsReason.payloadContractViolation.reason]

        func plan() -> Result<APNsFaultPlan, AdminRequestError> {
            let kind = fault.kind ?? (fault.delay != nil ? "delay" : "reason")
            let apnsFault: APNsFault
            func bad(_ pointer: String, _ message: String) -> Result<APNsFaultPlan, AdminRequestError> {
                .failure(AdminRequestError("\(pointer): \(message)",
                                           violations: [ViolationRecord(pointer: pointer, rule: "admin.value", message: message)]))
            }
            switch kind {
            case "reason":
                guard let reason = fault.reason else {
                    return bad("/fault/reason", "required; e.g. {\"status\":503,\"reason\":\"\(APNsErrorReason.serviceUnavailable.rawValue)\"}")
                }
                guard Self.knownReasons.contains(reason) else {
                    let hint = Suggestion.closest(to: reason, among: Self.knownReasons, maxEdits: 3)
                        .map { "did you mean \"\($0)\"?" } ?? "use one of Apple's reasons, e.g. \"\(APNsErrorReason.serviceUnavailable.rawValue)\""
                    return bad("/fault/reason", "unknown APNs reason \"\(reason)\"; \(hint)")
                }
                // 1xx is never a final response: a client would wait for the real one.
                let known = APNsErrorReason.allCases.first { $0.rawValue == reason || $0.documentedName == reason }
                guard let status = fault.status ?? known?.status, (200...599).contains(status) else {
                    return bad("/fault/status", "expected 200–599 (APNs answers \(reason) with \(known.map { String($0.status) } ?? "400"))")
                }
                apnsFault = .reason(APNsReason(status: status, reason: reason, timestamp: fault.timestamp))
            case "delay":
                guard let delay = fault.delay, delay >= 0 else {
                    return bad("/fault/delay", "milliseconds, 0 or more")
                }
                apnsFault = .delay(milliseconds: delay)
            case "reset": apnsFault = .reset
            case "loseResponse": apnsFault = .loseResponse
            case "hang": apnsFault = .hang
            case "goAway": apnsFault = .goAway(reason: fault.reason ?? APNsErrorReason.shutdown.rawValue)
            default:
                let kinds = ["reason", "delay", "reset", "loseResponse", "hang", "goAway"]
                let hint = Suggestion.closest(to: kind, among: kinds, maxEdits: 2).map { "did you mean \"\($0)\"? " } ?? ""
                return bad("/fault/kind", "unknown kind \"\(kind)\"; \(hint)use reason, delay, reset, loseResponse, hang or goAway")
            }
            if let token, !APNsRequestValidator.isDeviceToken(token) {
                return bad("/token", "expected an even number (2–200) of hex digits")
            }
            switch (count, probability) {
            case (.some, .some):
                return bad("/probability", "give count or probability, not both")
            case (let count?, nil):
                guard count >= 1 else { return bad("/count", "expected 1 or more, found \(count)") }
                return .success(.next(count, apnsFault, deviceToken: token))
            case (nil, let probability?):
                guard (0...1).contains(probability) else { return bad("/probability", "expected 0–1, found \(probability)") }
                return .success(.probability(probability, seed: seed ?? 1, apnsFault, deviceToken: token))
            case (nil, nil):
                let message = "send \"count\" (1 or more), or \"probability\" (0–1) with \"seed\""
                return .failure(AdminRequestError(message, violations: [ViolationRecord(pointer: "", rule: "admin.missing-member", message: message)]))
            }
        }
    }

    /// `GET /apns/faults`, and the answer to `POST /apns/faults`.
    struct FaultList: Encodable {
        /// How plans are matched, as the docs say it.
        var order = FaultList.order
        var faults: [FaultRequest]
        var duplicates: [DuplicateRequest]

        static let order = "Plans are tried in the order they were added; the first whose token matches and whose trigger strikes answers the request, and only that one fires (a probability plan that does not strike lets the next plan try). A next-N plan is removed once spent."
    }
}
