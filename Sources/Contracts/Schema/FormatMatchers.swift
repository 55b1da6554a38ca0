/// Hand-written matchers behind ``StringFormat``: byte loops over UTF-8, no regex engine,
/// no Foundation. Each returns nil for a match, or a short phrase saying what is wrong.
enum FormatMatchers {
    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F || byte == 0x2D
    }

    static func isBase64Byte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2B || byte == 0x2F
    }

    /// Describes the first character that is not allowed, e.g. `'g' at character 5`; nil when
    /// every character is allowed. The common (valid) case is one pass over the bytes.
    static func badCharacter(in value: String, where isAllowed: (UInt8) -> Bool) -> String? {
        if allBytes(of: value, satisfy: isAllowed) { return nil }
        var index = 0
        for scalar in value.unicodeScalars {
            index += 1
            if scalar.isASCII, isAllowed(UInt8(truncatingIfNeeded: scalar.value)) { continue }
            return "'\(scalar.escaped(asASCII: true))' at character \(index)"
        }
        return nil
    }

    /// True when every UTF-8 byte of `value` satisfies `predicate`; one pass over contiguous
    /// bytes (iterating `String.UTF8View` directly costs several times more per byte).
    static func allBytes(of value: String, satisfy predicate: (UInt8) -> Bool) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            for byte in bytes where !predicate(byte) { return false }
            return true
        }
    }

    /// The number of Unicode scalars, counted over UTF-8 without decoding.
    static func scalarCount(_ value: String) -> Int {
        var count = 0
        for byte in value.utf8 where byte & 0xC0 != 0x80 { count += 1 }
        return count
    }

    /// `value.hasPrefix(prefix)` by bytes: String's own compares Characters, which is slower
    /// and not what a wire format means.
    static func hasPrefix(_ value: String, _ prefix: String) -> Bool {
        var value = value
        var prefix = prefix
        return value.withUTF8 { valueBytes in
            prefix.withUTF8 { prefixBytes in
                valueBytes.count >= prefixBytes.count && memoryEqual(valueBytes, prefixBytes, prefixBytes.count)
            }
        }
    }

    /// True when the first `count` bytes of `a` and `b` are the same (both hold at least `count`).
    static func memoryEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, _ count: Int) -> Bool {
        SWAR.equal(UnsafeBufferPointer(rebasing: a[..<count]), UnsafeBufferPointer(rebasing: b[..<count]))
    }

    static func hexBytesProblem(_ value: String) -> String? {
        var copy = value
        if copy.withUTF8({ $0.count % 2 == 0 && !$0.isEmpty && SWAR.allHexDigits($0) }) { return nil }
        if value.isEmpty { return "an empty string" }
        if let bad = badCharacter(in: value, where: isHexDigit) { return "\(bad), not a hex digit" }
        if value.utf8.count % 2 != 0 { return "\(value.utf8.count) hex digits, an odd number (each byte is two digits)" }
        return nil
    }

    /// 1 when `byte` is a hex digit, else 0, with no branches (as ``base64Bit(_:)``).
    @inline(__always)
    static func hexBit(_ byte: UInt8) -> UInt8 {
        let digit: UInt8 = byte &- 0x30 < 10 ? 1 : 0                  // 0-9
        let letter: UInt8 = (byte | 0x20) &- 0x61 < 6 ? 1 : 0        // A-F, a-f
        return digit | letter
    }

    static func identifierProblem(_ value: String) -> String? {
        if value.isEmpty { return "an empty string" }
        if let bad = badCharacter(in: value, where: isIdentifierByte) { return bad }
        return nil
    }

    static func semverProblem(_ value: String) -> String? {
        var parts = 0
        var digits = 0
        var leadingZero = false
        for byte in value.utf8 {
            if byte >= 0x30 && byte <= 0x39 {
                if digits == 1 && leadingZero { return "\"\(value)\" (a number with a leading zero)" }
                if digits == 0 { leadingZero = byte == 0x30 }
                digits += 1
            } else if byte == 0x2E && digits > 0 && parts < 2 {
                parts += 1
                digits = 0
            } else {
                return "\"\(value)\""
            }
        }
        if parts != 2 || digits == 0 { return "\"\(value)\"" }
        return nil
    }

    /// 1 when `byte` is in the base64 alphabet (`A-Z a-z 0-9 + /`), else 0, with no branches:
    /// the bytes of encrypted data are random, so a chain of range tests mispredicts on most
    /// of them, and branch-free tests let the compiler check many bytes per instruction.
    @inline(__always)
    static func base64Bit(_ byte: UInt8) -> UInt8 {
        let letter: UInt8 = (byte | 0x20) &- 0x61 < 26 ? 1 : 0       // A-Z, a-z
        let digit: UInt8 = byte &- 0x30 < 10 ? 1 : 0                  // 0-9
        let symbol: UInt8 = byte & 0xFB == 0x2B ? 1 : 0               // '+' (0x2B), '/' (0x2F)
        return letter | digit | symbol
    }

    static func base64Problem(_ value: String) -> String? {
        var copy = value
        if copy.withUTF8({ SWAR.isPlainBase64($0) }) { return nil }
        let problem: String?? = copy.withUTF8 { bytes -> String?? in
            let count = bytes.count
            if count % 4 != 0 { return .some("\(count) characters, not a multiple of 4") }
            var index = 0
            while index < count {
                let byte = bytes[index]
                if byte == 0x3D {
                    // '=' only as the last character, or the last two.
                    if index == count - 1 || (index == count - 2 && bytes[count - 1] == 0x3D) {
                        index += 1
                        continue
                    }
                    return .some(index < count - 2 ? "'=' before the end" : "'=' before the last character")
                }
                if !isBase64Byte(byte) { return nil }
                index += 1
            }
            return .some(nil)
        }
        if let problem { return problem }
        return badCharacter(in: value, where: { isBase64Byte($0) || $0 == 0x3D }) ?? "a character outside base64"
    }

    static func p256KeyProblem(_ value: String) -> String? {
        if let problem = base64Problem(value) { return problem }
        var copy = value
        return copy.withUTF8 { bytes -> String? in
            if bytes.count != 88 {
                return "\(bytes.count) base64 characters; a 65-byte uncompressed key is 88"
            }
            guard bytes[0] == 0x42, bytes[1] >= 0x41, bytes[1] <= 0x50 else {
                return "a key whose first byte is not 0x04 (not an uncompressed point)"
            }
            // The last data character carries 2 padding bits that must be zero.
            let paddingCarriers: StaticString = "AEIMQUYcgkosw048"
            guard bytes[87] == 0x3D, bytes[86] != 0x3D,
                  paddingCarriers.withUTF8Buffer({ $0.contains(bytes[86]) }) else {
                return "base64 whose padding bits are not zero"
            }
            return nil
        }
    }

    static func httpsURLProblem(_ value: String) -> String? {
        guard hasPrefix(value, "https://") else {
            if hasPrefix(value, "http://") { return "an http:// URL" }
            return "\"\(clipped(value))\", not an https:// URL"
        }
        return value.utf8.withContiguousStorageIfAvailable { httpsRestProblem($0) } ?? httpsRestProblem(Array(value.utf8))
    }

    /// The https URL check after the scheme, over contiguous bytes.
    static func httpsRestProblem<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> String? where Bytes.Index == Int {
        var index = bytes.startIndex + 8
        let hostStart = index
        while index < bytes.endIndex, isHostByte(bytes[index]) { index += 1 }
        if index == hostStart { return "a URL without a host" }
        if index < bytes.endIndex, bytes[index] == 0x3A {
            index += 1
            let portStart = index
            while index < bytes.endIndex, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            if index == portStart || index - portStart > 5 { return "a URL with a bad port" }
        }
        if index == bytes.endIndex { return nil }
        guard bytes[index] == 0x2F || bytes[index] == 0x3F || bytes[index] == 0x23 else {
            return "a URL with a bad host"
        }
        var asciiOnly = true
        for byte in bytes[index...] {
            if byte >= 0x80 { asciiOnly = false; break }
            if byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) { return "a URL containing whitespace" }
        }
        if asciiOnly { return nil }
        let rest = String(decoding: bytes[index...], as: UTF8.self)
        for scalar in rest.unicodeScalars where scalar.properties.isWhitespace {
            return "a URL containing whitespace"
        }
        return nil
    }

    static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2E || byte == 0x2D
    }

    static func bundleIDProblem(_ value: String) -> String? {
        var labels = 0
        var labelLength = 0
        for byte in value.utf8 {
            if byte == 0x2E {
                if labelLength == 0 { return "\"\(clipped(value))\" (an empty part)" }
                labels += 1
                labelLength = 0
            } else if isHostByte(byte) {
                labelLength += 1
            } else {
                return badCharacter(in: value, where: { isHostByte($0) }) ?? "\"\(clipped(value))\""
            }
        }
        if labelLength == 0 || labels == 0 { return "\"\(clipped(value))\"" }
        return nil
    }

    /// `bytes` are `prefix` then 1-64 of `[A-Za-z0-9_-]`: exactly when
    /// ``prefixedIdentifierProblem(_:prefix:)`` is nil for their string.
    static func isPrefixedIdentifier(_ bytes: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>) -> Bool {
        let idLength = bytes.count - prefix.count
        guard idLength >= 1, idLength <= 64, memoryEqual(bytes, prefix, prefix.count) else { return false }
        return ASCIIStringCheck.allIdentifierBytes(UnsafeBufferPointer(rebasing: bytes[prefix.count...]))
    }

    static func prefixedIdentifierProblem(_ value: String, prefix: String) -> String? {
        var copy = value
        var prefixCopy = prefix
        let matches = copy.withUTF8 { bytes in
            prefixCopy.withUTF8 { isPrefixedIdentifier(bytes, prefix: $0) }
        }
        if matches { return nil }
        if !hasPrefix(value, prefix) { return "\"\(clipped(value))\"" }
        let idLength = value.utf8.count - prefix.utf8.count
        if idLength < 1 || idLength > 64 { return "\"\(clipped(value))\" (the id must be 1-64 characters)" }
        return "\"\(clipped(value))\""
    }

    /// The value cut to 60 scalars for messages, so a huge string does not flood the output.
    static func clipped(_ value: String) -> String {
        if value.utf8.count <= 60, allBytes(of: value, satisfy: { $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) {
            return value
        }
        var result = ""
        var count = 0
        for scalar in value.unicodeScalars {
            if count == 60 { return result + "…" }
            result += scalar.escaped(asASCII: false)
            count += 1
        }
        return result
    }
}
