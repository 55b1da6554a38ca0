/// The Live Activity payload's cross-field rules (DESIGN "Live Activities"), the same for every
/// declared type (``LiveActivityAttributes``): what each
/// `aps.event` carries, the `Date` encoding, personal data and size. Ids are stable.
enum LiveActivityRules {
    static let eventPath = ["aps", "event"]

    /// Holds when `aps.event` is one of `names`. Each rule's form and check share it, so
    /// the two agree on which pushes a rule applies to (a push without a known event: none).
    static func event(_ names: String...) -> RuleCondition {
        .equals(eventPath, names.map { .string($0) })
    }

    /// The event a rule applies to, for messages ("an update push").
    static func describeEvent(_ document: JSONNode) -> String {
        guard let name = NodeQuery.string(at: eventPath, in: document) else { return "this push" }
        return (name == "start" ? "a " : "an ") + name + " push"
    }

    /// Pushes for which `condition` holds carry the `aps` members `names`; each missing one is
    /// reported at `/aps` with `why` (what to add and why).
    static func required(_ names: [String], on condition: RuleCondition, id: String, summary: String,
                         why: @escaping @Sendable (_ name: String) -> String) -> ContractRule {
        ContractRule(id: id, summary: summary,
                     form: RuleForm(when: condition, then: .allOf(names.map { .present(["aps", $0]) }))) { document, report in
            guard condition.holds(for: document), let aps = NodeQuery.value("aps", of: document) else { return }
            for name in names where NodeQuery.value(name, of: aps) == nil {
                report.add("/aps", at: aps.position, "\(describeEvent(document)) expects \"\(name)\", found none — \(why(name)).")
            }
        }
    }

    /// Pushes for which `condition` holds carry none of the `aps` members `names`; each one
    /// present is reported at its key with `why` (what to do instead).
    static func forbidden(_ names: [String], on condition: RuleCondition, allowedOn allowed: String, id: String, summary: String,
                          why: String) -> ContractRule {
        ContractRule(id: id, summary: summary,
                     form: RuleForm(when: condition, then: .allOf(names.map { .absent(["aps", $0]) }))) { document, report in
            guard condition.holds(for: document), let aps = NodeQuery.value("aps", of: document) else { return }
            for name in names {
                guard let member = NodeQuery.member(name, of: aps) else { continue }
                report.add("/aps/" + name, at: member.keyPosition,
                           "expected \"\(name)\" only on \(allowed) pushes, found it on \(describeEvent(document)) — \(why).")
            }
        }
    }

    static func contentStateRequired(_ typeName: String) -> ContractRule {
        required(["content-state"], on: event("start", "update"), id: "live-activity-payload.content-state-required",
                 summary: "start and update pushes carry aps.content-state (end may).") { _ in
            "add the whole \(typeName).ContentState; the activity replaces its state with it"
        }
    }

    static func startAttributes(_ typeName: String) -> ContractRule {
        required(["attributes-type", "attributes"], on: event("start"), id: "live-activity-payload.start-attributes",
                 summary: "start pushes carry aps.attributes-type and aps.attributes.") { name in
            name == "attributes"
                ? "add the \(typeName) encoded; ActivityKit creates the activity with these attributes"
                : "add \"\(typeName)\"; ActivityKit starts an activity only for a type it knows"
        }
    }

    static let attributesStartOnly = forbidden(
        ["attributes-type", "attributes"], on: event("update", "end"), allowedOn: "start",
        id: "live-activity-payload.attributes-start-only",
        summary: "Only start pushes carry aps.attributes-type and aps.attributes.",
        why: "attributes are fixed for the activity's life; remove it")

    static let inputPushTokenStartOnly = forbidden(
        ["input-push-token"], on: event("update", "end"), allowedOn: "start",
        id: "live-activity-payload.input-push-token-start-only",
        summary: "Only start pushes carry aps.input-push-token.",
        why: "it asks for a new activity's push token, which this activity already has; remove it")

