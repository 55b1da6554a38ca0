// libFuzzer target for HPACKDecoder: the payload, cut into header blocks (FuzzInput's
// chunks), is decoded by one decoder whose dynamic table carries over between blocks, as
// on a connection. Every block gives fields or an HPACKError, never a trap; the table
// never exceeds its bound; and the decoded fields, re-encoded by HPACKEncoder (incremental
// indexing) and decoded by a paired decoder, come back the same. Built by
// Fuzz/run.sh HPACK SECONDS.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHPACK(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    let tableSize = [0, 64, 256, 4_096][Int(input.next() % 4)]
    var decoder = HPACKDecoder(maximumTableSize: tableSize, maximumHeaderListSize: 2_048)
    var encoder = HPACKEncoder(indexing: .incrementalIndexing, huffman: input.next() % 2 == 0, maximumTableSize: 4_096)
    var paired = HPACKDecoder(maximumTableSize: 4_096)
    for block in input.chunks() {
        let fields: [HPACKDecoder.Field]
        do {
            fields = try decoder.decode(Array(block))
        } catch .headerListTooLarge {
            // The table stays in step: the connection may continue.
            checkTable(decoder, setting: tableSize)
            continue
        } catch {
            // Any other HPACK error is a COMPRESSION_ERROR: the connection ends.
            checkTable(decoder, setting: tableSize)
            return 0
        }
        checkTable(decoder, setting: tableSize)
        var encoded: [UInt8] = []
        encoder.encode(fields.map { ($0.name, $0.value) }, into: &encoded)
        do {
            let again = try paired.decode(encoded)
            if again != fields { fuzzFailure("re-encoded \(fields) decoded as \(again)") }
        } catch {
            fuzzFailure("re-encoded \(fields) failed: \(error)")
        }
        if paired.table.size > 4_096 { fuzzFailure("paired table over its bound") }
    }
    return 0
}

func checkTable(_ decoder: HPACKDecoder, setting: Int) {
    if decoder.table.size > decoder.table.maximumSize || decoder.table.maximumSize > setting || decoder.table.size < 0 {
        fuzzFailure("table size \(decoder.table.size) / \(decoder.table.maximumSize), setting \(setting)")
    }
}
