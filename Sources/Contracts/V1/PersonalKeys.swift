/// Keys that name personal data (a rider's name, a phone, an address), found however they
/// are cased or separated. The payload and the Live Activity payload both report them: neither
/// may carry personal data readable outside the phone (seed 000).
enum PersonalKeys {
    /// Keys that name personal data, lowercased with '_' and '-' removed.
    static let names: Set<String> = [
        "name", "fullname", "firstname", "lastname", "givenname", "familyname", "surname", "middlename",
        "ridername", "riderphone", "couriername", "drivername", "customername", "recipientname", "username",
        "phone", "phonenumber", "mobile", "telephone", "email", "emailaddress",
        "address", "streetaddress", "street", "postcode", "postalcode", "zipcode", "deliveryaddress",
        "birthday", "birthdate", "dateofbirth",
    ]

    /// FNV-1a hashes of ``names``, so most keys are rejected without building a string.
    static let hashes: Set<UInt64> = Set(names.compactMap(normalizedHash))

    /// The FNV-1a hash of `key` lowercased with '_' and '-' removed; nil for keys no listed
    /// key can match (non-ASCII, or too short or long).
    static func normalizedHash(_ key: String) -> UInt64? {
        var key = key
        return key.withUTF8(normalizedHash)
    }

    /// ``normalizedHash(_:)`` of a key's UTF-8 bytes.
    static func normalizedHash(_ utf8: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard utf8.count >= 4, utf8.count <= 32 else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in utf8 where byte != 0x5F && byte != 0x2D {
            guard byte < 0x80 else { return nil }
            let lower = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            hash = (hash ^ UInt64(lower)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// A 256-bit Bloom filter over ``hashes`` (two probes, from the top 16 bits):
    /// rejects almost every other key before the set is hashed.
    static let bloom: [UInt64] = hashes.reduce(into: [0, 0, 0, 0]) { bloom, hash in
        let (first, second) = bloomBits(hash)
        bloom[first >> 6] |= 1 << UInt64(first & 63)
        bloom[second >> 6] |= 1 << UInt64(second & 63)
    }

    /// The two Bloom filter bit numbers (0-255) of a key hash.
    @inline(__always)
    static func bloomBits(_ hash: UInt64) -> (Int, Int) {
        (Int(truncatingIfNeeded: hash >> 56), Int(truncatingIfNeeded: (hash >> 48) & 0xFF))
    }

    /// True when the Bloom filter may hold `hash` (false: surely not a personal key).
    static func mayBePersonal(_ hash: UInt64) -> Bool {
        let (first, second) = bloomBits(hash)
        return Self.bloom.withUnsafeBufferPointer { bloom in
            bloom.count == 4
                && bloom[first >> 6] & (1 << UInt64(first & 63)) != 0
                && bloom[second >> 6] & (1 << UInt64(second & 63)) != 0
        }
    }

    /// True when `key`, lowercased with '_' and '-' removed, is one of ``names``.
    static func contains(_ key: String) -> Bool {
        guard let hash = normalizedHash(key), mayBePersonal(hash),
              hashes.contains(hash) else { return false }
        // A key with a hash is ASCII (normalizedHash says nil otherwise), so lowercasing is
        // byte by byte: the Unicode lowercase mapping of an ASCII letter is its ASCII one.
        var key = key
        let normalized = key.withUTF8 { utf8 in
            String(unsafeUninitializedCapacity: utf8.count) { buffer in
                var count = 0
                for byte in utf8 where byte != 0x2D && byte != 0x5F {
                    buffer[count] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                    count += 1
                }
                return count
            }
        }
        return names.contains(normalized)
    }

    /// Walks the whole document with an explicit stack (no recursion, whatever the depth) and
    /// reports every personal key, each with `message(key)`. Paths are kept as a parent chain
    /// and turned into a pointer only for a key that is reported.
    /// - Parameter skipped: a top-level member whose value is not searched (the payload's
    ///   `secret`, which holds personal data encrypted); nil searches everything.
    static func find(in document: JSONNode, skippingTopLevel skipped: String?, _ report: inout RuleReport,
                       message: (_ key: String) -> String) {
        var steps: [(parent: Int, token: String)] = []
        steps.reserveCapacity(8)
        var pending: [(node: JSONNode, step: Int)] = []
        pending.reserveCapacity(8)
        pending.append((document, -1))
        while let (node, step) = pending.popLast() {
            switch node.value {
            case .object(let members):
                // By index: copying each member (key and value) would retain and release both.
                for index in members.indices {
                    let key = members[index].key
                    if step == -1 && key == skipped { continue }
                    if contains(key), !isSoundName(key, under: step, steps) {
                        report.add(pointer(step, steps, appending: key), at: members[index].keyPosition, message(key))
                    }
                    if isContainer(members[index].value) {
                        steps.append((step, key))
                        pending.append((members[index].value, steps.count - 1))
                    }
                }
            case .array(let items):
                for (index, item) in items.enumerated() where isContainer(item) {
                    steps.append((step, String(index)))
                    pending.append((item, steps.count - 1))
                }
            default:
                continue
            }
        }
    }

    /// `/aps/sound/name` is Apple's own key (a critical alert's sound file), not a person's name.
    static func isSoundName(_ key: String, under step: Int, _ steps: [(parent: Int, token: String)]) -> Bool {
        guard key == "name", steps.indices.contains(step), steps[step].token == "sound" else { return false }
        let parent = steps[step].parent
        return steps.indices.contains(parent) && steps[parent].token == "aps" && steps[parent].parent == -1
    }

    /// The JSON Pointer of `key` under the step chain ending at `step`.
    static func pointer(_ step: Int, _ steps: [(parent: Int, token: String)], appending key: String) -> String {
        var tokens: [String] = []
        var current = step
        while steps.indices.contains(current) {
            tokens.append(steps[current].token)
            current = steps[current].parent
        }
        return JSONPointer.make(tokens.reversed(), appending: key)
    }

    static func isContainer(_ node: JSONNode) -> Bool {
        switch node.value {
        case .object, .array: return true
        default: return false
        }
    }

    /// False when `key`, or any key inside `value`, may be personal data (including Apple's
    /// `/aps/sound/name`, which the rule allows: the rule decides those), or when `value`
    /// nests deeper than 16 levels.
    static func noneIn(_ key: String, _ value: JSONNode, depth: Int) -> Bool {
        guard !contains(key) else { return false }
        switch value.value {
        case .object(let members):
            guard depth < 16 else { return false }
            for index in members.indices where !noneIn(members[index].key, members[index].value, depth: depth + 1) {
                return false
            }
            return true
        case .array(let items):
            guard depth < 16 else { return false }
            return items.allSatisfy { noneIn("", $0, depth: depth + 1) }
        default:
            return true
        }
    }
}
