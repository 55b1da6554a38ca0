/// A contract's fast accept for the commonest valid input, prepared once per contract: a
/// path parameter its string schema admits, or a body that is one JSON object whose members
/// are all declared string members with valid values, written plainly (printable ASCII, no
/// escapes), as apps send them.
///
/// It reads such a body in one pass without a tree, a `Violation` array or a key `String`,
/// and declines (nil, false) at the first thing that is not plain: a backslash, a byte
/// outside printable ASCII, a number or a nested value, an unknown, forbidden or repeated
/// key, a value the member's ``StringSchema`` does not admit, a missing required member,
/// anything after the object, a contract with rules. Declining is always safe: the caller
/// then runs ``JSONReader`` and ``Contract/validate(_:)``, the one authority on what is wrong
/// and how to say it. So this never reports a violation; it only accepts what the general
/// path accepts without one, with the same string values (a differential test holds the two
/// together). Parsing needs a `maxDepth` of at least 1 for that, as every caller's has.
///
/// ```swift
/// let acceptor = PlainInputAcceptor(contract)
/// if let values = acceptor.values(of: body) { … } else { /* JSONReader.parse + contract.validate */ }
/// ```
package struct PlainInputAcceptor: Sendable {
    /// One declared member, as the scan compares it. A class: the scan calls into `schema`
    /// in place, where reading a struct out of the array would copy it (and retain each of
    /// its Strings) for every member of every body.
    private final class DeclaredMember: Sendable {
        let name: [UInt8]
        /// False when the member is not a plain string (forbidden, a number, an object…).
        let isString: Bool
        /// The member's schema when ``isString`` (not optional: reading a payload out of an
        /// optional copies it).
        let schema: StringSchema
        /// The schema's allowed values, as bytes, in ``StringSchema/allowedValues`` order.
        let allowedBytes: [[UInt8]]

        init(name: [UInt8], schema: StringSchema?) {
            self.name = name
            self.isString = schema != nil
            self.schema = schema ?? StringSchema()
            self.allowedBytes = (schema?.allowedValues ?? []).map { Array($0.utf8) }
        }
    }

    private let members: [DeclaredMember]
    private let requiredMask: UInt64
    private let parameter: StringSchema?

    /// Prepares the checks of `contract`; one with rules accepts nothing here.
    package init(_ contract: Contract) {
        var members: [DeclaredMember] = []
        var requiredMask: UInt64 = 0
        var parameter: StringSchema?
        if contract.rules.isEmpty {
            switch contract.schema.kind {
            case .string(let string):
                parameter = string
            case .object(let object) where object.members.count <= UInt64.bitWidth:
                for (index, member) in object.members.enumerated() {
                    var schema: StringSchema?
                    if case .string(let string) = member.schema.kind { schema = string }
                    members.append(DeclaredMember(name: Array(member.name.utf8), schema: schema))
                    if member.isRequired { requiredMask |= 1 << UInt64(index) }
                }
            default:
                break
            }
        }
        self.members = members
        self.requiredMask = requiredMask
        self.parameter = parameter
    }

    /// The index of the declared member called `name` (its ``ObjectSchema/members`` index):
    /// where ``PlainStringValues`` holds its value.
    package func memberIndex(named name: String) -> Int? {
        var name = name
        return name.withUTF8 { memberIndex(of: $0) }
    }

    /// True when the contract's string schema admits `value` as a path parameter, i.e.
    /// ``Contract/validate(pathParameter:)`` returns no violation; false means "ask it".
    package func admits(pathParameter value: String) -> Bool {
        parameter?.admits(value) ?? false
    }

    /// The declared members' values of a plain document the contract accepts without any
    /// violation, or nil when `body` is anything else (then parse and validate it).
    package func values(of body: [UInt8]) -> PlainStringValues? {
        guard !members.isEmpty else { return nil }
        return body.withUnsafeBufferPointer { bytes in
            var scanner = PlainJSONScanner(bytes)
            return scan(&scanner)
        }
    }

    private func scan(_ scanner: inout PlainJSONScanner) -> PlainStringValues? {
        var values = PlainStringValues(count: members.count)
        scanner.skipWhitespace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        scanner.skipWhitespace()
        while true {
            guard let key = scanner.plainString(), let index = memberIndex(of: key) else { return nil }
            let bit: UInt64 = 1 << UInt64(index)
            let member = members[index]
            guard values.present & bit == 0, member.isString else { return nil }
            scanner.skipWhitespace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipWhitespace()
            guard let text = scanner.plainString() else { return nil }
            // An allowed value is taken as declared, not built again from the bytes.
            let value = Self.allowedValue(text, of: member).flatMap { member.schema.allowedValues?[$0] }
                ?? String(decoding: text, as: UTF8.self)
            guard member.schema.admits(value) else { return nil }
            values.values[index] = value
            values.present |= bit
            scanner.skipWhitespace()
            if scanner.take(UInt8(ascii: ",")) {
                scanner.skipWhitespace()
                continue
            }
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            break
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd, values.present & requiredMask == requiredMask else { return nil }
        return values
    }

    private func memberIndex(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        for index in members.indices where Self.equal(members[index].name, key) { return index }
        return nil
    }

    /// The index of `text` among `member`'s allowed values.
    private static func allowedValue(_ text: UnsafeBufferPointer<UInt8>, of member: DeclaredMember) -> Int? {
        for index in member.allowedBytes.indices where equal(member.allowedBytes[index], text) { return index }
        return nil
    }

    private static func equal(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == bytes.count else { return false }
        return name.withUnsafeBufferPointer { name in
            for offset in 0..<name.count where name[offset] != bytes[offset] { return false }
            return true
        }
    }
}

/// What ``PlainInputAcceptor/values(of:)`` read: each declared member's string, by index.
package struct PlainStringValues: Sendable {
    fileprivate var values: [String]
    /// Bit `i` set when declared member `i` was present.
    fileprivate var present: UInt64 = 0

    fileprivate init(count: Int) {
        // Appended one by one: `Array(repeating:count:)` runs unspecialised here.
        values = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append("") }
    }

    /// The value of the declared member at `index`, nil when it was absent.
    package subscript(index: Int) -> String? {
        guard index >= 0, index < values.count, present & (1 << UInt64(index)) != 0 else { return nil }
        return values[index]
    }
}

/// The bytes of a plain JSON object, read with no escapes and no non-ASCII.
private struct PlainJSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index &+= 1
            default: return
            }
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index &+= 1
        return true
    }

    /// The content of the string at `index` when it is plain (0x20–0x7F, no backslash),
    /// moving past its closing quote; nil otherwise.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        index = JSONParser.endOfPlainASCII(bytes, from: index)
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index &+= 1
                return UnsafeBufferPointer(rebasing: bytes[start..<(index &- 1)])
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index &+= 1
        }
        return nil
    }
}
