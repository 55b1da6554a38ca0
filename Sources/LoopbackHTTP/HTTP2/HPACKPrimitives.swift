/// HPACK integer and string representations (RFC 7541 §5.1, §5.2).
enum HPACKPrimitives {
    /// Appends `value` with an N-bit prefix; `flags` fills the bits above the prefix.
    static func appendInteger(_ value: Int, prefixBits: Int, flags: UInt8, into output: inout [UInt8]) {
        let limit = (1 << prefixBits) - 1
        if value < limit {
            output.append(flags | UInt8(truncatingIfNeeded: value))
            return
        }
        output.append(flags | UInt8(truncatingIfNeeded: limit))
        var rest = value - limit
        while rest >= 128 {
            output.append(UInt8(truncatingIfNeeded: rest & 0x7f) | 0x80)
            rest >>= 7
        }
        output.append(UInt8(truncatingIfNeeded: rest))
    }

    /// Reads an integer with an N-bit prefix at `position`, advancing it.
    /// Values above 2^32 - 1 are refused rather than wrapped.
    static func readInteger(_ bytes: [UInt8], at position: inout Int, prefixBits: Int) throws(HPACKError) -> Int {
        guard position < bytes.count else { throw .truncated }
        let limit = (1 << prefixBits) - 1
        var value = Int(bytes[position]) & limit
        position += 1
        if value < limit { return value }
        var shift = 0
        while true {
            guard position < bytes.count else { throw .truncated }
            let byte = bytes[position]
            position += 1
            if shift > 28 { throw .integerOverflow }
            value += Int(byte & 0x7f) << shift
            if value > Int(UInt32.max) { throw .integerOverflow }
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// Appends a string literal, Huffman-coded when `huffman` and that is not longer.
    static func appendString(_ string: String, huffman: Bool, into output: inout [UInt8]) {
        // Over the string's own UTF-8 buffer (a small string is copied to the stack): a
        // String.UTF8View of up to 15 bytes has no contiguous storage to lend, and going
        // through an Array for it cost an allocation per name and value.
        var string = string
        string.withUTF8 { bytes in
            // Coded once into scratch space; kept when it is not longer than the raw octets.
            let coded = !huffman ? false : withUnsafeTemporaryAllocation(
                of: UInt8.self, capacity: HPACKHuffman.scratchCapacity(forCount: bytes.count)
            ) { scratch -> Bool in
                guard let base = scratch.baseAddress else { return false }
                let length = HPACKHuffman.encode(buffer: bytes, into: base)
                guard length <= bytes.count else { return false }
                appendInteger(length, prefixBits: 7, flags: 0x80, into: &output)
                output.append(contentsOf: UnsafeBufferPointer(start: base, count: length))
                return true
            }
            if coded { return }
            appendInteger(bytes.count, prefixBits: 7, flags: 0, into: &output)
            output.append(contentsOf: bytes)
        }
    }

    /// Reads a string literal at `position`, advancing it.
    static func readString(_ bytes: [UInt8], at position: inout Int) throws(HPACKError) -> ArraySlice<UInt8> {
        guard position < bytes.count else { throw .truncated }
        let isHuffman = bytes[position] & 0x80 != 0
        let length = try readInteger(bytes, at: &position, prefixBits: 7)
        guard length <= bytes.count - position else { throw .stringTooLong }
        let raw = bytes[position..<(position + length)]
        position += length
        if isHuffman {
            var decoded: [UInt8] = []
            try HPACKHuffman.decode(raw, into: &decoded)
            return decoded[...]
        }
        return raw
    }
}
