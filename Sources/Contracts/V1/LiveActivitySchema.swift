/// The APNs body of a declared Live Activity type (DESIGN "Live Activities of the app's own
/// types") as a schema: Apple's `aps` keys, the type's own attributes and content state. What depends on `aps.event` is in ``LiveActivityRules``.
enum LiveActivitySchema {
    /// The values of `aps.event`.
    static let events = ["start", "update", "end"]

    /// A `Date` member as ActivityKit's `JSONDecoder` reads it by default.
    static let date: Schema = Schema.number()
        .summary("A Date as ActivityKit's JSONDecoder reads it: seconds since 2001-01-01 (not Unix time).")

    /// The `Date` members of a content state's schema, which ``LiveActivityRules/dateSince2001`` checks.
    static func dateMembers(of contentState: Schema) -> [String] {
        guard case .object(let object) = contentState.kind else { return [] }
        return object.members.filter { $0.schema == date }.map(\.name)
    }

    /// An alert's title or body: the text, or a key of the app's Localizable.strings and its arguments.
    static let alertText: Schema = Schema.anyOf([
        .string(),
        .object([
            .required("loc-key", .string(minLength: 1)),
            .optional("loc-args", .array(of: .string())),
        ]),
    ]).summary("The text, or {\"loc-key\": …, \"loc-args\": […]} to localize on the device.")

    /// A Live Activity's alert: a dictionary with a title and a body.
    static let alert: Schema = Schema.object([
        .optional("title", alertText),
        .optional("body", alertText),
        .optional("sound", Schema.string(minLength: 1).summary("A sound file in the app bundle, or \"default\".")),
    ]).summary("The alert shown when the activity starts or changes: title and body.")

    /// A Unix time in seconds, as APNs reads `stale-date` and `dismissal-date`.
    static func unixTime(_ summary: String) -> Schema {
        Schema.integer(minimum: 0).summary(summary)
    }

    /// The `aps` dictionary of a push for `Attributes`: Apple's keys only.
    static func aps<Attributes: LiveActivityAttributes>(for _: Attributes.Type) -> Schema {
        .object([
            .required("timestamp", Schema.integer(minimum: 0, maximum: 99_999_999_999)
                .rule("live-activity-payload.timestamp", "aps.timestamp is present: when the update was made, in Unix seconds.")
                .summary("When the update was made, in Unix seconds; the device ignores an update not newer than the last it applied.")
                .advice("aps.timestamp is Unix time in seconds (milliseconds are 1000 times too large); the device ignores an update not newer than the last one"),
                rule: "live-activity-payload.timestamp"),
            .required("event", Schema.string(oneOf: events)
                .rule("live-activity-payload.event", "aps.event is present and is start, update or end.")
                .summary("What the push does to the activity: start, update or end.")
                .advice("ActivityKit acts on start, update and end only"),
                rule: "live-activity-payload.event"),
            .optional("content-state", Attributes.contentStateSchema),
            .optional("alert", alert),
            .optional("attributes-type", Schema.string(oneOf: [Attributes.attributesType])
                .rule("live-activity-payload.attributes-type", "aps.attributes-type names the activity's attributes type, \(Attributes.attributesType).")
                .summary("The ActivityAttributes type the activity starts with.")
                .advice("ActivityKit starts an activity only for an attributes type the app declares, spelled exactly")),
            .optional("attributes", Attributes.attributesSchema),
            .optional("stale-date", unixTime("When the state goes stale, in Unix seconds; the lock screen shows it as out of date.")),
            .optional("dismissal-date", unixTime("When an ended activity leaves the lock screen, in Unix seconds.")),
            .optional("relevance-score", Schema.number().summary("Orders this activity among the app's others; higher first.")),
            .optional("input-push-token", Schema.constants([.integer(1)])
                .summary("1 asks APNs to send the started activity's own push token to the app.")),
            .optional("input-push-channel", Schema.string()
                .summary("The broadcast channel id (base64) the started activity subscribes to.")),
        ])
    }

    /// The Live Activity push as the server sends it. Keys beside `aps` are allowed (the
    /// device ignores them) but checked for personal data.
    static func payload<Attributes: LiveActivityAttributes>(for type: Attributes.Type, summary: String) -> Schema {
        Schema(.object(ObjectSchema(members: [.required("aps", aps(for: type))], unknownMembers: .allow))).summary(summary)
    }
}
