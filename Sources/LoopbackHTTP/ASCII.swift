/// ASCII case folding on bytes, shared by the parsers, the fakes' token keys and the log:
/// header names, hosts, device tokens and hex runs are matched and keyed case-insensitively
/// on every request, so this never goes through `Character` or Unicode case mapping.
///
/// The enum is `public` (its API is `package`) so that its `@inlinable` byte functions are
/// inlined in the other modules: the compiler does not serialise an `@inlinable` body for a
/// `package` type, and every byte a fake folded was a call.
public enum ASCII {
    /// The bytes the HTTP/1 parser looks for.
    static let cr = UInt8(ascii: "\r")
    static let lf = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")

    /// `byte` with `A`–`Z` lowered to `a`–`z`; every other byte as it is.
    @inlinable
    package static func lowercase(_ byte: UInt8) -> UInt8 {
        byte &- 65 < 26 ? byte | 0x20 : byte
    }

    /// True for `0`–`9`, `a`–`f` and `A`–`F`: the digits of device tokens and of the long hex
    /// runs the log shortens.
    @inlinable
    package static func isHexDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10 || (byte | 0x20) &- UInt8(ascii: "a") < 6
    }

    /// `text.lowercased()`, without building a new String when `text` is lowercase ASCII
    /// already (device tokens as apps send them: a fake keys every request by one).
    package static func lowercased(_ text: String) -> String {
        var text = text
        return text.withUTF8(isLowercaseASCII) ? text : text.lowercased()
    }

    /// True when no byte is `A`-`Z` or above 0x7F, so `lowercased()` would return the same
    /// text. Branch-free over the bytes. (Contracts' `SWAR.isLowercaseASCII` answers the same
    /// eight bytes at a time; LoopbackHTTP keeps this one so that its fuzz targets build
    /// without the Contracts module.)
    static func isLowercaseASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var found: UInt8 = 0
        for byte in bytes { found |= (byte &- 65 < 26 ? 0x80 : 0) | byte }
        return found & 0x80 == 0
    }
}
