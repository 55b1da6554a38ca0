/// A plain JSON document read into one flat array of nodes, for a clean check without a
/// ``JSONNode`` tree: no `String`, member array or number box per value, so nothing to
/// release afterwards.
///
/// It reads only a strict subset of RFC 8259, the way payloads are written: strings of
/// ASCII without escapes, integers of at most 18 digits without fraction or exponent (no
/// `-0`), `true`, `false`, `null`, nesting at most ``maxDepth`` deep, at most ``maxNodes``
/// values and keys, no byte order mark.
/// Anything else makes `init` return nil, which is always safe: the caller then parses with
/// ``JSONReader``, the one authority on syntax, positions and messages. What it reads,
/// ``JSONReader`` reads to the same values (the tests hold the two together).
///
/// Nodes are in document order. An object's children follow it as key, value, key, value…;
/// an array's as its elements; ``FlatJSON/Node/next`` is the index after a node's subtree.
struct FlatJSON {
    /// One value, or one object key.
    struct Node {
        enum Kind: UInt8 { case null, bool, number, string, array, object }
        var kind: Kind
        /// `true`'s flag for a bool.
        var flag = false
        /// A string's first content byte (after the quote).
        var start = 0
        /// A string's closing quote.
        var end = 0
        /// The index of the node after this one's subtree.
        var next = 0
        /// Members of an object, elements of an array.
        var count = 0
        /// A number's value.
        var integer: Int64 = 0
        /// A string's leading content bytes found in the base64 alphabet while it was read
        /// (whole 16-byte blocks): ``SWAR/isPlainBase64(_:checked:)`` starts after them.
        var base64Checked = 0
    }

    /// The deepest nesting read (16 containers open at once); deeper input declines.
    static let maxDepth = 16

    /// The most nodes read (a payload has some dozens); a document with more declines.
    static let maxNodes = 256

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var nodes: [Node] = []
    /// While reading: the storage of ``nodes``, written up to `count` without a capacity or
    /// uniqueness check per node.
    private var storage = UnsafeMutableBufferPointer<Node>(start: nil, count: 0)
    private var count = 0

    /// Reads `bytes` whole, or nil when they are not plain JSON of the subset above.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var read = false
        nodes = [Node](unsafeUninitializedCapacity: Self.maxNodes) { buffer, initialized in
            storage = UnsafeMutableBufferPointer(rebasing: buffer[..<min(buffer.count, Self.maxNodes)])
            var index = skipSpace(0)
            read = readValue(&index, depth: 0) && skipSpace(index) == bytes.count
            initialized = read ? count : 0
        }
        storage = UnsafeMutableBufferPointer(start: nil, count: 0)
        guard read else { return nil }
    }

    /// Adds `node` after the others; false when ``maxNodes`` are read already.
    @inline(__always)
    private mutating func append(_ node: Node) -> Bool {
        guard count < storage.count else { return false }
        storage[count] = node
        count &+= 1
        return true
    }

    /// The content bytes of the string node at `index`.
    @inline(__always)
    func utf8(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[nodes[index].start..<nodes[index].end])
    }

    /// The string node at `index` as a `String` (ASCII: no allocation up to 15 bytes).
    @inline(__always)
    func string(_ index: Int) -> String {
        String(decoding: utf8(index), as: UTF8.self)
    }

    /// The bit of the node's JSON type in ``SchemaAdmission/acceptedTypes`` (as ``SchemaAdmission/typeBit(_:)``).
    @inline(__always)
    func typeBit(_ index: Int) -> UInt8 {
        1 << nodes[index].kind.rawValue
    }

    // MARK: Reading

    private func skipSpace(_ start: Int) -> Int {
        var index = start
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index &+= 1
            default: return index
            }
        }
        return index
    }

    private mutating func readValue(_ index: inout Int, depth: Int) -> Bool {
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return readString(&index)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return readContainer(&index, depth: depth)
        case UInt8(ascii: "t"):
            return readLiteral(&index, "true", Node(kind: .bool, flag: true))
        case UInt8(ascii: "f"):
            return readLiteral(&index, "false", Node(kind: .bool))
        case UInt8(ascii: "n"):
            return readLiteral(&index, "null", Node(kind: .null))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return readInteger(&index)
        default:
            return false
        }
    }

    /// A string whose opening quote is at `index`: plain ASCII up to the closing quote. It
    /// starts 16 bytes at a time while they are base64, which cannot end the string (a
    /// `secret` is most of a payload's bytes), noted in ``Node/base64Checked``; then it looks
    /// for the end.
    private mutating func readString(_ index: inout Int) -> Bool {
        let start = index &+ 1
        var at = start
        if let base = bytes.baseAddress { at = SWAR.endOfBase64Blocks(base, from: at, before: bytes.count) }
        let base64Checked = at &- start
        at = JSONParser.endOfPlainASCII(bytes, from: at)
        while at < bytes.count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                guard append(Node(kind: .string, start: start, end: at, next: count &+ 1, base64Checked: base64Checked)) else { return false }
                index = at &+ 1
                return true
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return false }
            at &+= 1
        }
        return false
    }

    private mutating func readContainer(_ index: inout Int, depth: Int) -> Bool {
        guard depth < Self.maxDepth else { return false }
        let isObject = bytes[index] == UInt8(ascii: "{")
        let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let at = count
        guard append(Node(kind: isObject ? .object : .array)) else { return false }
        index = skipSpace(index &+ 1)
        var members = 0
        if index < bytes.count, bytes[index] == closer {
            index &+= 1
        } else {
            while true {
                if isObject {
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), readString(&index) else { return false }
                    index = skipSpace(index)
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
                    index = skipSpace(index &+ 1)
                }
                guard readValue(&index, depth: depth &+ 1) else { return false }
                members &+= 1
                index = skipSpace(index)
                guard index < bytes.count else { return false }
                if bytes[index] == UInt8(ascii: ",") {
                    index = skipSpace(index &+ 1)
                } else if bytes[index] == closer {
                    index &+= 1
                    break
                } else {
                    return false
                }
            }
        }
        storage[at].count = members
        storage[at].next = count
        return true
    }

    private mutating func readLiteral(_ index: inout Int, _ word: StaticString, _ node: Node) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count &- index >= count else { return false }
        let matches = word.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index &+ $0] == expected[$0] }
        }
        guard matches else { return false }
        var node = node
        node.next = count &+ 1
        guard append(node) else { return false }
        index &+= count
        return true
    }

    /// `-`? then `0` or a nonzero digit and at most 17 more; a fraction, an exponent, more
    /// digits or `-0` decline.
    private mutating func readInteger(_ index: inout Int) -> Bool {
        var at = index
        let negative = bytes[at] == UInt8(ascii: "-")
        if negative { at &+= 1 }
        let first = at
        var value: Int64 = 0
        while at < bytes.count, at &- first < 18, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
            value = value &* 10 &+ Int64(bytes[at] &- UInt8(ascii: "0"))
            at &+= 1
        }
        guard at > first, !(bytes[first] == UInt8(ascii: "0") && at &- first > 1), !(negative && value == 0) else { return false }
        if at < bytes.count {
            switch bytes[at] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "0")...UInt8(ascii: "9"): return false
            default: break
            }
        }
        guard append(Node(kind: .number, next: count &+ 1, integer: negative ? -value : value)) else { return false }
        index = at
        return true
    }
}
