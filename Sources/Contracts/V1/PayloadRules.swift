/// The payload's cross-field rules (DESIGN "Payload"), each with its own stable id.
enum PayloadRules {
    static let category = ["aps", "category"]
    static let mutableContent = ["aps", "mutable-content"]
    static let contentAvailable = ["aps", "content-available"]

    static func isCategory(_ name: String, _ document: JSONNode) -> Bool {
        guard let node = NodeQuery.value("aps", "category", in: document), case .string(let text) = node.value else { return false }
        return text == name
    }

    /// True when `node` is there and is the integer literal 1 (`NodeQuery.isInteger(1, at:in:)`).
    static func isOne(_ node: JSONNode?) -> Bool {
        guard let node else { return false }
        return JSONConstant.integer(1).matches(node)
    }

    /// `payload.size`: at most 4096 bytes as sent (5120 for VoIP).
    /// - Parameters:
    ///   - id: the rule's id (another payload contract, such as the Live Activity one, has its own).
    ///   - excluded: a top-level member that is not sent (the `.apns` file's
    ///     "Simulator Target Bundle"); when set, the size is measured compactly without it.
    static func size(id: String = "payload.size", summary: String = "The payload is at most 4096 bytes as sent (5120 for VoIP).",
                     excluding excluded: String? = nil) -> ContractRule {
        ContractRule(id: id, summary: summary) { document, report in
            let limit = report.options.maximumPayloadBytes
            // Measuring the compact form walks every string; do it only when it matters.
            func compactSize() -> Int {
                if let excluded, case .object(let members) = document.value {
                    return CompactSize.of(members.filter { $0.key != excluded })
                }
                return CompactSize.of(document)
            }
            let sent = excluded == nil ? report.options.sourceByteCount : nil
            let measured = sent ?? compactSize()
            guard measured > limit else { return }
            let compact = sent == nil ? measured : compactSize()
            let hint = compact <= limit
                ? "send it without whitespace (compact it is \(compact) bytes)"
                : "shorten the alert or send an id the app fetches with"
            report.add("", at: document.position,
                       "expected at most \(limit) bytes, found \(measured) — APNs answers 413 PayloadTooLarge; \(hint).")
        }
    }

    static let orderUpdateAccount = ContractRule(
        id: "payload.order-update-account", summary: "ORDER_UPDATE pushes name the account (accountId).",
        form: RuleForm(when: .equals(category, [.string("ORDER_UPDATE")]), then: .present(["accountId"]))
    ) { document, report in
        guard isCategory("ORDER_UPDATE", document), NodeQuery.member("accountId", of: document) == nil else { return }
        report.add("", at: document.position,
                   "ORDER_UPDATE expects \"accountId\", found none — add the account the push is for; the app never opens another account's order.")
    }

    static let orderUpdateRoute = ContractRule(
        id: "payload.order-update-route", summary: "ORDER_UPDATE pushes route to orders/<id>.",
        form: RuleForm(when: .equals(category, [.string("ORDER_UPDATE")]), then: .matches(["route"], .orderRoute))
    ) { document, report in
        guard isCategory("ORDER_UPDATE", document) else { return }
        checkRoute(document, format: .orderRoute, category: "ORDER_UPDATE", &report)
    }

    static let offerRoute = ContractRule(
        id: "payload.offer-route", summary: "OFFER pushes route to offers/<id>.",
        form: RuleForm(when: .equals(category, [.string("OFFER")]), then: .matches(["route"], .offerRoute))
    ) { document, report in
        guard isCategory("OFFER", document) else { return }
        checkRoute(document, format: .offerRoute, category: "OFFER", &report)
    }

    static func checkRoute(_ document: JSONNode, format: StringFormat, category: String, _ report: inout RuleReport) {
        guard let route = NodeQuery.member("route", of: document) else {
            report.add("", at: document.position, "\(category) expects \"route\": \(format.expectation), found none — add the route a tap opens.")
            return
        }
        guard case .string(let text) = route.value.value, format.matches(text) else {
            report.add("/route", at: route.value.position,
                       "\(category) expects \(format.expectation), found \(NodeQuery.describe(route.value)) — route \(category == "OFFER" ? "offers" : "orders") to the matching screen.")
            return
        }
    }

