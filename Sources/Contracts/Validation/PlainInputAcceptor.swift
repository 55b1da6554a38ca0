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
/// let accepted = acceptor.withValues(of: body) { member, value in … }
/// if !accepted { /* JSONReader.parse + contract.validate */ }
/// ```
package struct PlainInputAcceptor: Sendable {
    private let members: [StringCheck]
    /// The same checks, read without reference counting (`members` keeps them alive): a
    /// scan reads one for each member of a body.
    private let unretained: [Unmanaged<StringCheck>]
    private let requiredMask: UInt64
    private let parameter: StringCheck?

    /// Prepares the checks of `contract`; one with rules accepts nothing here.
    package init(_ contract: Contract) {
        var members: [StringCheck] = []
        var requiredMask: UInt64 = 0
        var parameter: StringCheck?
        if contract.rules.isEmpty {
            switch contract.schema.kind {
            case .string(let string):
                parameter = StringCheck(name: [], schema: string)
            case .object(let object) where object.members.count <= UInt64.bitWidth:
                for (index, member) in object.members.enumerated() {
                    var schema: StringSchema?
                    if case .string(let string) = member.schema.kind { schema = string }
                    members.append(StringCheck(name: Array(member.name.utf8), schema: schema))
                    if member.isRequired { requiredMask |= 1 << UInt64(index) }
                }
            default:
                break
            }
        }
        self.members = members
        unretained = members.map { Unmanaged.passUnretained($0) }
        self.requiredMask = requiredMask
        self.parameter = parameter
    }

    /// The index of the declared member called `name` (its ``ObjectSchema/members`` index):
    /// the `member` that ``withValues(of:_:)`` gives with its value.
    package func memberIndex(named name: String) -> Int? {
        var name = name
        return name.withUTF8 { memberIndex(of: $0, after: -1) }
    }

    /// True when the contract's string schema admits `value` as a path parameter, i.e.
    /// ``Contract/validate(pathParameter:)`` returns no violation; false means "ask it".
    package func admits(pathParameter value: String) -> Bool {
        guard let parameter else { return false }
        var value = value
        return value.withUTF8 { parameter.admits($0) }
    }

    /// ``admits(pathParameter:)`` for the parameter's UTF-8 bytes (valid UTF-8, e.g. a slice
    /// of a String's cut at ASCII bytes), without making a String when they are ASCII: a
    /// handler checks the path parameter of every request.
    package func admits(pathParameterBytes bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        parameter?.admits(bytes) ?? false
    }

    /// ``admits(pathParameterBytes:)`` for `count` bytes the caller found to be hex digits
    /// (`0-9 a-f A-F`, e.g. while packing them): for a parameter whose schema is the
    /// `hex-bytes` format and length bounds only, the answer needs the count alone; nil for
    /// any other schema (then ask ``admits(pathParameterBytes:)``). A handler that reads a
    /// device token's digits anyway does not read them twice.
    package func admits(hexDigitCount count: Int) -> Bool? {
        guard let parameter, parameter.format == .hexBytes, !parameter.hasAllowedValues, !parameter.needsString else { return nil }
        return count > 0 && count % 2 == 0 && count >= parameter.minLength && count <= parameter.maxLength
    }

    /// When `body` is a plain document the contract accepts without any violation, calls
    /// `value` with each present member's index and value (in member order, once the whole
    /// body is checked) and returns true; otherwise returns false without calling it (then
    /// parse and validate it).
    package func withValues(of body: UnsafeBufferPointer<UInt8>, _ value: (_ member: Int, _ value: String) -> Void) -> Bool {
        withFound(in: body) { index, found in
            // An allowed value is taken as declared, not built again from the bytes.
            value(index, found.allowed >= 0
                ? members[index].allowedValues[found.allowed]
                : String(decoding: UnsafeBufferPointer(rebasing: body[found.start..<found.end]), as: UTF8.self))
        }
    }

    /// ``withValues(of:_:)`` without making a String: each value as where it sits in `body`,
    /// for a caller that may need no String of it (a fake that already holds the same value
    /// compares bytes).
    package func withPlainValues(of body: UnsafeBufferPointer<UInt8>, _ value: (_ member: Int, _ value: PlainValue) -> Void) -> Bool {
        withFound(in: body) { index, found in value(index, PlainValue(range: found.start..<found.end)) }
    }

    /// Scans `body`; when it is plain and valid, calls `value` with each present member's
    /// index and place, in member order, and returns true.
    private func withFound(in body: UnsafeBufferPointer<UInt8>, _ value: (Int, Found) -> Void) -> Bool {
        guard !members.isEmpty else { return false }
        // Where each member's value sits, on the stack: nothing is allocated, and nothing is
        // reported before the whole body is checked.
        return withUnsafeTemporaryAllocation(of: Found.self, capacity: members.count) { found in
            guard var scanner = PlainJSONScanner(body), let present = scan(&scanner, into: found) else { return false }
            var remaining = present
            while remaining != 0 {
                let index = remaining.trailingZeroBitCount
                value(index, found[index])
                remaining &= remaining &- 1
            }
            return true
        }
    }

    /// Where a member's value sits in the body, or which allowed value it is (`allowed` ≥ 0).
    private struct Found {
        var start: Int
        var end: Int
        var allowed: Int
    }

    /// The present members' bits, or nil when the body is not plain and valid.
    private func scan(_ scanner: inout PlainJSONScanner, into found: UnsafeMutableBufferPointer<Found>) -> UInt64? {
        var present: UInt64 = 0
        var previous = -1
        scanner.skipWhitespace()
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        scanner.skipWhitespace()
        while true {
            // The member after the previous one (the first that memberIndex would try) when
            // the key is its name, quoted: what a body in the declared order has. Otherwise a
            // key is read to its first quote and found among the names. Only a plain name is
            // taken (a key equal to it is plain; any other key is declined either way).
            let next = previous &+ 1 == members.count ? 0 : previous &+ 1
            let index: Int
            if unretained[next]._withUnsafeGuaranteedRef({ $0.nameIsPlain && scanner.take($0.quotedName) }) {
                index = next
            } else {
                guard let key = scanner.stringContent(), let found = memberIndex(of: key, after: previous),
                      unretained[found]._withUnsafeGuaranteedRef({ $0.nameIsPlain }) else { return nil }
                index = found
            }
            previous = index
            let bit: UInt64 = 1 << UInt64(index)
            guard present & bit == 0, unretained[index]._withUnsafeGuaranteedRef({ $0.isString }) else { return nil }
            scanner.skipWhitespace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipWhitespace()
            guard let text = scanner.stringContent() else { return nil }
            // Plain text is ASCII (0x20-0x7F): the check runs on its bytes. A check that admits
            // plain text only (a format, plain allowed values) says no to anything else, so
            // the text is not scanned for plainness first (a public key is read once, not twice).
            let admitted = unretained[index]._withUnsafeGuaranteedRef { check in
                check.admitsPlainOnly || PlainJSONScanner.isPlain(text) ? check.admitsASCII(text) : nil
            }
            guard let allowed = admitted else { return nil }
            let start = scanner.index &- 1 &- text.count
            found[index] = Found(start: start, end: start &+ text.count, allowed: allowed)
            present |= bit
            scanner.skipWhitespace()
            if scanner.take(UInt8(ascii: ",")) {
                scanner.skipWhitespace()
                continue
            }
            guard scanner.take(UInt8(ascii: "}")) else { return nil }
            break
        }
        scanner.skipWhitespace()
        guard scanner.isAtEnd, present & requiredMask == requiredMask else { return nil }
        return present
    }

    /// The member called `key`, tried from the one after `previous` on: a body usually lists
    /// the members in the order the contract declares them, so the first try finds it.
    private func memberIndex(of key: UnsafeBufferPointer<UInt8>, after previous: Int) -> Int? {
        let count = members.count
        var index = previous &+ 1
        for _ in 0..<count {
            if index == count { index = 0 }
            if Self.equal(members[index].name, key) { return index }
            index &+= 1
        }
        return nil
    }

    fileprivate static func equal(_ name: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.count == bytes.count else { return false }
        return name.withUnsafeBufferPointer { SWAR.equal($0, bytes) }
    }
}

