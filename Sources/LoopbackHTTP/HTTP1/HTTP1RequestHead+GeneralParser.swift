#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The general parser: any head, line by line, with the checks in the order that decides
/// which error a bad head gets (the common walk hands everything it does not expect here).
extension HTTP1RequestHead {
    /// Any head, checked line by line in the order that decides which error a bad one gets.
    static func parseGeneral(_ bytes: UnsafeBufferPointer<UInt8>, maxBodyBytes: Int) throws(HTTP1RequestError) -> HTTP1RequestHead {
        // Every line ends in CRLF (checked over the whole head first, as the answer must not
        // depend on which line is wrong first); trailing empty lines are not fields.
        let count = bytes.count
        var contentEnd = -1
        var lineCount = 0
        var lineStart = 0
        while lineStart < count {
            // memchr finds each CR (vectorised); a LF before it is a bare one.
            let index = find(ASCII.cr, in: bytes, from: lineStart, to: count)
            if find(ASCII.lf, in: bytes, from: lineStart, to: index) < index {
                throw .malformed("a bare LF in the request head; lines end in CRLF")
            }
            guard index < count else {
                contentEnd = count
                lineCount += 1
                break
            }
            guard index + 1 < count, bytes[index + 1] == ASCII.lf else {
                throw .malformed("a CR not followed by LF in the request head")
            }
            if index > lineStart { contentEnd = index }
            lineCount += 1
            lineStart = index + 2
        }
        guard contentEnd >= 0 else { throw .malformed("empty request") }

        let requestLineEnd = lineEnd(bytes, from: 0, limit: contentEnd)
        var result = try parseRequestLine(UnsafeBufferPointer(rebasing: bytes[0..<requestLineEnd]))

        // The fields are written as records into scratch memory and become the request's
        // HTTPFields with one copy: no String and no allocation per field (HTTPFields makes
        // Strings only when a field is read). A field's record is its name, its value and
        // 8 bytes, so the head's length plus 8 per line is always room enough.
        var special = SpecialFields(minorVersion: result.minorVersion)
        let scratch = max(1, contentEnd - requestLineEnd + 8 * lineCount)
        let fields: Result<HTTPFields, HTTP1RequestError> = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratch) { memory in
            var records = HTTPFields.RecordWriter(memory: memory)
            var fieldNumber = 0
            var lineStart = requestLineEnd + 2
            while lineStart < contentEnd {
                let end = lineEnd(bytes, from: lineStart, limit: contentEnd)
                fieldNumber += 1
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<end])
                let field: (name: Range<Int>, value: Range<Int>)
                do throws(HTTP1RequestError) {
                    field = try parseField(line, number: fieldNumber)
                } catch {
                    return .failure(error)
                }
                let name = UnsafeBufferPointer(rebasing: line[field.name])
                let value = UnsafeBufferPointer(rebasing: line[field.value])
                special.note(name: name, value: value)
                guard records.append(name: name, value: value) else {
                    return .failure(.headerTooLarge(limit: bytes.count))  // unreachable: the scratch fits every field
                }
                lineStart = end + 2
            }
            return .success(HTTPFields(records: records))
        }
        result.headers = try fields.get()
        try result.interpretFields(special, maxBodyBytes: maxBodyBytes)
        return result
    }

    /// The index of the CR ending the line that starts at `start`, or `limit`.
    @inline(__always)
    static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> Int {
        find(ASCII.cr, in: bytes, from: start, to: limit)
    }

    /// The index of the first `byte` in `bytes[start..<end]`, or `end` (memchr).
    @inline(__always)
    static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard start < end, let base = bytes.baseAddress else { return end }
        guard let hit = memchr(base + start, Int32(byte), end - start) else { return end }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
    }

    static func parseRequestLine(_ line: UnsafeBufferPointer<UInt8>) throws(HTTP1RequestError) -> HTTP1RequestHead {
        // METHOD SP TARGET SP VERSION: exactly two spaces, method and target not empty.
        let firstSpace = find(ASCII.space, in: line, from: 0, to: line.count)
        let secondSpace = find(ASCII.space, in: line, from: firstSpace + 1, to: line.count)
        let thirdSpace = find(ASCII.space, in: line, from: secondSpace + 1, to: line.count)
        guard secondSpace < line.count, thirdSpace == line.count, firstSpace > 0, secondSpace > firstSpace + 1 else {
            throw .malformed("the request line must be METHOD SP TARGET SP HTTP/1.1")
        }
        let methodBytes = UnsafeBufferPointer(rebasing: line[0..<firstSpace])
        let targetBytes = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
        let versionBytes = UnsafeBufferPointer(rebasing: line[(secondSpace + 1)...])
        guard versionBytes.count == 8, versionBytes[0] == UInt8(ascii: "H"), versionBytes[1] == UInt8(ascii: "T"),
              versionBytes[2] == UInt8(ascii: "T"), versionBytes[3] == UInt8(ascii: "P"), versionBytes[4] == UInt8(ascii: "/"),
              let major = digit(versionBytes[5]), versionBytes[6] == UInt8(ascii: "."), let minor = digit(versionBytes[7])
        else {
            throw .notHTTP("the request line's version is not HTTP/<digit>.<digit>")
        }
        guard major == 1, minor <= 1 else { throw .versionNotSupported(String(decoding: versionBytes, as: UTF8.self)) }
        for byte in methodBytes where !isTokenByte(byte) { throw .malformed("the method is not a token") }
        guard let method = knownMethod(methodBytes) else {
            throw .methodNotAllowed(String(decoding: methodBytes, as: UTF8.self))
        }
        for byte in targetBytes where byte <= 0x20 || byte >= 0x7F {
            throw .malformed("the request target holds a space, control or non-ASCII byte")
        }
        var target = String(decoding: targetBytes, as: UTF8.self)
        var authority: String?
        if targetBytes[0] == UInt8(ascii: "/") {
            // origin-form
        } else if target == "*" {
            guard method == "OPTIONS" else { throw .malformed("the target * is only for OPTIONS") }
        } else if let schemeEnd = target.range(of: "://"),
                  ["http", "https"].contains(target[..<schemeEnd.lowerBound].lowercased()) {
            let rest = target[schemeEnd.upperBound...]
            let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            authority = String(rest[..<slash])
            let path = String(rest[slash...])
            target = path.hasPrefix("/") ? path : "/" + path
        } else {
            throw .malformed("the request target must start with / (origin-form)")
        }
        return HTTP1RequestHead(
            method: method, target: target, authority: authority, minorVersion: minor,
            headers: HTTPFields(), framing: .none, keepAlive: minor == 1, expectsContinue: false)
    }

    /// The served method these bytes spell (case-sensitive, RFC 9110 §9.1), as a constant
    /// String (no allocation, no hashing); nil for any other.
    static func knownMethod(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        func spells(_ literal: StaticString) -> Bool {
            guard literal.utf8CodeUnitCount == bytes.count else { return false }
            let pointer = literal.utf8Start
            for index in 0..<bytes.count where pointer[index] != bytes[index] { return false }
            return true
        }
        switch bytes.count {
        case 3: return spells("GET") ? "GET" : spells("PUT") ? "PUT" : nil
        case 4: return spells("POST") ? "POST" : spells("HEAD") ? "HEAD" : nil
        case 5: return spells("PATCH") ? "PATCH" : nil
        case 6: return spells("DELETE") ? "DELETE" : nil
        case 7: return spells("OPTIONS") ? "OPTIONS" : nil
        default: return nil
        }
    }

    /// Checks one field line; returns where its name and (trimmed) value are in `line`.
    static func parseField(_ line: UnsafeBufferPointer<UInt8>, number: Int) throws(HTTP1RequestError) -> (name: Range<Int>, value: Range<Int>) {
        guard let first = line.first else { throw .malformed("empty header line \(number)") }
        if first == ASCII.space || first == ASCII.tab {
            throw .malformed("header line \(number) starts with whitespace (obs-fold is not accepted)")
        }
        var colon = 0
        while colon < line.count && line[colon] != UInt8(ascii: ":") { colon += 1 }
        guard colon < line.count else { throw .malformed("header line \(number) has no colon") }
        guard colon > 0 else { throw .malformed("header line \(number) has an empty name") }
        let last = line[colon - 1]
        if last == ASCII.space || last == ASCII.tab {
            throw .malformed("header line \(number) has whitespace before the colon")
        }
        for index in 0..<colon where !isTokenByte(line[index]) {
            throw .malformed("header line \(number) has a name that is not a token")
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == ASCII.space || line[valueStart] == ASCII.tab { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == ASCII.space || line[valueEnd - 1] == ASCII.tab { valueEnd -= 1 }
        for index in valueStart..<valueEnd {
            let byte = line[index]
            if byte != ASCII.tab && (byte < 0x20 || byte == 0x7F) {
                throw .malformed("header line \(number) has a control character in its value")
            }
        }
        return (0..<colon, valueStart..<valueEnd)
    }

    @inline(__always)
    static func digit(_ byte: UInt8) -> Int? {
        byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }
}
