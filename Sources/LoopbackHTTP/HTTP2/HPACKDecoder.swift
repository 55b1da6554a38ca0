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
                let rawValue = try HPACKPrimitives.readString(block, at: &position)
                let value = String(decoding: rawValue, as: UTF8.self)
                if indexing {
                    table.insert(name: name, value: value, nameOctets: nameOctets, valueOctets: rawValue.count)
                }
                sawField = true
                listSize += nameOctets + rawValue.count + 32
                if listSize > maximumHeaderListSize { tooLarge = true } else { fields.append(Field(name: name, value: value)) }
            }
        }
        if tooLarge { throw .headerListTooLarge }
        return fields
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