/// A value ``PlainInputAcceptor/withPlainValues(of:_:)`` read: where its bytes sit in the
/// body. They are plain (printable ASCII, no escapes), so they are the value itself.
package struct PlainValue: Sendable, Hashable {
    package var range: Range<Int>

    package init(range: Range<Int>) {
        self.range = range
    }

    /// The value as a String; `body` is the one it was read from.
    package func string(in body: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: body[range]), as: UTF8.self)
    }

    /// Whether the value equals `text` as Strings compare (`string(in: body) == text`),
    /// without making a String of it.
    package func equals(_ text: String, in body: UnsafeBufferPointer<UInt8>) -> Bool {
        let value = UnsafeBufferPointer(rebasing: body[range])
        let equal: Bool?? = text.utf8.withContiguousStorageIfAvailable { bytes in
            if SWAR.equal(bytes, value) { return true }
            // Both ASCII and different bytes: different Strings. Otherwise Unicode decides (a
            // non-ASCII String can equal ASCII text: U+212A KELVIN SIGN is "K").
            return SWAR.isASCII(bytes) ? false : nil
        }
        if let equal = equal ?? nil { return equal }
        return string(in: body) == text
    }
}

/// A member's (or a path parameter's) ``StringSchema`` check, prepared to run on the bytes
/// of ASCII text: the same answer as ``StringSchema/admits(_:)`` (a differential test holds
/// them together), without making a String. Non-ASCII text, and a format this does not know,
/// go to the schema itself. A class, so a scan reads it in place: a struct read out of the
/// members would be copied (retaining each of its arrays and Strings) for every value.
private final class StringCheck: Sendable {
    /// The member's name (empty for a path parameter).
    let name: [UInt8]
    /// The name between quotes, as a key written plainly is.
    let quotedName: [UInt8]
    /// True when the name is plain string text (``PlainJSONScanner/isPlain(_:)``): a key
    /// equal to it is plain too.
    let nameIsPlain: Bool
    /// False when the member is not a plain string (forbidden, a number, an object…).
    let isString: Bool
    let schema: StringSchema
    /// The schema's allowed values (empty when it has none).
    let allowedValues: [String]
    /// Whether the schema has allowed values (read on every value: a Bool, not its array).
    let hasAllowedValues: Bool
    /// The schema's length bounds in bytes of ASCII text (0 and `Int.max` when it has none).
    let minLength: Int
    let maxLength: Int
    /// The allowed values as bytes, when every one is ASCII; nil otherwise (a non-ASCII
    /// value may equal ASCII text as a String, e.g. U+212A KELVIN SIGN and "K").
    let allowedBytes: [[UInt8]]?
    /// Whether the schema admits each allowed value (its length and format).
    let allowedAdmitted: [Bool]
    /// The schema's format, when it is one of those checked here on bytes.
    let format: KnownFormat?
    /// True when the schema's format is one this cannot check on bytes.
    let needsString: Bool
    /// True when ``admitsASCII(_:)`` admits plain text only, whatever bytes it is given: the
    /// schema has allowed values, all plain, or a format checked here (hex digits, an
    /// identifier, a version, base64: all plain). Then a value is not checked for plainness
    /// before it: text that is not plain is not admitted (non-ASCII bytes equal no ASCII
    /// value and match no format).
    let admitsPlainOnly: Bool

