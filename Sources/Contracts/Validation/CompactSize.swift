/// The size in bytes of a JSON value written compactly (no whitespace, minimal escapes),
/// which is how a server sends a payload. Size rules use it when the bytes as sent are unknown.
enum CompactSize {
    static func of(_ node: JSONNode) -> Int {
        switch node.value {
        case .null: return 4
        case .bool(let value): return value ? 4 : 5
        case .number(let number): return number.literal.utf8.count
        case .string(let text): return of(text)
        case .array(let items):
            var total = 2 + Swift.max(0, items.count - 1)
            for item in items { total &+= of(item) }
            return total
        case .object(let members):
            return of(members)
        }
    }

    /// The size of an object with these members.
    static func of(_ members: [JSONMember]) -> Int {
        var total = 2 + Swift.max(0, members.count - 1)
        for member in members { total &+= of(member.key) &+ 1 &+ of(member.value) }
        return total
    }

    /// A string with its quotes and the escapes a compact writer needs.
    static func of(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            // Contiguous bytes: iterating `String.UTF8View` costs several times more per byte.
            var total = 2 &+ bytes.count
            // A branch-free count first (the compiler checks many bytes per instruction): most
            // strings, such as a long base64 secret, need no escapes at all.
            var needsEscape: UInt8 = 0
            for byte in bytes {
                needsEscape |= (byte < 0x20 ? 1 : 0) | (byte == 0x22 ? 1 : 0) | (byte == 0x5C ? 1 : 0)
            }
            guard needsEscape != 0 else { return total }
            for byte in bytes where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                switch byte {
                case 0x22, 0x5C, 0x08, 0x0C, 0x0A, 0x0D, 0x09: total &+= 1
                default: total &+= 5
                }
            }
            return total
        }
    }
}
