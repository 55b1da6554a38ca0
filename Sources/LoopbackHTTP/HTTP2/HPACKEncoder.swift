/// Encodes header lists into header blocks (RFC 7541 §6).
///
/// The server's responses use `.staticTableOnly`: fields found in the static table are
/// indexed, others are literals without indexing, so the peer's table never matters.
/// `.incrementalIndexing` also inserts every literal into the dynamic table; with
/// Huffman on, it reproduces the encodings of RFC 7541 Appendix C.
package struct HPACKEncoder: Sendable {
    package enum Indexing: Sendable {
        case staticTableOnly
        case incrementalIndexing
    }

    var indexing: Indexing
    /// Huffman-code a string whenever that is not longer than the raw octets.
    var huffman: Bool
    private(set) var table: HPACKDynamicTable
    /// Set when the table size changed since the last block: §4.2 wants it signalled first.
    private var pendingSizeUpdate: Int?
    /// With `.staticTableOnly`, what the block of a field with each name seen so far starts
    /// with (``CachedName``), at most ``cachedNamesKept``, first seen kept: a server answers
    /// with the same few names on every response, and looking each up in the static table and
    /// Huffman-coding it again cost ~2,000 instructions per FakeAPNs 200 (callgrind).
    private var cachedNames: [CachedName] = []
    static let cachedNamesKept = 16

    /// A field name's representation under `.staticTableOnly`: the static table's index for
    /// each of its values that has an entry (sent as that index alone), and the octets a
    /// literal without indexing of any other value starts with (the name's index, or 0 and
    /// the name as a string literal), the value's string literal following.
    struct CachedName {
        var name: String
        var huffman: Bool
        var exact: [(value: String, index: Int)]
        var literalPrefix: [UInt8]
    }

    package init(indexing: Indexing = .staticTableOnly, huffman: Bool = true, maximumTableSize: Int = 4096) {
        self.indexing = indexing
        self.huffman = huffman
        table = HPACKDynamicTable(maximumSize: maximumTableSize)
    }

    /// The peer's SETTINGS_HEADER_TABLE_SIZE changed: use at most that much and say so.
    package mutating func setMaximumTableSize(_ size: Int) {
        guard size != table.maximumSize else { return }
        table.setMaximumSize(size)
        pendingSizeUpdate = size
    }

    /// Appends the block for `fields` (names already lowercase) to `output`.
    /// `sensitive` names are sent as never-indexed literals (§6.2.3).
    package mutating func encode(_ fields: [(name: String, value: String)], sensitive: Set<String> = [], into output: inout [UInt8]) {
        beginBlock(into: &output)
        for field in fields { encodeField(name: field.name, value: field.value, sensitive: sensitive, into: &output) }
    }

    /// Starts a block in `output`: the table size update owed, if any. The block's fields
    /// follow, each from ``encodeField(name:value:sensitive:into:)``.
    mutating func beginBlock(into output: inout [UInt8]) {
        if let size = pendingSizeUpdate {
            HPACKPrimitives.appendInteger(size, prefixBits: 5, flags: 0x20, into: &output)
            pendingSizeUpdate = nil
        }
    }

    /// Appends one field (name already lowercase) of the block ``beginBlock(into:)`` started.
    mutating func encodeField(name: String, value: String, sensitive: Set<String> = [], into output: inout [UInt8]) {
        if indexing == .staticTableOnly && (sensitive.isEmpty || !sensitive.contains(name)),
           let cached = cachedName(name) {
            if let exact = cachedNames[cached].exact.first(where: { $0.value == value }) {
                HPACKPrimitives.appendInteger(exact.index, prefixBits: 7, flags: 0x80, into: &output)
            } else {
                output.append(contentsOf: cachedNames[cached].literalPrefix)
                HPACKPrimitives.appendString(value, huffman: huffman, into: &output)
            }
            return
        }
        let statics = HPACKStaticTable.lookup[name]
        if let exact = statics?.values[value] {
            HPACKPrimitives.appendInteger(exact, prefixBits: 7, flags: 0x80, into: &output)
            return
        }
        var nameIndex = statics?.nameIndex ?? 0
        if indexing == .incrementalIndexing && !sensitive.contains(name) {
            let dynamic = table.find(name: name, value: value)
            if let exact = dynamic.exact {
                HPACKPrimitives.appendInteger(exact + HPACKStaticTable.entries.count, prefixBits: 7, flags: 0x80, into: &output)
                return
            }
            if nameIndex == 0, let index = dynamic.name { nameIndex = index + HPACKStaticTable.entries.count }
            HPACKPrimitives.appendInteger(nameIndex, prefixBits: 6, flags: 0x40, into: &output)
            table.insert(name: name, value: value)
        } else {
            let flags: UInt8 = sensitive.contains(name) ? 0x10 : 0x00
            HPACKPrimitives.appendInteger(nameIndex, prefixBits: 4, flags: flags, into: &output)
        }
        if nameIndex == 0 { HPACKPrimitives.appendString(name, huffman: huffman, into: &output) }
        HPACKPrimitives.appendString(value, huffman: huffman, into: &output)
    }

    /// Where `name`'s ``CachedName`` is in `cachedNames`, made on first sight; nil once
    /// ``cachedNamesKept`` names are kept and this is not one of them (it is then encoded from
    /// the tables each time).
    private mutating func cachedName(_ name: String) -> Int? {
        if let index = cachedNames.firstIndex(where: { $0.name == name && $0.huffman == huffman }) { return index }
        guard cachedNames.count < Self.cachedNamesKept else { return nil }
        let statics = HPACKStaticTable.lookup[name]
        let nameIndex = statics?.nameIndex ?? 0
        var prefix: [UInt8] = []
        HPACKPrimitives.appendInteger(nameIndex, prefixBits: 4, flags: 0x00, into: &prefix)
        if nameIndex == 0 { HPACKPrimitives.appendString(name, huffman: huffman, into: &prefix) }
        let exact = (statics?.values ?? [:]).map { (value: $0.key, index: $0.value) }
        cachedNames.append(CachedName(name: name, huffman: huffman, exact: exact, literalPrefix: prefix))
        return cachedNames.count - 1
    }
}
