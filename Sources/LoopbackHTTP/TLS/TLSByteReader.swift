/// Reads TLS presentation-language values (RFC 8446 §3) from a byte slice, bounds-checked:
/// every read past the end throws `decode_error`, never traps.
struct TLSByteReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    var isEmpty: Bool { index >= bytes.endIndex }
    var remainingCount: Int { bytes.endIndex - index }

    mutating func readUInt8() throws(TLSAlert) -> UInt8 {
        guard index < bytes.endIndex else { throw .decode("truncated at byte \(index - bytes.startIndex)") }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func readUInt16() throws(TLSAlert) -> UInt16 {
        let high = try readUInt8()
        return UInt16(high) << 8 | UInt16(try readUInt8())
    }

    mutating func readUInt24() throws(TLSAlert) -> Int {
        let high = Int(try readUInt8())
        let middle = Int(try readUInt8())
        return high << 16 | middle << 8 | Int(try readUInt8())
    }

    mutating func readBytes(_ count: Int) throws(TLSAlert) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remainingCount else {
            throw .decode("\(count) bytes announced, \(remainingCount) left")
        }
        defer { index += count }
        return bytes[index..<(index + count)]
    }

    /// A vector with a `lengthBytes`-byte length prefix whose length lies in `allowed`.
    mutating func readVector(lengthBytes: Int, allowed: ClosedRange<Int>) throws(TLSAlert) -> ArraySlice<UInt8> {
        let length: Int
        switch lengthBytes {
        case 1: length = Int(try readUInt8())
        case 2: length = Int(try readUInt16())
        default: length = try readUInt24()
        }
        guard allowed.contains(length) else { throw .decode("vector length \(length) outside \(allowed)") }
        return try readBytes(length)
    }

    /// A nested reader over a length-prefixed vector.
    mutating func readNested(lengthBytes: Int, allowed: ClosedRange<Int>) throws(TLSAlert) -> TLSByteReader {
        TLSByteReader(try readVector(lengthBytes: lengthBytes, allowed: allowed))
    }

    /// Throws unless every byte was read (trailing bytes are a decode error).
    func expectEnd(_ what: String) throws(TLSAlert) {
        guard isEmpty else { throw .decode("\(remainingCount) trailing bytes in \(what)") }
    }
}

/// Writes TLS presentation-language values; length prefixes are patched in after the body.
struct TLSByteWriter {
    var bytes: [UInt8] = []

    mutating func append(_ value: UInt8) { bytes.append(value) }

    mutating func append(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }

    mutating func append(_ values: some Sequence<UInt8>) { bytes.append(contentsOf: values) }

    /// Appends a vector: a `lengthBytes`-byte length, then what `body` writes.
    mutating func appendVector(lengthBytes: Int, _ body: (inout TLSByteWriter) -> Void) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: lengthBytes))
        body(&self)
        let length = bytes.count - start - lengthBytes
        for offset in 0..<lengthBytes {
            bytes[start + offset] = UInt8(truncatingIfNeeded: length >> (8 * (lengthBytes - 1 - offset)))
        }
    }

    /// A handshake message: type, 24-bit length, body.
    static func handshakeMessage(_ type: TLSHandshakeType, _ body: (inout TLSByteWriter) -> Void) -> [UInt8] {
        var writer = TLSByteWriter()
        writer.append(type.rawValue)
        writer.appendVector(lengthBytes: 3, body)
        return writer.bytes
    }
}
