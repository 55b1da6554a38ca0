import Contracts
import Foundation
import LoopbackHTTP

/// The admin API's request and response bodies, and its JSON helpers.
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

    struct TokenRegistration: Decodable {
        var token: String
        var topic: String
        var environment: APNsEnvironment?
    }

    struct TokenUnregistration: Decodable {
        var token: String
        /// Milliseconds since 1970; now when absent.
        var at: Int64?
    }

    struct KeyRegistration: Decodable {
        var keyID: String
        var teamID: String
        var pem: String
        var environment: APNsEnvironment?
    }

    struct OnlineRequest: Decodable {
        var token: String
        var online: Bool
    }

    struct OfflineRequest: Decodable {
        var offline: Bool
    }

    struct DuplicateRequest: Decodable {
        var count: Int?
        var probability: Double?
        var seed: UInt64?
        var token: String?
    }

    struct FaultRequest: Decodable {
        struct Fault: Decodable {
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

        func plan() -> Result<APNsFaultPlan, Problem> {
            let kind = fault.kind ?? (fault.delay != nil ? "delay" : "reason")
            let apnsFault: APNsFault
            switch kind {
            case "reason":
                // 1xx is never a final response: a client would wait for the real one.
                guard let status = fault.status, (200...599).contains(status), let reason = fault.reason else {
                    return .failure(Problem(400, "/fault: send \"status\" (200–599) and \"reason\", e.g. {\"status\":503,\"reason\":\"\(APNsErrorReason.serviceUnavailable.rawValue)\"}"))
                }
                apnsFault = .reason(APNsReason(status: status, reason: reason, timestamp: fault.timestamp))
            case "delay":
                guard let delay = fault.delay, delay >= 0 else {
                    return .failure(Problem(400, "/fault/delay: milliseconds, 0 or more"))
                }
                apnsFault = .delay(milliseconds: delay)
            case "reset": apnsFault = .reset
            case "loseResponse": apnsFault = .loseResponse
            case "hang": apnsFault = .hang
            case "goAway": apnsFault = .goAway(reason: fault.reason ?? APNsErrorReason.shutdown.rawValue)
            default:
                return .failure(Problem(400, "/fault/kind: expected reason, delay, reset, loseResponse, hang or goAway; found \(kind)"))
            }
            if let count, count > 0 { return .success(.next(count, apnsFault, deviceToken: token)) }
            if let probability, (0...1).contains(probability) {
                return .success(.probability(probability, seed: seed ?? 1, apnsFault, deviceToken: token))
            }
            return .failure(Problem(400, "send \"count\" (≥ 1), or \"probability\" (0–1) with \"seed\""))
        }
    }

    struct Problem: Error {
        var response: HTTPResponse
        init(_ status: Int, _ detail: String) { response = APNsAdmin.problem(status, detail) }
    }

    static func json<Value: Encodable>(_ value: Value) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let body = try? encoder.encode(value) else { return problem(500, "cannot encode the answer") }
        return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: Array(body))
    }

    static func noContent() -> HTTPResponse { HTTPResponse(status: .noContent) }

    static func problem(_ status: Int, _ detail: String) -> HTTPResponse {
        let object: [String: Any] = ["type": "about:blank", "title": HTTPStatus(code: status).reasonPhrase,
                                     "status": status, "detail": detail]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return HTTPResponse(status: HTTPStatus(code: status), headers: ["Content-Type": "application/problem+json"], body: Array(body))
    }

    /// Decodes the body as `Body` and runs `body`, or answers 400 saying what is wrong.
    static func with<Body: Decodable>(_ type: Body.Type, _ request: HTTPRequest, _ run: (Body) -> HTTPResponse) -> HTTPResponse {
        do {
            return run(try JSONDecoder().decode(type, from: Data(request.body)))
        } catch let DecodingError.keyNotFound(key, _) {
            return problem(400, "/\(key.stringValue) is required")
        } catch let DecodingError.typeMismatch(_, context) {
            return problem(400, "/\(context.codingPath.map(\.stringValue).joined(separator: "/")): wrong type")
        } catch let DecodingError.dataCorrupted(context) {
            return problem(400, context.codingPath.isEmpty ? "the body is not JSON; send a JSON object"
                : "/\(context.codingPath.map(\.stringValue).joined(separator: "/")): \(context.debugDescription)")
        } catch {
            return problem(400, "the body does not match: \(error)")
        }
    }

    /// Query parameters, percent-decoded.
    static func query(_ request: HTTPRequest) -> [String: String] {
        guard let mark = request.path.firstIndex(of: "?") else { return [:] }
        var items: [String: String] = [:]
        for pair in request.path[request.path.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.flatMap({ String($0).removingPercentEncoding }) else { continue }
            items[name] = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "") : ""
        }
        return items
    }
}
