/// The contracts of the app's Live Activity token registrations with the backend (DESIGN
/// "Live Activities", Backend): the per-order activity token and the push-to-start token.
enum LiveActivityRegistrationContracts {
    /// A push token as hex: 1–100 bytes, like a device token.
    static func hexToken(_ name: String, rule: String, _ summary: String, advice: String) -> Schema {
        Schema.string(minLength: 2, maxLength: 200, format: .hexBytes)
            .rule(rule, "\(name) is the token's bytes as hex, two digits per byte, 1-100 bytes.")
            .summary(summary)
            .advice(advice)
    }

    /// `PUT /v1/orders/{orderId}/live-activity` body.
    static let registration = AppToBackendContracts.body(
        "live-activity-registration",
        summary: "The body of PUT /v1/orders/{orderId}/live-activity: the app registers the push token of the order's Live Activity when it starts or its token changes.",
        about: "A Live Activity token registration.", folderName: "live-activity-registrations", [
            .required("pushToken", hexToken(
                "pushToken", rule: "live-activity-registration.push-token",
                "The activity's own push token as hex (Activity.pushTokenUpdates), not the device token.",
                advice: "send the bytes of Activity.pushTokenUpdates' latest token as hex, two digits per byte")),
            AppToBackendContracts.environment,
        ])

    /// `PUT /v1/devices/{token}/push-to-start` body.
    static let pushToStart = AppToBackendContracts.body(
        "push-to-start-registration",
        summary: "The body of PUT /v1/devices/{token}/push-to-start: the app registers its push-to-start token for a device already registered to the account.",
        about: "A push-to-start token registration.", folderName: "push-to-start-registrations", [
            .required("pushToStartToken", hexToken(
                "pushToStartToken", rule: "push-to-start-registration.push-to-start-token",
                "The app's push-to-start token as hex (Activity.pushToStartTokenUpdates).",
                advice: "send the bytes of Activity<OrderTrackerAttributes>.pushToStartTokenUpdates' latest token as hex")),
        ])

    /// `{orderId}` in `/v1/orders/{orderId}/live-activity`: the order id of the payload's
    /// route `orders/<id>` and of the tracker's attributes.
    static let orderID = AppToBackendContracts.pathParameter(
        "order-id", "orderId", folderName: "order-ids",
        summary: "The {orderId} path parameter of /v1/orders/{orderId}/live-activity: the order's id, as in the route orders/<id>.",
        Schema.string(minLength: 1, maxLength: 64, format: .identifier)
            .summary("The order's id: 1-64 of [A-Za-z0-9_-], e.g. 8F3K, as in the route orders/<id> and the tracker's attributes.")
            .advice("send the order's id unchanged, as in its route orders/<id>"))
}
