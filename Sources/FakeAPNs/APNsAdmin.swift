import Contracts
import Foundation
import LoopbackHTTP

/// The bodies of FakeAPNs' admin routes (``FakeAPNs/adminRoutes``); ``AdminAPI`` decodes and
/// encodes them. Request bodies are `Codable` so the shared decoder can tell unknown keys.
enum APNsAdmin {
    struct JournalPage: Encodable {
        var entries: [JournalItem]
        var dropped: Int
    }

    struct JournalItem: Encodable {
        var sequence: Int
        var receivedAt: Int64
        var method: String
        var path: String
        var deviceToken: String?
        var apnsID: String
        var topic: String?
        var pushType: String?
        var collapseID: String?
        var payloadBytes: Int
        var status: Int
        var reason: String?
        var detail: String?
        var violations: [String]
        var fault: String?
        var delivery: String?
        var connectionID: UInt64
        var protocolVersion: String

        init(_ entry: APNsJournalEntry) {
            sequence = entry.sequence
            receivedAt = entry.receivedAt
            method = entry.method
            path = entry.path
            deviceToken = entry.deviceToken
            apnsID = entry.apnsID
            topic = entry.topic
            pushType = entry.pushType
            collapseID = entry.collapseID
            payloadBytes = entry.payloadBytes
            status = entry.status
            reason = entry.reason
            detail = entry.detail
            violations = entry.violations.map(\.description)
            fault = entry.fault.map { String(describing: $0) }
            delivery = entry.delivery.map { String(describing: $0) }
            connectionID = entry.connectionID
            protocolVersion = entry.protocolVersion.rawValue
        }
    }

    struct DeviceView: Encodable {
        var token: String
        var online: Bool
        var delivered: [DeliveryItem]
        var visible: [DeliveryItem]
        var stored: DeliveryItem?
    }

    struct DeliveryItem: Encodable {
        var apnsID: String
        var topic: String
        var pushType: String
        var priority: Int
        var collapseID: String?
        var expiration: Int64?
        var payload: String
        var deliveredAt: Int64
        var acceptedAt: Int64
        var isDuplicate: Bool

        init(_ n: DeliveredNotification) {
            apnsID = n.apnsID
            topic = n.topic
            pushType = n.pushType.rawValue
            priority = n.priority
            collapseID = n.collapseID
            expiration = n.expiration
            payload = n.payloadText
            deliveredAt = n.deliveredAt
            acceptedAt = n.acceptedAt
            isDuplicate = n.isDuplicate
        }
    }

    struct TokenRegistration: Codable {
        var token: String
        var topic: String
        var environment: APNsEnvironment?
    }

    struct TokenUnregistration: Codable {
        var token: String
        /// Milliseconds since 1970; now when absent.
        var at: Int64?
    }

    struct KeyRegistration: Codable {
        var keyID: String
        var teamID: String
        var pem: String
        var environment: APNsEnvironment?
    }

    struct OnlineRequest: Codable {
        var token: String
        var online: Bool
    }

    struct OfflineRequest: Codable {
        var offline: Bool
    }

    struct DuplicateRequest: Codable {
        var count: Int?
        var probability: Double?
        var seed: UInt64?
        var token: String?
    }

    struct FaultRequest: Codable {
        struct Fault: Codable {
            /// `reason` (with status and reason), `delay`, `reset`, `loseResponse`, `hang`, `goAway`.
            var kind: String?
            var status: Int?
            var reason: String?
            var delay: Int?
            /// A 410's `timestamp` (ms since 1970); now on the fake's clock when absent.
            var timestamp: Int64?
        }

        var fault: Fault
        var count: Int?
        var probability: Double?
        var seed: UInt64?
        var token: String?

        func plan() -> Result<APNsFaultPlan, AdminRequestError> {
            let kind = fault.kind ?? (fault.delay != nil ? "delay" : "reason")
            let apnsFault: APNsFault
            switch kind {
            case "reason":
                // 1xx is never a final response: a client would wait for the real one.
                guard let status = fault.status, (200...599).contains(status), let reason = fault.reason else {
                    return .failure(AdminRequestError("/fault: send \"status\" (200–599) and \"reason\", e.g. {\"status\":503,\"reason\":\"\(APNsErrorReason.serviceUnavailable.rawValue)\"}"))
                }
                apnsFault = .reason(APNsReason(status: status, reason: reason, timestamp: fault.timestamp))
            case "delay":
                guard let delay = fault.delay, delay >= 0 else {
                    return .failure(AdminRequestError("/fault/delay: milliseconds, 0 or more"))
                }
                apnsFault = .delay(milliseconds: delay)
            case "reset": apnsFault = .reset
            case "loseResponse": apnsFault = .loseResponse
            case "hang": apnsFault = .hang
            case "goAway": apnsFault = .goAway(reason: fault.reason ?? APNsErrorReason.shutdown.rawValue)
            default:
                return .failure(AdminRequestError("/fault/kind: expected reason, delay, reset, loseResponse, hang or goAway; found \(kind)"))
            }
            if let count, count > 0 { return .success(.next(count, apnsFault, deviceToken: token)) }
            if let probability, (0...1).contains(probability) {
                return .success(.probability(probability, seed: seed ?? 1, apnsFault, deviceToken: token))
            }
            return .failure(AdminRequestError("send \"count\" (≥ 1), or \"probability\" (0–1) with \"seed\""))
        }
    }
}
