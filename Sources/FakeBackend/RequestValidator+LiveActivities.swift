import Contracts

extension RequestValidator {
    /// The violations of `id` as an `{orderId}` path parameter.
    func validate(orderID id: String) -> [Violation] {
        pathViolations(orderID?.validate(pathParameter: id) ?? [], name: orderIDName)
    }

    /// Parses a `PUT /v1/orders/{orderId}/live-activity` body and checks it; the fields are
    /// nil when it is not JSON.
    func validate(liveActivityBody body: [UInt8]) -> (LiveActivityFields?, [Violation]) {
        validate(body: body, against: liveActivityRegistration, nil, [])
    }

    /// Parses a `PUT /v1/devices/{token}/push-to-start` body and checks it.
    func validate(pushToStartBody body: [UInt8]) -> (PushToStartFields?, [Violation]) {
        validate(body: body, against: pushToStartRegistration, nil, [])
    }
}

/// What the handler keeps from a Live Activity registration body.
struct LiveActivityFields: RequestFields {
    static let names = ["pushToken", "environment"]
    var pushToken: String?
    var environment: String?

    init() {}

    mutating func set(_ field: Int, to value: String) {
        if field == 0 { pushToken = value } else { environment = value }
    }
}

/// A push-to-start registration body's `pushToStartToken`.
enum PushToStartToken: BodyMember {
    static let name = "pushToStartToken"
}

/// What the handler keeps from a push-to-start registration body.
typealias PushToStartFields = OneMemberFields<PushToStartToken>