    static let dismissalDateEndOnly = forbidden(
        ["dismissal-date"], on: event("start", "update"), allowedOn: "end",
        id: "live-activity-payload.dismissal-date-end-only",
        summary: "Only end pushes carry aps.dismissal-date.",
        why: "it says when an ended activity leaves the lock screen; send it with the end push")

    static let alert = ["aps", "alert"]

    static let startAlert = ContractRule(
        id: "live-activity-payload.start-alert", summary: "start pushes carry aps.alert with a title and a body.",
        form: RuleForm(when: event("start"), then: .allOf([.present(alert + ["title"]), .present(alert + ["body"])]))
    ) { document, report in
        guard event("start").holds(for: document), let aps = NodeQuery.value("aps", of: document) else { return }
        guard let alert = NodeQuery.value("alert", of: aps) else {
            report.add("/aps", at: aps.position,
                       "a start push expects \"alert\" with \"title\" and \"body\", found none — add it; the activity appears with this alert.")
            return
        }
        guard case .object = alert.value else {
            report.add("/aps/alert", at: alert.position,
                       "a start push expects \"alert\" with \"title\" and \"body\", found \(NodeQuery.describe(alert)) — write {\"title\": …, \"body\": …}.")
            return
        }
        for name in ["title", "body"] where NodeQuery.value(name, of: alert) == nil {
            report.add("/aps/alert", at: alert.position,
                       "a start push expects \"alert\" with \"\(name)\", found none — add it; the activity appears with this alert.")
        }
    }

    /// Seconds from 1970-01-01 to 2001-01-01: Unix time minus this is ActivityKit's `Date`.
    static let referenceDateOffset: Int64 = 978_307_200

    /// `Date` values above this read as Unix time: as seconds since 2001 they would be after 2032.
    static let largestReferenceDate: Double = 1_000_000_000

    /// Unix times above this are in milliseconds: in seconds they would be after the year 5000.
    static let largestUnixSeconds: Double = 100_000_000_000

