/// Strings: a fast path that slices the buffer when there are no escapes, a slow path that
/// decodes escapes into a reused scratch buffer, and strict UTF-8 validation for both.
extension JSONParser {
    /// Reads a string whose opening quote is at `index`; leaves `index` after the closing quote.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        index &+= 1
        let start = index
        while true {
            skipPlainASCII()
            // Byte by byte up to the byte that stopped the word scan; back to words after
            // a multi-byte character.
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                    index &+= 1
                    return text
                }
                if byte == UInt8(ascii: "\\") {
                    return try parseEscapedString(from: start)
                }
                if byte < 0x20 { throw controlCharacterError(byte) }
                if byte < 0x80 {
                    index &+= 1
                } else {
                    try skipUTF8Sequence()
                    break
                }
            }
            if index >= end { throw unterminatedStringError() }
        }
    }

    /// Reads an object key whose opening quote is at `index`: a plain ASCII key spelled like
    /// a member of a v1 schema is that member's name (no new String, no UTF-8 check), any
    /// other goes through ``parseString()``. Same result and same position afterwards.
    mutating func parseKey() throws(JSONSyntaxError) -> String {
        let start = index &+ 1
        var stop = start
        var hash = KnownKeys.seed
        let limit = min(end, start &+ KnownKeys.longest &+ 1)
        while stop < limit {
            let byte = bytes[stop]
            if byte == UInt8(ascii: "\"") { break }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return try parseString() }
            hash = KnownKeys.hash(hash, byte)
            stop &+= 1
        }
        guard stop < limit, let key = knownKeys.key(UnsafeBufferPointer(rebasing: bytes[start..<stop]), hash: hash) else {
            return try parseString()
        }
        index = stop &+ 1
        return key
    }

    /// Skips 8 bytes at a time while none is a quote, a backslash, a control character or
    /// non-ASCII (exact SWAR tests: no false negatives; any hit falls back to the byte loop).
    @inline(__always)
    private mutating func skipPlainASCII() {
        index = Self.endOfPlainASCII(bytes, from: index)
    }

    /// Where the 16-byte blocks, then 8-byte words, from `start` first hold a quote, a backslash, a control
    /// character or non-ASCII (that byte: ``SWAR/firstSpecial(_:)`` is exact), or fewer than
    /// 8 bytes remain: the byte loop takes over there.
    @inline(__always)
    static func endOfPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var index = start
        while bytes.count &- index >= 16 {
            let offset = SWAR.firstSpecial16(SWAR.load16(base, index))
            if offset < 16 { return index &+ offset }
            index &+= 16
        }
        while bytes.count &- index >= 8 {
            let offset = SWAR.firstSpecial(SWAR.load(base, index))
            if offset < 8 { return index &+ offset }
            index &+= 8
        }
        return index
    }

    /// The slow path: `index` is at the first backslash; `start` is after the opening quote.
    private mutating func parseEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
        scratch.removeAll(keepingCapacity: true)
        var runStart = start
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index &+= 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                try appendEscape()
                runStart = index
                continue
            }
            if byte < 0x20 { throw controlCharacterError(byte) }
            if byte < 0x80 {
                index &+= 1
            } else {
                try skipUTF8Sequence()
            }
        }
        throw unterminatedStringError()
    }

    /// Decodes the escape at `index` (a backslash) into `scratch` and moves past it.
    private mutating func appendEscape() throws(JSONSyntaxError) {
        let escapeStart = position
        guard let letter = byte(at: index &+ 1) else {
            index &+= 1
            throw unterminatedStringError()
        }
        let decoded: UInt8
        switch letter {
        case UInt8(ascii: "\""): decoded = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): decoded = UInt8(ascii: "\\")
        case UInt8(ascii: "/"): decoded = UInt8(ascii: "/")
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            try appendUnicodeEscape(at: escapeStart)
            return
        default:
            let found = letter < 0x80 && letter >= 0x20 ? "'\\\(Character(Unicode.Scalar(letter)))'" : "'\\' followed by \(describeFound(at: index &+ 1))"
            throw JSONSyntaxError(.invalidEscape, at: escapeStart,
                                  "invalid escape in string: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX, found \(found)")
        }
        scratch.append(decoded)
        index &+= 2
    }

    /// Decodes `\uXXXX` (and its low-surrogate partner when it is a high surrogate).
    private mutating func appendUnicodeEscape(at escapeStart: SourcePosition) throws(JSONSyntaxError) {
        let unit = try readHex4(at: index &+ 2, escapeStart: escapeStart)
        index &+= 6
        var scalarValue = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            guard byte(at: index) == UInt8(ascii: "\\"), byte(at: index &+ 1) == UInt8(ascii: "u") else {
                throw JSONSyntaxError(.loneSurrogate, at: escapeStart,
                                      "lone high surrogate \\u\(Self.hex4(unit)) in string: expected a low surrogate escape \\uDC00–\\uDFFF after it, found \(describeFound())")
            }
            let lowStart = position
            let low = try readHex4(at: index &+ 2, escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONSyntaxError(.loneSurrogate, at: escapeStart,
                                      "lone high surrogate \\u\(Self.hex4(unit)) in string: expected a low surrogate escape \\uDC00–\\uDFFF after it, found \\u\(Self.hex4(low))")
            }
            index &+= 6
            scalarValue = 0x10000 &+ ((UInt32(unit) &- 0xD800) << 10) &+ (UInt32(low) &- 0xDC00)
        case 0xDC00...0xDFFF:
            throw JSONSyntaxError(.loneSurrogate, at: escapeStart,
                                  "lone low surrogate \\u\(Self.hex4(unit)) in string: expected a high surrogate \\uD800–\\uDBFF before it")
        default:
            break
        }
        guard let scalar = Unicode.Scalar(scalarValue) else {
            throw JSONSyntaxError(.loneSurrogate, at: escapeStart, "invalid \\u escape in string")
        }
        appendUTF8(scalar.value)
    }

    private mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case 0..<0x80:
            scratch.append(UInt8(truncatingIfNeeded: value))
        case 0x80..<0x800:
            scratch.append(0xC0 | UInt8(truncatingIfNeeded: value >> 6))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
        case 0x800..<0x10000:
            scratch.append(0xE0 | UInt8(truncatingIfNeeded: value >> 12))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
        default:
            scratch.append(0xF0 | UInt8(truncatingIfNeeded: value >> 18))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (value >> 12) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: (value >> 6) & 0x3F))
            scratch.append(0x80 | UInt8(truncatingIfNeeded: value & 0x3F))
        }
    }

    private func readHex4(at offset: Int, escapeStart: SourcePosition) throws(JSONSyntaxError) -> UInt16 {
        var value: UInt16 = 0
        for step in 0..<4 {
            let digit: UInt16
            switch byte(at: offset &+ step) {
            case let byte? where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"): digit = UInt16(byte &- UInt8(ascii: "0"))
            case let byte? where byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"): digit = UInt16(byte &- UInt8(ascii: "a") &+ 10)
            case let byte? where byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"): digit = UInt16(byte &- UInt8(ascii: "A") &+ 10)
            default:
                throw JSONSyntaxError(.invalidEscape, at: escapeStart,
                                      "invalid \\u escape in string: expected 4 hex digits after \\u, found \(describeFound(at: offset &+ step))")
            }
            value = value &<< 4 | digit
        }
        return value
    }

    static func hex4(_ unit: UInt16) -> String {
        let hex = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 &- hex.count)) + hex
    }

    private func controlCharacterError(_ byte: UInt8) -> JSONSyntaxError {
        let escape: String
        switch byte {
        case 0x0A: escape = "\\n"
        case 0x0D: escape = "\\r"
        case 0x09: escape = "\\t"
        case 0x08: escape = "\\b"
        case 0x0C: escape = "\\f"
        default: escape = "\\u00" + String(Self.hexByte(byte).dropFirst(2))
        }
        return JSONSyntaxError(.controlCharacter, at: position,
                               "unescaped control character \(Self.scalarName(UInt32(byte))) in string: expected it written as \(escape)")
    }

    private func unterminatedStringError() -> JSONSyntaxError {
        JSONSyntaxError(.unterminatedString, at: position, "unterminated string: expected a closing '\"', found end of input")
    }

    // MARK: UTF-8

    /// Validates the multi-byte sequence at `index` and moves past it, counting one column.
    @inline(__always)
    mutating func skipUTF8Sequence() throws(JSONSyntaxError) {
        switch utf8SequenceLength(at: index) {
        case .success(let length):
            index &+= length
            nonColumnBytes &+= length &- 1
        case .failure(let error):
            throw error
        }
    }

    /// The length of the well-formed UTF-8 sequence starting at `offset` (lead byte ≥ 0x80),
    /// or why it is ill-formed (Unicode Table 3-7).
    func utf8SequenceLength(at offset: Int) -> Result<Int, JSONSyntaxError> {
        guard let lead = byte(at: offset) else { return .success(0) }
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        case 0x80...0xBF:
            return .failure(utf8Error("unexpected continuation byte \(Self.hexByte(lead))"))
        case 0xC0, 0xC1:
            return .failure(utf8Error("overlong encoding (lead byte \(Self.hexByte(lead)))"))
        default:
            return .failure(utf8Error("byte \(Self.hexByte(lead)) never appears in UTF-8 (it would encode a code point above U+10FFFF)"))
        }
        guard let second = byte(at: offset &+ 1), second >= 0x80 && second <= 0xBF else {
            return .failure(truncated(lead: lead, expected: length &- 1, at: offset &+ 1))
        }
        if !secondRange.contains(second) {
            switch lead {
            case 0xE0, 0xF0: return .failure(utf8Error("overlong encoding (\(Self.hexByte(lead)) \(Self.hexByte(second)))"))
            case 0xED: return .failure(utf8Error("UTF-8-encoded surrogate (\(Self.hexByte(lead)) \(Self.hexByte(second))); surrogates are not characters"))
            default: return .failure(utf8Error("code point above U+10FFFF (\(Self.hexByte(lead)) \(Self.hexByte(second)))"))
            }
        }
        var next = 2
        while next < length {
            guard let byte = byte(at: offset &+ next), byte >= 0x80 && byte <= 0xBF else {
                return .failure(truncated(lead: lead, expected: length &- 1, at: offset &+ next))
            }
            next &+= 1
        }
        return .success(length)
    }

    private func utf8Error(_ detail: String) -> JSONSyntaxError {
        JSONSyntaxError(.invalidUTF8, at: position, "invalid UTF-8 in string: \(detail); expected well-formed UTF-8")
    }

    private func truncated(lead: UInt8, expected: Int, at offset: Int) -> JSONSyntaxError {
        let found = byte(at: offset).map { Self.hexByte($0) } ?? "end of input"
        return utf8Error("truncated sequence: lead byte \(Self.hexByte(lead)) needs \(expected) continuation byte\(expected == 1 ? "" : "s") (0x80–0xBF), found \(found)")
    }

    /// The scalar encoded at `offset` if the bytes there are well-formed UTF-8, for messages.
    func decodeScalar(at offset: Int) -> (Unicode.Scalar, Int)? {
        guard case .success(let length) = utf8SequenceLength(at: offset), length > 0 else { return nil }
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(rebasing: bytes[offset..<(offset &+ length)]).makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
        return nil
    }
}

