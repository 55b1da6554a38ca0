import Foundation
import LoopbackHTTP
import FakeSupport

extension FakeAPNs {
    /// `POST /apns/send`: a push to a simulated device as if a sender had sent it, for the
    /// dashboard's send-a-push form. The body names the device and carries the payload as
    /// text (so violations point at the editor's lines and columns); the fake builds the
    /// `POST /3/device/TOKEN` request a sender would and answers it with ``handle(_:)``: the
    /// same checks in Apple's order, faults, provider-token verification (send
    /// `authorization` when serve checks tokens), the device simulation, the journal, and
    /// `serve`'s request hook (so `--forward-to-simulator` forwards it as any delivered push).
    ///
    /// The answer is APNs' own: 200 with `{"status":200,"apnsID":…}`, or the error status
    /// with `{"status":…,"reason":…,"apnsID":…}`.
    var adminSendRoute: AdminAPI.Route {
        AdminAPI.Route(method: "POST", path: "/apns/send", summary: #"Push to a simulated device as a sender would: {"token","payload" (JSON text),"topic"?,"pushType"?,"priority"?,"collapseID"?,"expiration"?,"authorization"?} → APNs' answer"#) { [self] request in
            AdminAPI.withBody(APNsAdmin.SendRequest.self, of: request) { body in
                guard APNsRequestValidator.isDeviceToken(body.token) else { return AdminAPI.notADeviceToken("/token") }
                let sent = handle(sentRequest(body))
                let answer = APNsAdmin.SendAnswer(status: sent.status.code, apnsID: sent.headers["apns-id"],
                                                  reason: Self.reason(in: sent.body))
                return AdminAPI.json(answer)
            }
        }
    }

    /// The request a sender would make for `body`: the topic defaults to the device's one
    /// registered topic, else the fake's one configured topic (as a single-topic sender's).
    func sentRequest(_ body: APNsAdmin.SendRequest) -> HTTPRequest {
        let token = body.token.lowercased()
        let topic = body.topic ?? state.withLock { s -> String? in
            if let topics = s.devices[token]?.topics, topics.count == 1 { return topics.first }
            return settings.topics.count == 1 ? settings.topics.first : nil
        }
        var headers = HTTPFields()
        if let topic { headers.append(name: "apns-topic", value: topic) }
        headers.append(name: "apns-push-type", value: body.pushType ?? "alert")
        if let priority = body.priority { headers.append(name: "apns-priority", value: String(priority)) }
        if let collapse = body.collapseID { headers.append(name: "apns-collapse-id", value: collapse) }
        if let expiration = body.expiration { headers.append(name: "apns-expiration", value: String(expiration)) }
        if let authorization = body.authorization { headers.append(name: "authorization", value: authorization) }
        return HTTPRequest(method: "POST", path: "/3/device/\(token)", headers: headers,
                           body: Array(body.payload.utf8), version: .http2, connectionID: Self.adminSendConnectionID)
    }

    /// The connection id the admin's sends are journalled with: no socket has it (the
    /// servers count theirs up from 1).
    static let adminSendConnectionID = UInt64.max

    /// The `reason` of an APNs error body, if any.
    static func reason(in body: [UInt8]) -> String? {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else { return nil }
        return object["reason"] as? String
    }
}

extension APNsAdmin {
    /// `POST /apns/send`'s body.
    struct SendRequest: Codable, FlatAdminRequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable {
            case token, payload, topic, pushType, priority, collapseID, expiration, authorization
        }
        var token: String
        /// The payload as the sender's bytes: JSON text.
        var payload: String
        var topic: String?
        var pushType: String?
        var priority: Int?
        var collapseID: String?
        var expiration: Int64?
        /// `bearer <provider token>`, when the fake checks provider tokens.
        var authorization: String?
    }

    /// `POST /apns/send`'s answer: what APNs answered the push.
    struct SendAnswer: Encodable {
        var status: Int
        var apnsID: String?
        var reason: String?
    }
}
