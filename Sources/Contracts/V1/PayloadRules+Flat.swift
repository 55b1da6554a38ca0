/// ``PayloadRules/allHold(_:options:)`` and ``PersonalKeys/noneIn(_:_:depth:)`` over a
/// ``FlatJSON`` document: the same answers, without a ``JSONNode`` tree.
extension PayloadRules {
    /// True only when no payload rule reports anything on the flat `document`, whose root
    /// ``SchemaAdmission`` admitted against ``PayloadSchema/payload``.
    static func allHold(_ document: FlatJSON, options: ValidationOptions) -> Bool {
        guard let sent = options.sourceByteCount, sent <= options.maximumPayloadBytes,
              let root = document.nodes.first, root.kind == .object else { return false }
        var aps: Int?
        var route: String?
        var hasAccount = false, hasOrderVersion = false, needsMutableContent = false
        var key = 1
        for _ in 0..<root.count {
            let value = key &+ 1
            defer { key = document.nodes[value].next }
            let name = document.utf8(key)
            switch (name.count, name.first) {
            case (3, UInt8(ascii: "a")?) where spells(name, "aps"): aps = value
            case (5, UInt8(ascii: "r")?) where spells(name, "route"):
                guard document.nodes[value].kind == .string else { return false }
                route = document.string(value)
            case (9, UInt8(ascii: "a")?) where spells(name, "accountId"): hasAccount = true
            case (12, UInt8(ascii: "o")?) where spells(name, "orderVersion"): hasOrderVersion = true
            case (6, UInt8(ascii: "s")?) where spells(name, "secret"): needsMutableContent = true
            case (8, UInt8(ascii: "i")?) where spells(name, "imageUrl"): needsMutableContent = true
            case (14, UInt8(ascii: "n")?) where spells(name, "notificationId"): break
            default:
                guard PersonalKeys.noneIn(name, document, value, depth: 0) else { return false }
            }
        }
        guard let aps, document.nodes[aps].kind == .object else { return false }
        var category: String?, thread: String?
        var hasAlert = false, hasBadgeOrSound = false, mutableContent = false, contentAvailable = false
        key = aps &+ 1
        for _ in 0..<document.nodes[aps].count {
            let value = key &+ 1
            defer { key = document.nodes[value].next }
            let name = document.utf8(key)
            switch (name.count, name.first) {
            case (8, UInt8(ascii: "c")?) where spells(name, "category"):
                guard document.nodes[value].kind == .string else { return false }
                category = document.string(value)
            case (9, UInt8(ascii: "t")?) where spells(name, "thread-id"):
                guard document.nodes[value].kind == .string else { return false }
                thread = document.string(value)
            case (5, UInt8(ascii: "a")?) where spells(name, "alert"), (5, UInt8(ascii: "s")?) where spells(name, "sound"):
                hasAlert = hasAlert || name.first == UInt8(ascii: "a")
                hasBadgeOrSound = hasBadgeOrSound || name.first == UInt8(ascii: "s")
                guard PersonalKeys.noneIn(UnsafeBufferPointer(start: nil, count: 0), document, value, depth: 1) else { return false }
            case (5, UInt8(ascii: "b")?) where spells(name, "badge"): hasBadgeOrSound = true
            case (15, UInt8(ascii: "m")?) where spells(name, "mutable-content"): mutableContent = isOne(document, value)
            case (17, UInt8(ascii: "c")?) where spells(name, "content-available"): contentAvailable = isOne(document, value)
            default:
                guard PersonalKeys.noneIn(name, document, value, depth: 1) else { return false }
            }
        }
        return holds(route: route, category: category, thread: thread, hasAccount: hasAccount, hasOrderVersion: hasOrderVersion,
                     needsMutableContent: needsMutableContent, mutableContent: mutableContent, hasAlert: hasAlert,
                     hasBadgeOrSound: hasBadgeOrSound, contentAvailable: contentAvailable)
    }

    /// The cross-member part of ``allHold(_:options:)``, on what the walk found.
    static func holds(route: String?, category: String?, thread: String?, hasAccount: Bool, hasOrderVersion: Bool,
                      needsMutableContent: Bool, mutableContent: Bool, hasAlert: Bool, hasBadgeOrSound: Bool,
                      contentAvailable: Bool) -> Bool {
        let isOrderRoute = route.map(StringFormat.orderRoute.matches) ?? false
        if let route, !isOrderRoute, route != "home", !StringFormat.offerRoute.matches(route) {
            return false  // payload.unknown-route (a warning)
        }
        switch category {
        case "ORDER_UPDATE"?:
            guard hasAccount, hasOrderVersion, isOrderRoute, let route, let thread,
                  isThread(thread, of: route) else { return false }
        case "OFFER"?:
            guard let route, StringFormat.offerRoute.matches(route) else { return false }
        case nil:
            break
        default:
            return false  // not a category the schema admits
        }
        if needsMutableContent && !mutableContent { return false }
        if mutableContent && !hasAlert { return false }
        if contentAvailable && (hasAlert || hasBadgeOrSound) { return false }
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