    static let orderUpdateThreadID = ContractRule(
        id: "payload.order-update-thread-id",
        summary: "ORDER_UPDATE pushes set thread-id to order-<id>, with the same id as the route."
    ) { document, report in
        guard isCategory("ORDER_UPDATE", document), let aps = NodeQuery.value("aps", of: document) else { return }
        var orderID: Substring?
        if let node = NodeQuery.value("route", of: document), case .string(let route) = node.value,
           StringFormat.orderRoute.matches(route) {
            // By bytes: the format guarantees the ASCII prefix, and dropping Characters would
            // run grapheme breaking on every payload.
            orderID = Substring(route.utf8.dropFirst(7))
        }
        // Spelled out only for a report: interpolating it allocates on every payload.
        func expected() -> String { orderID.map { "\"order-\($0)\"" } ?? "order-<id>" }
        guard let thread = NodeQuery.value("thread-id", of: aps) else {
            report.add("/aps", at: aps.position,
                       "ORDER_UPDATE expects \"thread-id\": \(expected()), found none — add it so one order's pushes group together.")
            return
        }
        let text: String? = if case .string(let value) = thread.value { value } else { nil }
        let matches: Bool
        if let orderID {
            matches = text.map { $0.utf8.count == 6 + orderID.utf8.count && FormatMatchers.hasPrefix($0, "order-")
                && $0.utf8.dropFirst(6).elementsEqual(orderID.utf8) } ?? false
        } else {
            matches = text.map(StringFormat.orderThread.matches) ?? false
        }
        guard !matches else { return }
        report.add("/aps/thread-id", at: thread.position,
                   "ORDER_UPDATE expects thread-id \(expected()), found \(NodeQuery.describe(thread)) — use the order id of the route so the order's pushes group together.")
    }

    static let orderVersion = ContractRule(
        id: "payload.order-version", summary: "ORDER_UPDATE pushes carry orderVersion ≥ 1 (stale updates are dropped).",
        form: RuleForm(when: .equals(category, [.string("ORDER_UPDATE")]), then: .present(["orderVersion"]))
    ) { document, report in
        guard isCategory("ORDER_UPDATE", document), NodeQuery.member("orderVersion", of: document) == nil else { return }
        report.add("", at: document.position,
                   "ORDER_UPDATE expects \"orderVersion\" (an integer ≥ 1), found none — add the order's version so the app drops stale updates.")
    }

    static let mutableContentNeedsAlert = ContractRule(
        id: "payload.mutable-content-needs-alert", summary: "mutable-content: 1 comes with an alert (the extension runs only for alerts).",
        form: RuleForm(when: .equals(mutableContent, [.integer(1)]), then: .present(["aps", "alert"]))
    ) { document, report in
        guard let aps = NodeQuery.value("aps", of: document), let flag = NodeQuery.value("mutable-content", of: aps),
              isOne(flag), NodeQuery.value("alert", of: aps) == nil else { return }
        report.add("/aps/mutable-content", at: flag.position,
                   "mutable-content: 1 expects an \"alert\" in aps, found none — the service extension runs only for alerts; add a generic alert or drop mutable-content.")
    }

    static let secretNeedsMutableContent = needsMutableContent(
        "secret", id: "payload.secret-needs-mutable-content",
        why: "only the service extension can decrypt it, and it runs only with mutable-content: 1")

    static let imageURLNeedsMutableContent = needsMutableContent(
        "imageUrl", id: "payload.image-url-needs-mutable-content",
        why: "only the service extension attaches the image, and it runs only with mutable-content: 1")

    static func needsMutableContent(_ name: String, id: String, why: String) -> ContractRule {
        ContractRule(
            id: id, summary: "\"\(name)\" comes with aps.mutable-content: 1.",
            form: RuleForm(when: .present([name]), then: .equals(mutableContent, [.integer(1)]))
        ) { document, report in
            guard let member = NodeQuery.member(name, of: document) else { return }
            let flag = NodeQuery.value("aps", "mutable-content", in: document)
            guard !isOne(flag) else { return }
            let found = flag.map(NodeQuery.describe) ?? "none"
            report.add("/" + name, at: member.keyPosition,
                       "\"\(name)\" expects aps.mutable-content: 1, found \(found) — \(why); add \"mutable-content\": 1.")
        }
    }

    static let silentPush = ContractRule(
        id: "payload.silent-push", summary: "A silent push (content-available: 1) has no alert, badge or sound.",
        form: RuleForm(when: .equals(contentAvailable, [.integer(1)]),
                       then: .allOf([.absent(["aps", "alert"]), .absent(["aps", "badge"]), .absent(["aps", "sound"])]))
    ) { document, report in
        guard let aps = NodeQuery.value("aps", of: document),
              isOne(NodeQuery.value("content-available", of: aps)) else { return }
        for name in ["alert", "badge", "sound"] {
            guard let member = NodeQuery.member(name, of: aps) else { continue }
            report.add("/aps/" + name, at: member.keyPosition,
                       "a silent push (content-available: 1) expects no \"\(name)\", found one — send the visible push and the background refresh as two pushes.")
        }
    }

    static let unknownRoute = ContractRule(
        id: "payload.unknown-route", severity: .warning,
        summary: "A route this app version cannot read is allowed (the app opens Home) but reported."
    ) { document, report in
        guard let route = NodeQuery.value("route", of: document), case .string(let text) = route.value,
              Route(text) == nil else { return }
        report.add("/route", at: route.position,
                   "expected a route this app version reads (orders/<id>, offers/<id>, home), found \(NodeQuery.describe(route)) — the app opens Home; fine for a route only newer apps read, otherwise fix it.")
    }

