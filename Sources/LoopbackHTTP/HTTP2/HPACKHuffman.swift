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

    /// One octet at a time: `transitions[node << 8 | octet]` packs the symbols the octet
    /// completes (bits 0-7 and 8-15, count in bits 24-25), the node it ends in (bits 16-23),
    /// and failure flags (bit 26: EOS decoded, bit 27: no such code). A complete code with
    /// 257 symbols has exactly 256 internal nodes, so a node fits in 8 bits.
    private static let transitions: [UInt32] = {
        let tree = children
        let nodes = tree.count / 2
        var table = [UInt32](repeating: 1 << 27, count: nodes * 256)
        guard nodes <= 256 else { return table }
        for start in 0..<nodes {
            for octet in 0..<256 {
                var node = start
                var symbols: [UInt32] = []
                var entry: UInt32 = 0
                for shift in stride(from: 7, through: 0, by: -1) {
                    let child = tree[2 * node + ((octet >> shift) & 1)]
                    if child < 0 {
                        let symbol = Int(-child) - 1
                        if symbol == 256 { entry |= 1 << 26; break }
                        symbols.append(UInt32(symbol))
                        node = 0
                    } else if child == 0 {
                        entry |= 1 << 27
                        break
                    } else {
                        node = Int(child)
                    }
                }
                if symbols.count >= 1 { entry |= symbols[0] }
                if symbols.count >= 2 { entry |= symbols[1] << 8 }
                entry |= UInt32(node) << 16 | UInt32(symbols.count) << 24
                table[start << 8 | octet] = entry
            }
        }
        return table
    }()

    /// Nodes where a string may end: on the all-ones path from the root, at most 7 deep
    /// (RFC 7541 §5.2: padding is the most significant bits of EOS, shorter than 8 bits).
    private static let paddingEnds: Set<Int> = {
        var ends: Set<Int> = [0]
        var node = 0
        for _ in 0..<7 {
            let child = children[2 * node + 1]
            guard child > 0 else { break }
            node = Int(child)
            ends.insert(node)
        }
        return ends
    }()

    /// Decodes `bytes`, appending the octets to `output`.
    static func decode(_ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) throws(HPACKError) {
        let table = transitions
        var node = 0
        output.reserveCapacity(output.count + bytes.count * 8 / 5)
        for byte in bytes {
            let entry = table[node << 8 | Int(byte)]
            if entry >> 26 != 0 {
                throw entry & (1 << 26) != 0 ? .huffmanEOSDecoded : .invalidHuffmanCode
            }
            let count = (entry >> 24) & 3
            if count >= 1 { output.append(UInt8(truncatingIfNeeded: entry)) }
            if count == 2 { output.append(UInt8(truncatingIfNeeded: entry >> 8)) }
            node = Int((entry >> 16) & 0xff)
        }
        if !paddingEnds.contains(node) { throw .invalidHuffmanPadding }
    }

    /// How many octets `bytes` take Huffman-coded, padding included.
    static func encodedLength<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Int {
        if let length = bytes.withContiguousStorageIfAvailable({ encodedLength(buffer: $0) }) { return length }
        return Array(bytes).withUnsafeBufferPointer { encodedLength(buffer: $0) }
    }

    /// Appends `bytes` Huffman-coded, padded with the most significant bits of EOS (ones).
    static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes, into output: inout [UInt8]) {
        if bytes.withContiguousStorageIfAvailable({ append(buffer: $0, to: &output) }) != nil { return }
        Array(bytes).withUnsafeBufferPointer { append(buffer: $0, to: &output) }
    }

    // The loops run over buffers with the tables' storage hoisted out: every response
    // header value goes through them, and element by element over a generic sequence they
    // cost ~100 instructions an octet (callgrind).

    /// How many octets `bytes` take Huffman-coded, padding included.
    static func encodedLength(buffer bytes: UnsafeBufferPointer<UInt8>) -> Int {
        HPACKHuffmanTable.lengths.withUnsafeBufferPointer { lengths in
            var bits = 0
            for byte in bytes { bits += Int(lengths[Int(byte)]) }
            return (bits + 7) / 8
        }
    }

    /// The most octets `encode(buffer:into:)` writes for `count` input octets: the longest
    /// code of an octet is 30 bits, and the last word is stored whole.
    static func scratchCapacity(forCount count: Int) -> Int { count * 4 + 8 }

    /// Huffman-codes `bytes` into `out`, which has room for `scratchCapacity(forCount:)`
    /// octets, padded with the most significant bits of EOS (ones); returns the coded length.
    static func encode(buffer bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>) -> Int {
        HPACKHuffmanTable.lengths.withUnsafeBufferPointer { lengths in
            HPACKHuffmanTable.codes.withUnsafeBufferPointer { codes in
                // Codes gather in a 64-bit accumulator and leave it 32 bits at a time: at most
                // 31 bits wait, and a code adds at most 30, so nothing is shifted out unwritten.
                var position = 0
                var accumulator: UInt64 = 0
                var pending: UInt64 = 0
                for byte in bytes {
                    let length = UInt64(lengths[Int(byte)])
                    accumulator = (accumulator << length) | UInt64(codes[Int(byte)])
                    pending &+= length
                    if pending >= 32 {
                        pending &-= 32
                        let word = UInt32(truncatingIfNeeded: accumulator >> pending).bigEndian
                        UnsafeMutableRawPointer(out + position).storeBytes(of: word, as: UInt32.self)
                        position &+= 4
                    }
                }
                while pending >= 8 {
                    pending &-= 8
                    out[position] = UInt8(truncatingIfNeeded: accumulator >> pending)
                    position &+= 1
                }
                if pending > 0 {
                    let padding = 8 &- pending
                    out[position] = UInt8(truncatingIfNeeded: (accumulator << padding) | ((1 << padding) &- 1))
                    position &+= 1
                }
                return position
            }
        }
    }

    /// Appends `bytes` Huffman-coded to `output`.
    private static func append(buffer bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchCapacity(forCount: bytes.count)) { scratch in
            guard let base = scratch.baseAddress else { return }
            output.append(contentsOf: UnsafeBufferPointer(start: base, count: encode(buffer: bytes, into: base)))
        }
    }
}
