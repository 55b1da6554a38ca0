/// Decodes header blocks (RFC 7541 §6) into fields, keeping the dynamic table in step with
/// the peer's encoder. Errors are values (`HPACKError`); nothing the peer sends traps.
package struct HPACKDecoder: Sendable {
    /// One decoded field, name and value as sent (bytes read as UTF-8).
    package struct Field: Sendable, Equatable {
        package var name: String
        package var value: String
    }

    private(set) var table: HPACKDynamicTable
    /// Our SETTINGS_HEADER_TABLE_SIZE: the largest size update the peer may ask for.
    var maximumTableSizeSetting: Int
    /// Our SETTINGS_MAX_HEADER_LIST_SIZE (sum of name + value + 32 per field).
    var maximumHeaderListSize: Int
    /// The last long literal values read (``RepeatedLiteral``), at most
    /// ``repeatedLiteralsKept``, the oldest replaced first; one is reused when a value is
    /// sent in the very same octets again.
    private var lastLiterals: [RepeatedLiteral] = []
    private var nextReplaced = 0

    /// A literal value as it was sent (its length prefix, then the octets, Huffman-coded or
    /// not) and what it decoded to. Clients send a literal they keep out of the dynamic table
    /// again with every request: nghttp2 (h2load, curl) never indexes `authorization`, so an
    /// APNs sender's ~200-octet bearer token arrives as the same literal on every push, and
    /// Huffman-decoding it with its String cost ~8,000 instructions each time (callgrind,
    /// `Benchmarks/callgrind.sh tls`). nghttp2 sends `:path` that way too. The same octets
    /// always decode to the same value, so comparing them is enough.
    private struct RepeatedLiteral: Sendable {
        var sent: [UInt8]
        var value: String
        var octets: Int
    }

    /// Literal values shorter than this are decoded every time: the copy kept for a
    /// comparison costs more than decoding them.
    static let repeatedLiteralMinimum = 32
    /// How many long literals are kept: a request's few unindexed values.
    static let repeatedLiteralsKept = 4
    /// Longer literal values are not kept, so what a connection keeps stays near 4 KiB, the
    /// size of its dynamic table (a header block may reach 33 KiB; a bearer token is ~250).
    static let repeatedLiteralMaximum = 1024

    /// The octets the kept literals hold (at most ``repeatedLiteralsKept`` × (``repeatedLiteralMaximum`` + 3)).
    var keptLiteralOctets: Int { lastLiterals.reduce(0) { $0 + $1.sent.count } }

    package init(maximumTableSize: Int = 4096, maximumHeaderListSize: Int = Int(UInt32.max)) {
        table = HPACKDynamicTable(maximumSize: maximumTableSize)
        maximumTableSizeSetting = maximumTableSize
        self.maximumHeaderListSize = maximumHeaderListSize
    }

    /// Decodes one complete header block.
    ///
    /// - Throws: `HPACKError`. `.headerListTooLarge` is thrown only after the whole block was
    ///   processed, so the table stays synchronised and the connection can continue.
    package mutating func decode(_ block: [UInt8]) throws(HPACKError) -> [Field] {
        // Every field takes at least one octet; room for a request's usual dozen up front
        // (growing the list field by field cost ~2,000 instructions per request, callgrind).
        var fields: [Field] = []
        fields.reserveCapacity(min(block.count, 16))
        var position = 0
        var listSize = 0
        var tooLarge = false
        var sawField = false
        while position < block.count {
            let first = block[position]
            if first & 0x80 != 0 {
                // Indexed header field (§6.1).
                let index = try HPACKPrimitives.readInteger(block, at: &position, prefixBits: 7)
                let (name, value, octets) = try lookup(index)
                sawField = true
                listSize += octets + 32
                if listSize > maximumHeaderListSize { tooLarge = true } else { fields.append(Field(name: name, value: value)) }
            } else if first & 0xe0 == 0x20 {
                // Dynamic table size update (§6.3).
                if sawField { throw .sizeUpdateNotAtBlockStart }
                let size = try HPACKPrimitives.readInteger(block, at: &position, prefixBits: 5)
                if size > maximumTableSizeSetting { throw .sizeUpdateTooLarge(size) }
                table.setMaximumSize(size)
            } else {
                // Literal: with incremental indexing (01), without (0000) or never indexed (0001).
                let indexing = first & 0xc0 == 0x40
                let prefixBits = indexing ? 6 : 4
                let nameIndex = try HPACKPrimitives.readInteger(block, at: &position, prefixBits: prefixBits)
                let name: String
                let nameOctets: Int
                if nameIndex == 0 {
                    let raw = try HPACKPrimitives.readString(block, at: &position)
                    name = String(decoding: raw, as: UTF8.self)
                    nameOctets = raw.count
                } else {
                    let entry = try lookupName(nameIndex)
                    name = entry.name
                    nameOctets = entry.octets
                }
                let (value, valueOctets) = try readLiteralValue(block, at: &position)
                if indexing {
                    table.insert(name: name, value: value, nameOctets: nameOctets, valueOctets: valueOctets)
                }
                sawField = true
                listSize += nameOctets + valueOctets + 32
                if listSize > maximumHeaderListSize { tooLarge = true } else { fields.append(Field(name: name, value: value)) }
            }
        }
        if tooLarge { throw .headerListTooLarge }
        return fields
    }

    /// Reads a literal's value at `position`, advancing it: the value and its decoded length
    /// in octets. A long one sent in the same octets as one kept is that one's value.
    private mutating func readLiteralValue(_ block: [UInt8], at position: inout Int) throws(HPACKError) -> (String, Int) {
        let start = position
        var end = position
        let length = try HPACKPrimitives.readInteger(block, at: &end, prefixBits: 7)
        guard length <= block.count - end else { throw .stringTooLong }
        end += length
        guard length >= Self.repeatedLiteralMinimum, length <= Self.repeatedLiteralMaximum else {
            let raw = try HPACKPrimitives.readString(block, at: &position)
            return (String(decoding: raw, as: UTF8.self), raw.count)
        }
        for kept in lastLiterals where Self.sameOctets(kept.sent, block, from: start, to: end) {
            position = end
            return (kept.value, kept.octets)
        }
        let raw = try HPACKPrimitives.readString(block, at: &position)
        let value = String(decoding: raw, as: UTF8.self)
        let literal = RepeatedLiteral(sent: Array(block[start..<end]), value: value, octets: raw.count)
        if lastLiterals.count < Self.repeatedLiteralsKept {
            lastLiterals.append(literal)
        } else {
            lastLiterals[nextReplaced] = literal
            nextReplaced = (nextReplaced + 1) % Self.repeatedLiteralsKept
        }
        return (value, raw.count)
    }

    /// Whether `block[start..<end]` holds the same octets as `kept`, compared a word at a time.
    private static func sameOctets(_ kept: [UInt8], _ block: [UInt8], from start: Int, to end: Int) -> Bool {
        let count = end - start
        guard kept.count == count else { return false }
        return kept.withUnsafeBytes { a in
            block.withUnsafeBytes { whole in
                guard let x = a.baseAddress, let y = whole.baseAddress.map({ $0 + start }) else { return count == 0 }
                var offset = 0
                while offset + 8 <= count {
                    if x.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != y.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                        return false
                    }
                    offset += 8
                }
                while offset < count {
                    if x.load(fromByteOffset: offset, as: UInt8.self) != y.load(fromByteOffset: offset, as: UInt8.self) { return false }
                    offset += 1
                }
                return true
            }
        }
    }

    private func lookup(_ index: Int) throws(HPACKError) -> (String, String, Int) {
        let statics = HPACKStaticTable.entries
        if index >= 1 && index <= statics.count {
            let entry = statics[index - 1]
            return (entry.name, entry.value, entry.name.utf8.count + entry.value.utf8.count)
        }
        guard let entry = table.entry(at: index - statics.count) else { throw .indexOutOfRange(index) }
        return (entry.name, entry.value, entry.size - 32)
    }

    private func lookupName(_ index: Int) throws(HPACKError) -> (name: String, octets: Int) {
        let statics = HPACKStaticTable.entries
        if index >= 1 && index <= statics.count {
            let name = statics[index - 1].name
            return (name, name.utf8.count)
        }
        guard let entry = table.entry(at: index - statics.count) else { throw .indexOutOfRange(index) }
        return (entry.name, entry.nameOctets)
    }
}
