import Contracts
import Foundation
import LoopbackHTTP
import FakeSupport

// The admin routes that set up Live Activities as a test does in Swift, for `contract-check
// serve` users and tests in other languages: `POST /apns/live-activities/push-to-start`
// (``FakeAPNs/registerPushToStartToken(_:device:for:)``) and `POST /apns/live-activities`
// (``FakeAPNs/startLiveActivity(device:attributes:contentState:pushToken:staleDate:timestamp:)``).
extension APNsAdmin {
    /// `POST /apns/live-activities/push-to-start`: `{"device": HEX, "token"?: HEX,
    /// "attributesType"?: NAME}`.
    struct PushToStartRegistration: Codable, FlatAdminRequestBody {
        enum CodingKeys: String, CodingKey, CaseIterable { case device, token, attributesType }
        var device: String
        /// The token to use; a new random one when absent.
        var token: String?
        /// The declared activity type the token starts; the order tracker when absent.
        var attributesType: String?
    }

    /// The answer to `POST /apns/live-activities/push-to-start`.
    struct PushToStartAnswer: Encodable {
        var deviceToken: String
        var pushToStartToken: String
        var attributesType: String
    }

    /// `POST /apns/live-activities`: an activity the app started itself (`Activity.request`).
    /// `contentState` is what a push's `content-state` carries, as the app encodes it (`eta`
    /// in seconds since 2001-01-01); `staleDate` and `timestamp` are Unix seconds, as APNs'
    /// own `stale-date` and `timestamp`.
    struct ActivityStart: Codable, AdminRequestBody {
        struct Attributes: Codable {
            enum CodingKeys: String, CodingKey, CaseIterable { case orderId }
            var orderId: String
        }

        struct ContentState: Codable {
            enum CodingKeys: String, CodingKey, CaseIterable { case stage, eta, itemsPicked, itemsTotal }
            var stage: String
            var eta: Double?
            var itemsPicked: Int?
            var itemsTotal: Int?
        }

        enum CodingKeys: String, CodingKey, CaseIterable { case device, attributes, contentState, pushToken, staleDate, timestamp }
        static var members: [String] {
            pointers(to: CodingKeys.self).filter { $0 != "/attributes" && $0 != "/contentState" }
                + pointers(to: Attributes.CodingKeys.self, under: "/attributes")
                + pointers(to: ContentState.CodingKeys.self, under: "/contentState")
        }

        var device: String
        var attributes: Attributes
        var contentState: ContentState
        var pushToken: String?
        var staleDate: Int64?
        var timestamp: Int64?

        /// The app's types, or the 400 naming every member that is not what the app sends.
        func checked() -> Result<(OrderTrackerAttributes, OrderTrackerAttributes.ContentState), AdminRequestError> {
            var problems: [ViolationRecord] = []
            func bad(_ pointer: String, _ message: String) {
                problems.append(ViolationRecord(pointer: pointer, rule: "admin.value", message: message))
            }
            let hex = "expected an even number (2–200) of hex digits"
            if !APNsRequestValidator.isDeviceToken(device) { bad("/device", hex) }
            if let pushToken, !APNsRequestValidator.isDeviceToken(pushToken) { bad("/pushToken", hex) }
            if !Self.isOrderID(attributes.orderId) {
                bad("/attributes/orderId", "expected an order id, 1–64 of A-Z a-z 0-9 _ -, found \"\(attributes.orderId)\"")
            }
            let stages = OrderTrackerAttributes.ContentState.Stage.allCases.map(\.rawValue)
            let stage = OrderTrackerAttributes.ContentState.Stage(rawValue: contentState.stage)
            if stage == nil {
                let hint = Suggestion.closest(to: contentState.stage, among: stages, maxEdits: 3).map { "did you mean \"\($0)\"? " } ?? ""
                bad("/contentState/stage", "unknown stage \"\(contentState.stage)\"; \(hint)the tracker's stages are \(stages.joined(separator: ", "))")
            }
            if let eta = contentState.eta, eta > 1_000_000_000 {
                // The contract's rule says the same of a push: 2032 read as seconds since 2001.
                func number(_ value: Double) -> String {
                    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
                }
                bad("/contentState/eta", "expected seconds since 2001-01-01 (as the app's JSONEncoder writes a Date), found \(number(eta)), which reads as Unix time; send \(number(eta - 978_307_200))")
            }
            if let picked = contentState.itemsPicked, picked < 0 { bad("/contentState/itemsPicked", "expected 0 or more, found \(picked)") }
            if let total = contentState.itemsTotal, total < 1 { bad("/contentState/itemsTotal", "expected 1 or more, found \(total)") }
            for (pointer, value) in [("/staleDate", staleDate), ("/timestamp", timestamp)] {
                if let value, !(0...253_402_300_799).contains(value) { bad(pointer, "expected Unix seconds, 0 or more, found \(value)") }
            }
            guard problems.isEmpty, let stage else {
                let detail = problems.count == 1
                    ? "\(problems[0].pointer): \(problems[0].message)"
                    : "\(problems.count) problems: " + problems.map { "\($0.pointer): \($0.message)" }.joined(separator: "; ")
                return .failure(AdminRequestError(detail, violations: problems))
            }
            let state = OrderTrackerAttributes.ContentState(
                stage: stage, eta: contentState.eta.map { Date(timeIntervalSinceReferenceDate: $0) },
                itemsPicked: contentState.itemsPicked, itemsTotal: contentState.itemsTotal)
            return .success((OrderTrackerAttributes(orderId: attributes.orderId), state))
        }

