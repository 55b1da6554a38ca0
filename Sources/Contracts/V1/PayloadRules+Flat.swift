/// ``PayloadRules/allHold(_:options:)`` and ``PersonalKeys/noneIn(_:_:depth:)`` over a
/// ``FlatJSON`` document: the same answers, without a ``JSONNode`` tree.
extension PayloadRules {
    /// True only when no payload rule reports anything on the flat `document`, whose root
    /// ``SchemaAdmission`` admitted against ``PayloadSchema/payload``.
    static func allHold(_ document: FlatJSON, options: ValidationOptions) -> Bool {
        guard let sent = options.sourceByteCount, sent <= options.maximumPayloadBytes,
              let root = document.nodes.first, root.kind == .object else { return false }
        var aps: Int?
        var route: Int?
        var facts = PayloadFacts()
        var key = 1
        for _ in 0..<root.count {
            let value = key &+ 1
            defer { key = document.nodes[value].next }
            let name = document.utf8(key)
            switch (name.count, name.first) {
            case (3, UInt8(ascii: "a")?) where spells(name, "aps"): aps = value
            case (5, UInt8(ascii: "r")?) where spells(name, "route"):
                guard document.nodes[value].kind == .string else { return false }
                route = value
                facts.route = PayloadFacts.Route(ascii: document.utf8(value))
            case (9, UInt8(ascii: "a")?) where spells(name, "accountId"): facts.hasAccount = true
            case (12, UInt8(ascii: "o")?) where spells(name, "orderVersion"): facts.hasOrderVersion = true
            case (6, UInt8(ascii: "s")?) where spells(name, "secret"): facts.needsMutableContent = true
            case (8, UInt8(ascii: "i")?) where spells(name, "imageUrl"): facts.needsMutableContent = true
            case (14, UInt8(ascii: "n")?) where spells(name, "notificationId"): break
            default:
                guard PersonalKeys.noneIn(name, document, value, depth: 0) else { return false }
            }
        }
        guard let aps, document.nodes[aps].kind == .object else { return false }
        var thread: Int?
        key = aps &+ 1
        for _ in 0..<document.nodes[aps].count {
            let value = key &+ 1
            defer { key = document.nodes[value].next }
            let name = document.utf8(key)
            switch (name.count, name.first) {
            case (8, UInt8(ascii: "c")?) where spells(name, "category"):
                guard document.nodes[value].kind == .string else { return false }
                facts.category = PayloadFacts.Category(ascii: document.utf8(value))
            case (9, UInt8(ascii: "t")?) where spells(name, "thread-id"):
                guard document.nodes[value].kind == .string else { return false }
                thread = value
            case (5, UInt8(ascii: "a")?) where spells(name, "alert"), (5, UInt8(ascii: "s")?) where spells(name, "sound"):
                facts.hasAlert = facts.hasAlert || name.first == UInt8(ascii: "a")
                facts.hasBadgeOrSound = facts.hasBadgeOrSound || name.first == UInt8(ascii: "s")
                guard PersonalKeys.noneIn(UnsafeBufferPointer(start: nil, count: 0), document, value, depth: 1) else { return false }
            case (5, UInt8(ascii: "b")?) where spells(name, "badge"): facts.hasBadgeOrSound = true
            case (15, UInt8(ascii: "m")?) where spells(name, "mutable-content"): facts.mutableContent = isOne(document, value)
            case (17, UInt8(ascii: "c")?) where spells(name, "content-available"): facts.contentAvailable = isOne(document, value)
            default:
                guard PersonalKeys.noneIn(name, document, value, depth: 1) else { return false }
            }
        }
        if facts.category == .orderUpdate, let route, let thread {
            facts.threadMatchesRoute = isThread(document.utf8(thread), of: document.utf8(route))
        }
        return holds(facts)
    }

    /// The cross-member part of ``allHold(_:options:)`` (tree), on what the walk found.
    static func holds(route: String?, category: String?, thread: String?, hasAccount: Bool, hasOrderVersion: Bool,
                      needsMutableContent: Bool, mutableContent: Bool, hasAlert: Bool, hasBadgeOrSound: Bool,
                      contentAvailable: Bool) -> Bool {
        var facts = PayloadFacts(hasAccount: hasAccount, hasOrderVersion: hasOrderVersion, needsMutableContent: needsMutableContent,
                                 mutableContent: mutableContent, hasAlert: hasAlert, hasBadgeOrSound: hasBadgeOrSound,
                                 contentAvailable: contentAvailable)
        facts.route = route.map(PayloadFacts.Route.init) ?? .none
        facts.category = category.map(PayloadFacts.Category.init) ?? .none
        if facts.category == .orderUpdate, let route, let thread {
            facts.threadMatchesRoute = isThread(thread, of: route)
        }
        return holds(facts)
    }

    /// The cross-member part of both ``allHold(_:options:)``.
    static func holds(_ facts: PayloadFacts) -> Bool {
        if facts.route == .other { return false }  // payload.unknown-route (a warning)
        switch facts.category {
        case .orderUpdate:
            guard facts.hasAccount, facts.hasOrderVersion, facts.route == .order, facts.threadMatchesRoute else { return false }
        case .offer:
            guard facts.route == .offer else { return false }
        case .none:
            break
        case .other:
            return false  // not a category the schema admits
        }
        if facts.needsMutableContent && !facts.mutableContent { return false }
        if facts.mutableContent && !facts.hasAlert { return false }
        if facts.contentAvailable && (facts.hasAlert || facts.hasBadgeOrSound) { return false }
        return true
    }

    /// True when `bytes` spell `name`.
    @inline(__always)
    private static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { SWAR.equal($0, bytes) }
    }

    /// ``isOne(_:)`` for a flat node: the integer literal 1.
    private static func isOne(_ document: FlatJSON, _ index: Int) -> Bool {
        document.nodes[index].kind == .number && document.nodes[index].integer == 1
    }
}

extension PersonalKeys {
    /// True when the ASCII `key` is one of ``names`` (as ``contains(_:)``).
    static func contains(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let hash = normalizedHash(key), mayBePersonal(hash), hashes.contains(hash) else { return false }
        return contains(String(decoding: key, as: UTF8.self))
    }

    /// ``noneIn(_:_:depth:)`` for the node at `index` of a flat document, under `key`.
    static func noneIn(_ key: UnsafeBufferPointer<UInt8>, _ document: FlatJSON, _ index: Int, depth: Int) -> Bool {
        guard !contains(key) else { return false }
        let node = document.nodes[index]
        switch node.kind {
        case .object:
            guard depth < 16 else { return false }
            var member = index &+ 1
            for _ in 0..<node.count {
                guard noneIn(document.utf8(member), document, member &+ 1, depth: depth + 1) else { return false }
                member = document.nodes[member &+ 1].next
            }
            return true
        case .array:
            guard depth < 16 else { return false }
            var item = index &+ 1
            for _ in 0..<node.count {
                guard noneIn(UnsafeBufferPointer(start: nil, count: 0), document, item, depth: depth + 1) else { return false }
                item = document.nodes[item].next
            }
            return true
        default:
            return true
        }
    }
}
