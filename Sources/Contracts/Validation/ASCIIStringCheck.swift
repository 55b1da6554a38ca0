/// A ``StringSchema`` compiled for ASCII bytes (a scalar a byte), as ``FlatJSON`` reads
/// strings: the bounds as two integers, the allowed values as ``ByteKeys``, and the formats
/// payloads use most (base64, identifier, https URL) checked on the bytes. A `String` is made
/// only for another format, or base64 that is not plainly padded.
///
/// ``admits(_:readable:base64Checked:)`` answers as ``StringSchema/admits(_:)`` on the same
/// text (the tests hold the two together). A class, so that a schema walk calls it without
/// copying the schema it keeps.
final class ASCIIStringCheck: Sendable {
    /// The formats checked on bytes.
    enum ByteFormat: UInt8, Sendable { case none, base64, identifier, httpsURL, other }

    let minimumLength: Int
    let maximumLength: Int
    let allowedValues: ByteKeys?
    let byteFormat: ByteFormat
    /// The schema, for a format checked on a `String` (``ByteFormat/other``, base64 not plain).
    let schema: StringSchema

    init(_ schema: StringSchema) {
        self.schema = schema
        minimumLength = schema.minLength ?? 0
        maximumLength = schema.maxLength ?? Int.max
        allowedValues = schema.allowedValues.map(ByteKeys.init)
        switch schema.format {
        case nil: byteFormat = .none
        case .base64?: byteFormat = .base64
        case .identifier?: byteFormat = .identifier
        case .httpsURL?: byteFormat = .httpsURL
        default: byteFormat = .other
        }
    }

    /// True when the validator would report nothing about the ASCII `text`, from whose start
    /// `readable` bytes may be read, and whose first `base64Checked` bytes are known to be in
    /// the base64 alphabet.
    func admits(_ text: UnsafeBufferPointer<UInt8>, readable: Int = 0, base64Checked: Int = 0) -> Bool {
        guard text.count >= minimumLength, text.count <= maximumLength else { return false }
        // Equal bytes are equal strings; an allowed value equal only by canonical
        // equivalence (not ASCII) declines, which is safe.
        if allowedValues != nil, allowedValues?.index(of: text, readable: readable) == nil { return false }
        switch byteFormat {
        case .none:
            return true
        case .identifier:
            return !text.isEmpty && Self.allIdentifierBytes(text)
        case .httpsURL:
            // FormatMatchers.httpsURLProblem on bytes: the scheme, then the rest.
            return text.count >= 8 && Self.startsWithHTTPS(text) && FormatMatchers.httpsRestProblem(text) == nil
        case .base64:
            if SWAR.isPlainBase64(text, checked: base64Checked) { return true }
            return schema.format?.matches(String(decoding: text, as: UTF8.self)) ?? true
        case .other:
            return schema.format?.matches(String(decoding: text, as: UTF8.self)) ?? true
        }
    }

    /// Bits of `A-Z a-z 0-9 _ -` among bytes 0-63 and 64-127.
    private static let identifierLow: UInt64 = 0x03FF_2000_0000_0000
    private static let identifierHigh: UInt64 = 0x07FF_FFFE_87FF_FFFE

    /// Every byte is `A-Z a-z 0-9 _ -` (``FormatMatchers/isIdentifierByte(_:)``).
    @inline(__always)
    static func allIdentifierBytes(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var outside: UInt64 = 0
        for byte in text {
            let mask = byte < 64 ? identifierLow : identifierHigh
            outside |= ~(mask >> UInt64(byte & 63)) & 1 | UInt64(byte >> 7)
        }
        return outside == 0
    }

    /// The first 8 bytes are `https://` (`text` holds at least 8).
    @inline(__always)
    private static func startsWithHTTPS(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return false }
        return SWAR.load(base, 0) == 0x2F2F_3A73_7074_7468  // "https://" little-endian
    }
}

