/// The HPACK Huffman code (RFC 7541 §5.2): encoding and a decoder that rejects EOS and bad padding.
enum HPACKHuffman {
    /// A binary decoding tree derived from `HPACKHuffmanTable`: for node `n`, `children[2n]`
    /// follows a 0 bit and `children[2n + 1]` a 1 bit. A positive child is a node index, a
    /// negative one `-(symbol + 1)`, zero means no code (cannot happen: the code is complete).
    private static let children: [Int32] = {
        var tree: [Int32] = [0, 0]
        for symbol in 0..<257 {
            let code = HPACKHuffmanTable.codes[symbol]
            let length = Int(HPACKHuffmanTable.lengths[symbol])
            var node = 0
            for position in stride(from: length - 1, through: 0, by: -1) {
                let slot = 2 * node + Int((code >> UInt32(position)) & 1)
                if position == 0 {
                    tree[slot] = -Int32(symbol + 1)
                } else {
                    if tree[slot] <= 0 {
                        tree[slot] = Int32(tree.count / 2)
                        tree.append(contentsOf: [0, 0])
                    }
                    node = Int(tree[slot])
                }
            }
        }
        return tree
    }()

    /// Decodes `bytes`, appending the octets to `output`.
    static func decode(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) throws(HPACKError) {
        let tree = children
        var node = 0
        var depth = 0
        var paddingIsOnes = true
        output.reserveCapacity(output.count + bytes.count * 8 / 5)
        for byte in bytes {
            var shift = 7
            while shift >= 0 {
                let bit = Int((byte >> UInt8(shift)) & 1)
                shift -= 1
                let child = tree[2 * node + bit]
                if child < 0 {
                    let symbol = Int(-child) - 1
                    if symbol == 256 { throw .huffmanEOSDecoded }
                    output.append(UInt8(truncatingIfNeeded: symbol))
                    node = 0
                    depth = 0
                    paddingIsOnes = true
                } else if child == 0 {
                    throw .invalidHuffmanCode
                } else {
                    node = Int(child)
                    depth += 1
                    if bit == 0 { paddingIsOnes = false }
                }
            }
        }
        if depth > 7 || !paddingIsOnes { throw .invalidHuffmanPadding }
    }

    /// How many octets `bytes` take Huffman-coded, padding included.
    static func encodedLength<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int {
        var bits = 0
        for byte in bytes { bits += Int(HPACKHuffmanTable.lengths[Int(byte)]) }
        return (bits + 7) / 8
    }

    /// Appends `bytes` Huffman-coded, padded with the most significant bits of EOS (ones).
    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, into output: inout [UInt8]) {
        var accumulator: UInt64 = 0
        var pending = 0
        for byte in bytes {
            let length = Int(HPACKHuffmanTable.lengths[Int(byte)])
            accumulator = (accumulator << UInt64(length)) | UInt64(HPACKHuffmanTable.codes[Int(byte)])
            pending += length
            while pending >= 8 {
                pending -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt64(pending)))
            }
        }
        if pending > 0 {
            let padded = (accumulator << UInt64(8 - pending)) | ((1 << UInt64(8 - pending)) - 1)
            output.append(UInt8(truncatingIfNeeded: padded))
        }
    }
}
