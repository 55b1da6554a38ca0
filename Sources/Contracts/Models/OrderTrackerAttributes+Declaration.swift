extension OrderTrackerAttributes: LiveActivityAttributes {
    /// `OrderTrackerAttributes`, the ``typeName``.
    public static var attributesType: String { typeName }

    /// `order 8F3K`.
    public var journalDescription: String { "order \(orderId)" }

    /// `stage onTheWay`.
    public static func journalDescription(of state: ContentState) -> String { "stage \(state.stage.rawValue)" }

    /// `{"orderId": ID}`: the order id of the payload's route `orders/<id>`.
    public static let attributesSchema: Schema = Schema(.object(ObjectSchema(members: [
        .required("orderId", Schema.string(minLength: 1, maxLength: 64, format: .identifier)
            .rule("live-activity-payload.order-id", "attributes.orderId is an order id: 1-64 of [A-Za-z0-9_-], as in orders/<id>.")
            .summary("The order the activity follows: the id of its route orders/<id>.")
            .advice("use the order's id as in its route orders/<id>, e.g. 8F3K"),
            rule: "live-activity-payload.order-id"),
    ], unknownMembers: .allow))).summary("The tracker's attributes: {\"orderId\": ID}.")

    /// The tracker's ``ContentState``. Members the app does not know are allowed: its
    /// `JSONDecoder` skips them, so a newer sender does not break an installed app.
    public static let contentStateSchema: Schema = Schema(.object(ObjectSchema(members: [
        .required("stage", Schema.string(oneOf: ContentState.Stage.allCases.map(\.rawValue))
            .rule("live-activity-payload.stage", "content-state.stage is present and is one of the tracker's stages.")
            .summary("Where the order is: confirmed, picking, onTheWay, arriving or delivered.")
            .advice("the app's ContentState decodes only these stages, and the device drops a content-state it cannot decode without a word"),
            rule: "live-activity-payload.stage"),
        .optional("eta", .liveActivityDate),
        .optional("itemsPicked", Schema.integer(minimum: 0).summary("Items picked so far.")),
        .optional("itemsTotal", Schema.integer(minimum: 1).summary("Items in the order.")),
    ], unknownMembers: .allow))).summary("The tracker's ContentState: what the activity shows now.")
}