/// Known object keys (the v1 schemas' member names) in a small hash table (FNV-1a of the
/// UTF-8 bytes, linear probing), for ``JSONParser/parseKey()``.
struct KnownKeys: Sendable {
    /// Keys longer than this are always read as strings.
    static let longest = 32
    /// Every name's bytes, one after another.
    private let storage: [UInt8]
    private let names: [(offset: Int, count: Int, key: String)]
    /// Index into `names`, or -1; a power of two at least twice the names.
    private let slots: [Int]

    /// The member names of every v1 schema (a test holds the list to the schemas). Written
    /// out rather than read from ``ContractSet/v1``, so reading JSON never builds contracts.
    static let v1Names = [
        "accountId", "action", "alert", "appVersion", "aps", "badge", "body", "category", "content-available",
        "critical", "environment", "filter-criteria", "imageUrl", "interruption-level", "launch-image", "loc-args",
        "loc-key", "mutable-content", "name", "notificationId", "orderVersion", "platform", "publicKey", "reason",
        "relevance-score", "route", "secret", "Simulator Target Bundle", "sound", "subtitle", "subtitle-loc-args",
        "subtitle-loc-key", "target-content-id", "thread-id", "timestamp", "title", "title-loc-args", "title-loc-key",
        "volume",
        // live-activity-payload
        "attributes", "attributes-type", "content-state", "dismissal-date", "eta", "event", "input-push-channel", "input-push-token",
        "itemsPicked", "itemsTotal", "orderId", "stage", "stale-date",
        // apns-channel
        "message-storage-policy", "push-type",
        // live-activity-registration, push-to-start-registration
        "pushToken", "pushToStartToken",
    ]