/// Short byte strings (declared member names, allowed values) stored one after another, each
/// found by its length and first bytes in one word (its head) before its bytes are compared:
/// a key read without a `String` (``FlatJSON``) is looked up without retaining an array per
/// name, in one probe of a small table when the heads hash apart.
struct ByteKeys: Sendable {
    private let bytes: [UInt8]
    private let starts: [Int]
    private let ends: [Int]
    /// Per key: its length in the low byte, its first 7 bytes above.
    private let heads: [UInt64]
    /// 64 slots, each -1 or the key whose head lands there by `(head &* multiplier) >> 58`;
    /// empty when no multiplier below gave every head its own slot (then a linear search).
    private let slots: [Int8]
    private let multiplier: UInt64

    init(_ strings: [String]) {
        var bytes: [UInt8] = [], starts: [Int] = [], ends: [Int] = [], heads: [UInt64] = []
        for string in strings {
            starts.append(bytes.count)
            let utf8 = Array(string.utf8)
            bytes += utf8
            ends.append(bytes.count)
            heads.append(utf8.withUnsafeBufferPointer { Self.head($0) })
        }
        self.bytes = bytes
        self.starts = starts
        self.ends = ends
        self.heads = heads
        (slots, multiplier) = Self.table(heads)
    }

    /// A slot table for `heads` and its multiplier, found among a fixed sequence of odd
    /// multipliers; none for more than 32 keys or two keys with one head.
    private static func table(_ heads: [UInt64]) -> (slots: [Int8], multiplier: UInt64) {
        guard heads.count <= 32, Set(heads).count == heads.count else { return ([], 0) }
        var multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<512 {
            var slots = [Int8](repeating: -1, count: 64)
            var apart = true
            for (index, head) in heads.enumerated() {
                let slot = Int(truncatingIfNeeded: (head &* multiplier) >> 58)
                if slots[slot] >= 0 { apart = false; break }
                slots[slot] = Int8(truncatingIfNeeded: index)
            }
            if apart { return (slots, multiplier) }
            multiplier = (multiplier &* 0x5851_F42D_4C95_7F2D &+ 0x1405_7B7E_F767_814F) | 1
        }
        return ([], 0)
    }

    /// The number of keys.
    var count: Int { heads.count }

    /// The length (low byte) and first 7 bytes of `key` in one word; `readable`: how many
    /// bytes from its start may be read (8 or more: one load).
    @inline(__always)
    static func head(_ key: UnsafeBufferPointer<UInt8>, readable: Int = 0) -> UInt64 {
        let length = UInt64(truncatingIfNeeded: key.count) & 0xFF
        if readable >= 8, let base = key.baseAddress {
            var word = SWAR.load(base, 0)
            if key.count < 8 { word &= (1 << UInt64(truncatingIfNeeded: key.count &* 8)) &- 1 }
            return word << 8 | length
        }
        var head = length
        var shift: UInt64 = 8
        for index in 0..<min(key.count, 7) {
            head |= UInt64(key[index]) << shift
            shift &+= 8
        }
        return head
    }

    /// The index of the key spelled `key`, if any; `readable` as in ``head(_:readable:)``.
    func index(of key: UnsafeBufferPointer<UInt8>, readable: Int = 0) -> Int? {
        index(of: key, head: Self.head(key, readable: readable))
    }

    /// The index of the key spelled `key`, whose ``head(_:readable:)`` is `head`, if any.
    func index(of key: UnsafeBufferPointer<UInt8>, head: UInt64) -> Int? {
        if !slots.isEmpty {
            let index = Int(slots[Int(truncatingIfNeeded: (head &* multiplier) >> 58)])
            guard index >= 0, heads[index] == head else { return nil }
            if key.count <= 7 { return index }
            return bytes.withUnsafeBufferPointer { bytes in
                SWAR.equal(UnsafeBufferPointer(rebasing: bytes[starts[index]..<ends[index]]), key)
            } ? index : nil
        }
        return heads.withUnsafeBufferPointer { heads -> Int? in
            for index in heads.indices where heads[index] == head {
                if key.count <= 7 { return index }
                let found = bytes.withUnsafeBufferPointer { bytes in
                    SWAR.equal(UnsafeBufferPointer(rebasing: bytes[starts[index]..<ends[index]]), key)
                }
                if found { return index }
            }
            return nil
        }
    }
}
