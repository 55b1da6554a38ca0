/// The APNs payload of seed 000 ("APNs payload"), as a schema.
enum PayloadSchema {
    /// Keys of the `aps` dictionary this app's pushes use (alert pushes and silent pushes).
    static let aps: Schema = .object([
        .optional("alert", alert),
        .optional("badge", Schema.integer(minimum: 0).summary("The number on the app icon; 0 clears it.")),
        .optional("sound", sound),
        .optional("thread-id", Schema.string(minLength: 1).summary("Groups pushes of one conversation (one order).")),
        .optional("category", Schema.string(oneOf: ["ORDER_UPDATE", "OFFER"]).rule("payload.category", "aps.category is ORDER_UPDATE or OFFER, the categories the app declares.")
            .summary("The notification category: ORDER_UPDATE or OFFER.")
            .advice("the app declares only ORDER_UPDATE (\"Track order\") and OFFER (\"See offer\")")),
        .optional("content-available", Schema.integerFlag.summary("1 wakes the app in the background (a silent push).")),
        .optional("mutable-content", Schema.integerFlag.summary("1 lets the service extension change the push.")),
        .optional("target-content-id", .string()),
        .optional("interruption-level", .string(oneOf: ["passive", "active", "time-sensitive", "critical"])),
        .optional("relevance-score", .number(minimum: 0, maximum: 1)),
        .optional("filter-criteria", .string()),
    ])

    /// `alert` is a string (the body) or a dictionary.
    static let alert: Schema = .anyOf([
        .string(),
        .object([
            .optional("title", .string()),
            .optional("subtitle", .string()),
            .optional("body", .string()),
            .optional("launch-image", .string()),
            .optional("title-loc-key", .string()),
            .optional("title-loc-args", .array(of: .string())),
            .optional("subtitle-loc-key", .string()),
            .optional("subtitle-loc-args", .array(of: .string())),
            .optional("loc-key", .string()),
            .optional("loc-args", .array(of: .string())),
        ]),
    ]).summary("The visible alert: a string, or a dictionary with title and body.")

    /// `sound` is a file name or, for critical alerts, a dictionary.
    static let sound: Schema = .anyOf([
        .string(minLength: 1),
        .object([
            .optional("critical", .integerFlag),
            .optional("name", .string(minLength: 1)),
            .optional("volume", .number(minimum: 0, maximum: 1)),
        ]),
    ])

    /// The members beside `aps` that the app reads. Custom keys beyond these are allowed:
    /// installed apps ignore what they do not know.
    static let members: [Member] = [
        .required("aps", aps, rule: "payload.aps-required"),
        .required("notificationId", Schema.string(minLength: 1, maxLength: 64, format: .identifier)
            .summary("Dedupes taps and keys analytics."), rule: "payload.notification-id-required"),
        .optional("accountId", Schema.string(minLength: 1, maxLength: 64, format: .identifier)
            .summary("The account the push was sent to; a tap never opens another account's order.")),
        .optional("route", Schema.string(minLength: 1, maxLength: 200)
            .summary("Where a tap lands: orders/<id>, offers/<id> or home."),
            fallback: "an app that cannot read the route opens Home"),
        .optional("orderVersion", Schema.integer(minimum: 1).rule("payload.order-version", "orderVersion is an integer ≥ 1; ORDER_UPDATE pushes carry it.")
            .summary("Drops stale order updates; counts from 1.")
            .advice("order versions count from 1; send the order's current version")),
        .optional("secret", Schema.string(minLength: 1, format: .base64)
            .summary("Personal text, encrypted to the device key; only the service extension reads it.")),
        .optional("imageUrl", Schema.string(format: .httpsURL).rule("payload.image-url-https", "imageUrl is an https:// URL.")
            .summary("The rider photo the service extension attaches; https only.")
            .advice("iOS loads attachments over https only (App Transport Security); serve the image over https")),
    ]

    /// The payload as the server sends it.
    static let payload: Schema = Schema(.object(ObjectSchema(members: members, unknownMembers: .allow)))
        .summary("The APNs payload the backend sends.")
}
