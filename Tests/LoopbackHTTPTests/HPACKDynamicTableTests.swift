import Testing
@testable import LoopbackHTTP

/// Eviction at the table's exact size (RFC 7541 §4.1, §4.4): an entry fits when the table's
/// size after adding it is not larger than the maximum. The Appendix C vectors never fill a
/// table exactly, so these do.
@Suite struct HPACKDynamicTableTests {
    /// A field whose entry size (name + value octets + 32) is `size`.
    static func field(_ name: String, size: Int) -> (name: String, value: String) {
        (name, String(repeating: "v", count: size - 32 - name.utf8.count))
    }

    @Test func anEntryExactlyTheTableSizeIsKept() {
        var table = HPACKDynamicTable(maximumSize: 100)
        let field = Self.field("big", size: 100)
        table.insert(name: field.name, value: field.value)
        #expect(table.count == 1)
        #expect(table.size == 100)
        #expect(table.entry(at: 1)?.name == "big")
    }

    @Test func twoEntriesThatSumToTheTableSizeAreBothKept() {
        var table = HPACKDynamicTable(maximumSize: 100)
        let first = Self.field("first", size: 60), second = Self.field("second", size: 40)
        table.insert(name: first.name, value: first.value)
        table.insert(name: second.name, value: second.value)
        #expect(table.count == 2, "an entry that fits exactly evicted the one before it")
        #expect(table.size == 100)
        #expect(table.entry(at: 1)?.name == "second" && table.entry(at: 2)?.name == "first")
        // 41 octets more evict the oldest, and only it.
        let third = Self.field("third", size: 41)
        table.insert(name: third.name, value: third.value)
        #expect(table.count == 2 && table.size == 81)
        #expect(table.entry(at: 1)?.name == "third" && table.entry(at: 2)?.name == "second")
    }

    @Test func anEntryTheTableSizeReplacesEveryEntryAndNoMore() {
        var table = HPACKDynamicTable(maximumSize: 100)
        for index in 0..<3 {
            let field = Self.field("f\(index)", size: 33 + 2)
            table.insert(name: field.name, value: field.value)
        }
        #expect(table.count == 2)
        let full = Self.field("full", size: 100)
        table.insert(name: full.name, value: full.value)
        #expect(table.count == 1 && table.size == 100 && table.entry(at: 1)?.name == "full")
        // Larger than the table: empties it (§4.4), and the next insertion still works.
        let tooBig = Self.field("huge", size: 101)
        table.insert(name: tooBig.name, value: tooBig.value)
        #expect(table.count == 0 && table.size == 0)
        table.insert(name: full.name, value: full.value)
        #expect(table.count == 1 && table.size == 100)
    }

    /// The same through the decoder a client talks to: a literal with incremental indexing whose
    /// entry is exactly the table's size (4,096 octets) is kept and then found by its index.
    @Test func aDecodedFieldExactlyTheTableSizeIsIndexable() throws {
        var decoder = HPACKDecoder(maximumTableSize: 4096, maximumHeaderListSize: 1 << 20)
        var encoder = HPACKEncoder(indexing: .incrementalIndexing, huffman: false)
        let field = Self.field("x-fills-the-table", size: 4096)
        var block: [UInt8] = []
        encoder.encode([(field.name, field.value)], into: &block)
        let first = try decoder.decode(block)
        #expect(first.count == 1)
        #expect(decoder.table.count == 1 && decoder.table.size == 4096)
        // Index 62 is the newest dynamic entry (61 static entries before it).
        let second = try decoder.decode([0x80 | 62])
        #expect(second.first?.name == field.name && second.first?.value == field.value)
    }
}