    /// What to send instead of the Unix time `unixSeconds`: the same instant in seconds since 2001.
    static func sinceReferenceDate(_ unixSeconds: Double) -> String {
        let value = unixSeconds - Double(referenceDateOffset)
        guard value.isFinite else { return "the Unix time in seconds minus 978,307,200" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func dateSince2001(_ dateMembers: [String]) -> ContractRule {
        ContractRule(
            id: "live-activity-payload.date-since-2001",
            summary: "content-state dates are seconds since 2001-01-01, as ActivityKit reads them; a value above 1,000,000,000 is Unix time."
        ) { document, report in
            guard let state = NodeQuery.node(at: ["aps", "content-state"], in: document) else { return }
            for name in dateMembers {
                guard let date = NodeQuery.value(name, of: state), case .number(let number) = date.value,
                      number.doubleValue > largestReferenceDate else { continue }
                let milliseconds = number.doubleValue > largestUnixSeconds
                let converted = sinceReferenceDate(milliseconds ? number.doubleValue / 1000 : number.doubleValue)
                let (unit, how, late) = milliseconds
                    ? ("Unix time in milliseconds", "divide by 1,000, then subtract 978,307,200", "tens of thousands of years")
                    : ("Unix time", "subtract 978,307,200", "31 years")
                report.add("/aps/content-state/" + name, at: date.position,
                           "expected seconds since 2001-01-01 (ActivityKit's JSONDecoder default), found \(NodeQuery.describe(date)), which is \(unit) — send \(converted) (\(how)) or encode the Date with JSONEncoder's default strategy; as it is, the app shows a date \(late) late.")
            }
        }
    }

    static let personalData = ContractRule(
        id: "live-activity-payload.personal-data",
        summary: "Nothing personal (names, phones, emails, addresses) anywhere, content-state and attributes included."
    ) { document, report in
        PersonalKeys.find(in: document, skippingTopLevel: nil, &report) { key in
            "expected nothing personal in a Live Activity push, found \"\(key)\" — no service extension runs to decrypt it and the lock screen shows it to anyone holding the phone; send an id and show the personal part in the app."
        }
    }

    /// True only when no rule of ``all(for:)`` would report anything about `document`, given
    /// that ``SchemaAdmission`` admits it (`aps` an object of declared members, no key twice);
    /// a false only sends the document down the full validation. One pass over `aps` finds the
    /// event and what each event must and must not carry; one walk looks for personal keys.
    /// - Parameter dateMembers: the content state's `Date` members (``dateSince2001(_:)``).
    static func allHold(_ document: JSONNode, dateMembers: [String], options: ValidationOptions) -> Bool {
        guard let sent = options.sourceByteCount, sent <= options.maximumPayloadBytes,
              case .object(let top) = document.value else { return false }
        var aps: JSONNode?
        for index in top.indices {
            if top[index].key == "aps" {
                aps = top[index].value
            } else if !PersonalKeys.noneIn(top[index].key, top[index].value, depth: 1) {
                return false
            }
        }
        guard let aps, case .object(let members) = aps.value else { return false }
        var event: String?, state: JSONNode?, alert: JSONNode?
        var hasAttributes = false, hasInputPushToken = false, hasDismissalDate = false
        for index in members.indices {
            // The admitted `aps` holds only Apple's keys, which are not personal: only the
            // values are searched, and only those with keys inside (objects, arrays).
            guard !PersonalKeys.isContainer(members[index].value) || PersonalKeys.noneIn("", members[index].value, depth: 2) else { return false }
            // Compared only with the names of its length: they are lowercase ASCII letters
            // and '-', which no string of another length equals canonically.
            let key = members[index].key
            switch key.utf8.count {
            case 5 where key == "event":
                guard case .string(let text) = members[index].value.value else { return false }
                event = text
            case 13 where key == "content-state": state = members[index].value
            case 5 where key == "alert": alert = members[index].value
            case 15 where key == "attributes-type", 10 where key == "attributes": hasAttributes = true
            case 16 where key == "input-push-token": hasInputPushToken = true
            case 14 where key == "dismissal-date": hasDismissalDate = true
            default: break
            }
        }
        switch event {
        case "update"?:
            guard state != nil, !hasAttributes, !hasInputPushToken, !hasDismissalDate else { return false }
        case "start"?:
            // Both attributes members, and an alert object with a title and a body.
            guard state != nil, !hasDismissalDate, NodeQuery.value("attributes-type", of: aps) != nil,
                  NodeQuery.value("attributes", of: aps) != nil, let alert,
                  NodeQuery.value("title", of: alert) != nil, NodeQuery.value("body", of: alert) != nil else { return false }
        case "end"?:
            guard !hasAttributes, !hasInputPushToken else { return false }
        default:
            return false
        }
        guard let state else { return true }
        for name in dateMembers {
            if let date = NodeQuery.value(name, of: state), case .number(let number) = date.value,
               number.doubleValue > largestReferenceDate { return false }
        }
        return true
    }

    /// Every rule for pushes of `Attributes`, in the order they are documented: the same for
    /// every declared type, only the messages name the type and the dates are its own.
    static func all<Attributes: LiveActivityAttributes>(for _: Attributes.Type) -> [ContractRule] {
        let name = Attributes.attributesType
        return [
            PayloadRules.size(id: "live-activity-payload.size", summary: "The push is at most 4096 bytes as sent."),
            contentStateRequired(name), startAlert, startAttributes(name), attributesStartOnly, inputPushTokenStartOnly,
            dismissalDateEndOnly, dateSince2001(LiveActivitySchema.dateMembers(of: Attributes.contentStateSchema)), personalData,
        ]
    }
}