    static let v1 = KnownKeys(names: v1Names)

    init(names given: [String]) {
        var storage: [UInt8] = [], names: [(offset: Int, count: Int, key: String)] = [], seen: Set<String> = []
        for name in given where name.utf8.count <= Self.longest && seen.insert(name).inserted {
            names.append((storage.count, name.utf8.count, name))
            storage.append(contentsOf: name.utf8)
        }
        var size = 16
        while size < names.count * 2 { size *= 2 }
        var slots = [Int](repeating: -1, count: size)
        for (index, name) in names.enumerated() {
            var slot = Int(truncatingIfNeeded: storage[name.offset..<(name.offset + name.count)].reduce(Self.seed, Self.hash)) & (size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = index
        }
        self.storage = storage
        self.names = names
        self.slots = slots
    }

    /// FNV-1a, one byte at a time, from ``seed``.
    static let seed: UInt32 = 2_166_136_261
    @inline(__always)
    static func hash(_ hash: UInt32, _ byte: UInt8) -> UInt32 {
        (hash ^ UInt32(byte)) &* 16_777_619
    }

    /// The known key spelled by `bytes` (whose ``hash(_:_:)`` from ``seed`` is `hash`), if any.
    @inline(__always)
    func key(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt32) -> String? {
        guard !names.isEmpty else { return nil }
        let mask = slots.count &- 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let index = slots[slot]
            guard index >= 0 else { return nil }
            if names[index].count == bytes.count {
                let offset = names[index].offset
                let equal = storage.withUnsafeBufferPointer {
                    FormatMatchers.memoryEqual(UnsafeBufferPointer(rebasing: $0[offset..<(offset &+ bytes.count)]), bytes, bytes.count)
                }
                if equal { return names[index].key }
            }
            slot = (slot &+ 1) & mask
        }
    }

    /// The known key spelled by `bytes`, if any (hashing them first).
    func key(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        key(bytes, hash: bytes.reduce(Self.seed, Self.hash))
    }
}