    /// The formats checked on bytes: the same strings as their matchers accept (a format is
    /// known by being equal to one of these, i.e. the same name and pattern, and a matcher
    /// accepts what its pattern does).
    enum KnownFormat: Sendable {
        case hexBytes, identifier, semver, base64, base64P256PublicKey
    }

    init(name: [UInt8], schema: StringSchema?) {
        self.name = name
        quotedName = [UInt8(ascii: "\"")] + name + [UInt8(ascii: "\"")]
        isString = schema != nil
        let schema = schema ?? StringSchema()
        self.schema = schema
        let allowed = schema.allowedValues ?? []
        allowedValues = allowed
        hasAllowedValues = schema.allowedValues != nil
        minLength = schema.minLength ?? 0
        maxLength = schema.maxLength ?? Int.max
        allowedBytes = schema.allowedValues.flatMap { values in
            values.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 } } ? values.map { Array($0.utf8) } : nil
        }
        allowedAdmitted = allowed.map(schema.admits)
        let known: [(StringFormat, KnownFormat)] = [
            (.hexBytes, .hexBytes), (.identifier, .identifier), (.semver, .semver), (.base64, .base64),
            (.base64P256PublicKey, .base64P256PublicKey),
        ]
        format = schema.format.flatMap { format in known.first { $0.0 == format }?.1 }
        needsString = schema.format != nil && format == nil
        nameIsPlain = name.withUnsafeBufferPointer(PlainJSONScanner.isPlain)
        if schema.allowedValues != nil {
            admitsPlainOnly = allowedBytes?.allSatisfy { $0.withUnsafeBufferPointer(PlainJSONScanner.isPlain) } ?? false
        } else {
            admitsPlainOnly = !needsString && format != nil
        }
    }

    /// ``StringSchema/admits(_:)`` for text given as valid UTF-8.
    func admits(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        // A format checked here matches ASCII only, and the schema then says no to anything
        // else: no need to look for non-ASCII first.
        if format != nil, !hasAllowedValues { return admitsASCII(text) != nil }
        guard SWAR.isASCII(text) else { return schema.admits(String(decoding: text, as: UTF8.self)) }
        return admitsASCII(text) != nil
    }

    /// For ASCII text: nil when the schema does not admit it; otherwise the index of the
    /// allowed value it is, or -1 when the schema has no allowed values (or only non-ASCII
    /// ones: then equal as a String is not equal as bytes, and the value is the text's).
    func admitsASCII(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        if hasAllowedValues {
            guard let allowedBytes else {
                return schema.admits(String(decoding: text, as: UTF8.self)) ? -1 : nil
            }
            for index in allowedBytes.indices where PlainInputAcceptor.equal(allowedBytes[index], text) {
                return allowedAdmitted[index] ? index : nil
            }
            return nil
        }
        if needsString { return schema.admits(String(decoding: text, as: UTF8.self)) ? -1 : nil }
        // ASCII: a byte is a Unicode scalar.
        guard text.count >= minLength, text.count <= maxLength else { return nil }
        if let format, !Self.matches(text, format) { return nil }
        return -1
    }

    /// True when ASCII `text` has `format`, as its ``StringFormat`` matcher says.
    static func matches(_ text: UnsafeBufferPointer<UInt8>, _ format: KnownFormat) -> Bool {
        switch format {
        case .hexBytes:
            return text.count % 2 == 0 && !text.isEmpty && SWAR.allHexDigits(text)
        case .identifier:
            guard !text.isEmpty else { return false }
            for byte in text where !FormatMatchers.isIdentifierByte(byte) { return false }
            return true
        case .semver:
            return isSemver(text)
        case .base64:
            return SWAR.isPlainBase64(text)
        case .base64P256PublicKey:
            guard text.count == 88, SWAR.isPlainBase64(text) else { return false }
            // First byte 0x04; the last data character carries 2 padding bits that are zero.
            guard text[0] == UInt8(ascii: "B"), text[1] >= UInt8(ascii: "A"), text[1] <= UInt8(ascii: "P"),
                  text[87] == UInt8(ascii: "="), text[86] != UInt8(ascii: "=") else { return false }
            switch text[86] {
            case UInt8(ascii: "A"), UInt8(ascii: "E"), UInt8(ascii: "I"), UInt8(ascii: "M"), UInt8(ascii: "Q"),
                 UInt8(ascii: "U"), UInt8(ascii: "Y"), UInt8(ascii: "c"), UInt8(ascii: "g"), UInt8(ascii: "k"),
                 UInt8(ascii: "o"), UInt8(ascii: "s"), UInt8(ascii: "w"), UInt8(ascii: "0"), UInt8(ascii: "4"),
                 UInt8(ascii: "8"):
                return true
            default:
                return false
            }
        }
    }

    /// `MAJOR.MINOR.PATCH`, each a number without a leading zero (``FormatMatchers/semverProblem(_:)``).
    static func isSemver(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var parts = 0
        var digits = 0
        var leadingZero = false
        for byte in text {
            if byte &- 0x30 < 10 {
                if digits == 1 && leadingZero { return false }
                if digits == 0 { leadingZero = byte == 0x30 }
                digits &+= 1
            } else if byte == 0x2E && digits > 0 && parts < 2 {
                parts &+= 1
                digits = 0
            } else {
                return false
            }
        }
        return parts == 2 && digits > 0
    }
}