    static let personalData = ContractRule(
        id: "payload.personal-data", summary: "Personal data (names, phones, emails, addresses) travels only encrypted in \"secret\"."
    ) { document, report in
        PersonalKeys.find(in: document, skippingTopLevel: "secret", &report) { key in
            "expected no personal data outside \"secret\", found \"\(key)\" — APNs and lock screens can read it; personal data travels only encrypted in \"secret\"."
        }
    }

    /// True only when no rule of ``all(sizeExcluding:)`` (without an exclusion) reports
    /// anything on `document`, a document ``PayloadSchema/payload`` admitted (so each key is
    /// there once at the top and in `aps`, and every declared member has its type). One walk
    /// instead of twelve rules; anything unusual (a key like a personal one, a size not
    /// given) says false and the rules run. The tests compare it with the rules.
    static func allHold(_ document: JSONNode, options: ValidationOptions) -> Bool {
        guard let sent = options.sourceByteCount, sent <= options.maximumPayloadBytes,
              case .object(let members) = document.value else { return false }
        var aps: JSONNode?
        var route: String?
        var hasAccount = false, hasOrderVersion = false, needsMutableContent = false
        // The keys matched by name are not personal (their values are checked for keys
        // inside); every other key is.
        // Switched on (length, key): a key of another length passes a case without a string compare.
        for index in members.indices {
            let key = members[index].key
            switch (key.utf8.count, key) {
            case (3, "aps"): aps = members[index].value
            case (5, "route"):
                guard case .string(let text) = members[index].value.value else { return false }
                route = text
            case (9, "accountId"): hasAccount = true
            case (12, "orderVersion"): hasOrderVersion = true
            case (6, "secret"): needsMutableContent = true  // personal data is allowed inside it
            case (8, "imageUrl"): needsMutableContent = true
            case (14, "notificationId"): break
            default:
                guard PersonalKeys.noneIn(key, members[index].value, depth: 0) else { return false }
            }
        }
        guard let aps, case .object(let apsMembers) = aps.value else { return false }
        var category: String?, thread: String?
        var hasAlert = false, hasBadgeOrSound = false, mutableContent = false, contentAvailable = false
        for index in apsMembers.indices {
            let key = apsMembers[index].key
            switch (key.utf8.count, key) {
            case (8, "category"):
                guard case .string(let text) = apsMembers[index].value.value else { return false }
                category = text
            case (9, "thread-id"):
                guard case .string(let text) = apsMembers[index].value.value else { return false }
                thread = text
            case (5, "alert"), (5, "sound"):
                hasAlert = hasAlert || key == "alert"
                hasBadgeOrSound = hasBadgeOrSound || key == "sound"
                // An object's keys may be personal (`/aps/sound/name` is left to the rule).
                guard PersonalKeys.noneIn("", apsMembers[index].value, depth: 1) else { return false }
            case (5, "badge"): hasBadgeOrSound = true
            case (15, "mutable-content"): mutableContent = isOne(apsMembers[index].value)
            case (17, "content-available"): contentAvailable = isOne(apsMembers[index].value)
            default:
                guard PersonalKeys.noneIn(key, apsMembers[index].value, depth: 1) else { return false }
            }
        }
        return holds(route: route, category: category, thread: thread, hasAccount: hasAccount, hasOrderVersion: hasOrderVersion,
                     needsMutableContent: needsMutableContent, mutableContent: mutableContent, hasAlert: hasAlert,
                     hasBadgeOrSound: hasBadgeOrSound, contentAvailable: contentAvailable)
    }

    /// True when `thread` is `order-<id>` for the `orders/<id>` of `route` (an order route).
    static func isThread(_ thread: String, of route: String) -> Bool {
        var thread = thread, route = route
        return thread.withUTF8 { thread in route.withUTF8 { isThread(thread, of: $0) } }
    }

    /// ``isThread(_:of:)`` on the UTF-8 of both.
    static func isThread(_ thread: UnsafeBufferPointer<UInt8>, of route: UnsafeBufferPointer<UInt8>) -> Bool {
        thread.count == route.count &- 1 && route.count > 7
            && thread[0] == UInt8(ascii: "o") && thread[1] == UInt8(ascii: "r") && thread[2] == UInt8(ascii: "d")
            && thread[3] == UInt8(ascii: "e") && thread[4] == UInt8(ascii: "r") && thread[5] == UInt8(ascii: "-")
            && FormatMatchers.memoryEqual(UnsafeBufferPointer(rebasing: thread[6...]), UnsafeBufferPointer(rebasing: route[7...]), route.count &- 7)
    }

    /// Every payload rule, in the order they are documented.
    static func all(sizeExcluding excluded: String? = nil) -> [ContractRule] {
        [size(excluding: excluded), orderUpdateAccount, orderUpdateRoute, orderUpdateThreadID, orderVersion, offerRoute,
         mutableContentNeedsAlert, secretNeedsMutableContent, imageURLNeedsMutableContent, personalData, silentPush, unknownRoute]
    }
}
