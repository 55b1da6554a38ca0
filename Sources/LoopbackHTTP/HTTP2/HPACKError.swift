/// Why a header block could not be decoded (RFC 7541). Every case is a connection error of
/// type COMPRESSION_ERROR except `headerListTooLarge`, which leaves the HPACK state intact
/// and is answered per stream.
package struct HPACKError: Error, Equatable, CustomStringConvertible {
    private enum Code: Equatable {
        case truncated
        case integerOverflow
        case indexOutOfRange(Int)
        case invalidHuffmanCode
        case huffmanEOSDecoded
        case invalidHuffmanPadding
        case sizeUpdateNotAtBlockStart
        case sizeUpdateTooLarge(Int)
        case headerListTooLarge
        case stringTooLong
    }
    private let code: Code
    private init(_ code: Code) { self.code = code }

    /// The block ended in the middle of a representation.
    package static let truncated = HPACKError(.truncated)
    /// An integer representation does not fit the decoder's bound (2^32 - 1).
    package static let integerOverflow = HPACKError(.integerOverflow)
    /// An indexed field or name refers to an entry that neither table holds (or index 0).
    package static func indexOutOfRange(_ index: Int) -> HPACKError { HPACKError(.indexOutOfRange(index)) }
    /// A Huffman string contains a bit sequence that is no code.
    package static let invalidHuffmanCode = HPACKError(.invalidHuffmanCode)
    /// A Huffman string contains the EOS symbol (RFC 7541 §5.2: a decoding error).
    package static let huffmanEOSDecoded = HPACKError(.huffmanEOSDecoded)
    /// The padding is longer than 7 bits or not the most significant bits of EOS.
    package static let invalidHuffmanPadding = HPACKError(.invalidHuffmanPadding)
    /// A dynamic table size update came after a field representation (RFC 7541 §4.2).
    package static let sizeUpdateNotAtBlockStart = HPACKError(.sizeUpdateNotAtBlockStart)
    /// A dynamic table size update exceeds SETTINGS_HEADER_TABLE_SIZE.
    package static func sizeUpdateTooLarge(_ size: Int) -> HPACKError { HPACKError(.sizeUpdateTooLarge(size)) }
    /// The decoded list exceeds the bound the server advertised (SETTINGS_MAX_HEADER_LIST_SIZE).
    package static let headerListTooLarge = HPACKError(.headerListTooLarge)
    /// A string literal is longer than the block that carries it.
    package static let stringTooLong = HPACKError(.stringTooLong)

    /// True when the HPACK context is still synchronised (the stream alone can be refused).
    package var isStreamLevel: Bool { code == .headerListTooLarge }

    package var description: String {
        switch code {
        case .truncated: return "HPACK: header block ends inside a representation"
        case .integerOverflow: return "HPACK: integer larger than 2^32-1"
        case .indexOutOfRange(let i): return "HPACK: index \(i) is in neither the static nor the dynamic table"
        case .invalidHuffmanCode: return "HPACK: Huffman string holds an invalid code"
        case .huffmanEOSDecoded: return "HPACK: Huffman string holds the EOS symbol"
        case .invalidHuffmanPadding: return "HPACK: Huffman padding is not at most 7 one-bits"
        case .sizeUpdateNotAtBlockStart: return "HPACK: dynamic table size update after a header field"
        case .sizeUpdateTooLarge(let s): return "HPACK: table size update to \(s) exceeds SETTINGS_HEADER_TABLE_SIZE"
        case .headerListTooLarge: return "HPACK: header list exceeds SETTINGS_MAX_HEADER_LIST_SIZE"
        case .stringTooLong: return "HPACK: string literal longer than the header block"
        }
    }
}