        /// An id of the route `orders/<id>`: 1–64 of `[A-Za-z0-9_-]`.
        static func isOrderID(_ id: String) -> Bool {
            (1...64).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                     UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"): true
                default: false
                }
            }
        }
    }
}

extension FakeAPNs {
    /// `POST /apns/live-activities/push-to-start`: gives a device its push-to-start token (the
    /// one given, or a new one) for a declared type (the order tracker when `attributesType`
    /// is absent) and answers it.
    func adminRegisterPushToStart(_ request: HTTPRequest) -> HTTPResponse {
        AdminAPI.withBody(APNsAdmin.PushToStartRegistration.self, of: request) { body in
            guard APNsRequestValidator.isDeviceToken(body.device) else { return AdminAPI.notADeviceToken("/device") }
            if let token = body.token {
                guard APNsRequestValidator.isDeviceToken(token) else { return AdminAPI.notADeviceToken("/token") }
                if storedLiveActivity(pushToken: token) != nil {
                    return AdminAPI.problem(status: 409, detail: "/token: already an activity's push token; give another or leave it out for a new one")
                }
            }
            guard let name = body.attributesType else {
                let token = registerPushToStartToken(body.token, device: body.device)
                return AdminAPI.json(APNsAdmin.PushToStartAnswer(deviceToken: body.device.lowercased(), pushToStartToken: token,
                                                                 attributesType: OrderTrackerAttributes.attributesType))
            }
            switch registerPushToStartToken(body.token, device: body.device, attributesTypeNamed: name) {
            case .success(let token):
                return AdminAPI.json(APNsAdmin.PushToStartAnswer(deviceToken: body.device.lowercased(), pushToStartToken: token,
                                                                 attributesType: name))
            case .failure(let unknown):
                return AdminAPI.badRequest("/attributesType", unknown.message)
            }
        }
    }

    /// `POST /apns/live-activities`: starts an activity as the app does and answers it (201,
    /// as `GET /apns/live-activities` lists it, with its push token); 409 when the token is in
    /// use or the device shows as many activities as it may.
    func adminStartLiveActivity(_ request: HTTPRequest) -> HTTPResponse {
        AdminAPI.withBody(APNsAdmin.ActivityStart.self, of: request) { body in
            switch body.checked() {
            case .failure(let problem): return problem.response
            case .success(let (attributes, contentState)):
                if let token = body.pushToken, storedLiveActivity(pushToken: token) != nil {
                    return AdminAPI.problem(status: 409, detail: "/pushToken: already an activity's push token; give another or leave it out for a new one")
                }
                guard let activity = startLiveActivity(
                    device: body.device, attributes: attributes, contentState: contentState, pushToken: body.pushToken,
                    staleDate: body.staleDate.map { Date(timeIntervalSince1970: Double($0)) }, timestamp: body.timestamp) else {
                    let most = configuration.liveActivities.activitiesPerDevice
                    return AdminAPI.problem(status: 409, detail: "the device already shows \(max(1, most)) activities (LiveActivityPolicy.activitiesPerDevice); end one and let it be dismissed first")
                }
                return AdminAPI.json(APNsAdmin.LiveActivityItem(StoredLiveActivity(activity)), status: HTTPStatus(code: 201))
            }
        }
    }
}
