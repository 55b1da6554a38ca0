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
        if let size = pendingSizeUpdate {
            HPACKPrimitives.appendInteger(size, prefixBits: 5, flags: 0x20, into: &output)
            pendingSizeUpdate = nil
        }
        let staticCount = HPACKStaticTable.entries.count
        for field in fields {
            let statics = HPACKStaticTable.lookup[field.name]
            if let exact = statics?.values[field.value] {
                HPACKPrimitives.appendInteger(exact, prefixBits: 7, flags: 0x80, into: &output)
                continue
            }
            var nameIndex = statics?.nameIndex ?? 0
            if indexing == .incrementalIndexing && !sensitive.contains(field.name) {
                let dynamic = table.find(name: field.name, value: field.value)
                if let exact = dynamic.exact {
                    HPACKPrimitives.appendInteger(exact + staticCount, prefixBits: 7, flags: 0x80, into: &output)
                    continue
                }
                if nameIndex == 0, let index = dynamic.name { nameIndex = index + staticCount }
                HPACKPrimitives.appendInteger(nameIndex, prefixBits: 6, flags: 0x40, into: &output)
                table.insert(name: field.name, value: field.value)
            } else {
                let flags: UInt8 = sensitive.contains(field.name) ? 0x10 : 0x00
                HPACKPrimitives.appendInteger(nameIndex, prefixBits: 4, flags: flags, into: &output)
            }
            if nameIndex == 0 { HPACKPrimitives.appendString(field.name, huffman: huffman, into: &output) }
            HPACKPrimitives.appendString(field.value, huffman: huffman, into: &output)
        }
    }
}
