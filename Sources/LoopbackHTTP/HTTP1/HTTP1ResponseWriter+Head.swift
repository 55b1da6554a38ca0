/// A response head composed in temporary memory (the stack, for any usual head) and appended
/// to the output in one go, instead of a dozen appends of a few bytes each (every one checks
/// the buffer's uniqueness and capacity). The one writer of HTTP/1.1 heads: whole responses
/// and streamed ones.
extension HTTP1ResponseWriter {
    /// Appends the status line, the handler's fields (framing fields dropped, values
    /// sanitised), then the server's framing fields: `content-length` when `contentLength`
    /// is given, `transfer-encoding: chunked` when `chunked`, the `connection` field
    /// `closing` and `minorVersion` call for; then the empty line. `status` is final.
    static func appendHead(_ status: HTTPStatus, _ headers: HTTPFields, contentLength: Int?, chunked: Bool = false,
                           closing: Bool, minorVersion: Int, to out: inout [UInt8]) {
        var reason = status.reasonPhrase
        reason.withUTF8 { reason in
            // Status line 15 + reason, content-length 16 + 20 digits + 2, transfer-encoding 28,
            // connection 24, empty line 2.
            var size = 15 + reason.count + 38 + 28 + 24 + 2
            headers.forEachFieldBytes { name, value in size += name.count + value.count + 4 }
            // Larger than the stack allows (a handler's huge field), it is heap memory instead.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: size) { memory in
                guard let base = memory.baseAddress else { return }
                var head = HeadCursor(base: base)
                head.put("HTTP/1.1 ")
                let code = min(max(status.code, 0), 999)  // final: three digits
                head.put(UInt8(ascii: "0") + UInt8(code / 100))
                head.put(UInt8(ascii: "0") + UInt8(code / 10 % 10))
                head.put(UInt8(ascii: "0") + UInt8(code % 10))
                head.put(ASCII.space)
                head.putSanitised(reason)
                head.put("\r\n")
                headers.forEachFieldBytes { name, value in
                    guard !name.isEmpty, !isFramingField(name) else { return }
                    for byte in name where !isTokenByte(byte) { return }
                    head.put(name)
                    head.put(": ")
                    head.putSanitised(value)
                    head.put("\r\n")
                }
                if let contentLength {
                    head.put("content-length: ")
                    head.putDecimal(contentLength)
                    head.put("\r\n")
                }
                if chunked { head.put("transfer-encoding: chunked\r\n") }
                if closing {
                    head.put("connection: close\r\n")
                } else if minorVersion == 0 {
                    head.put("connection: keep-alive\r\n")
                }
                head.put("\r\n")
                out.append(contentsOf: UnsafeBufferPointer(start: base, count: head.count))
            }
        }
    }

    /// Writes forward from `base`; the caller sized the memory for everything written.
    private struct HeadCursor {
        let base: UnsafeMutablePointer<UInt8>
        private(set) var count = 0

        init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

        @inline(__always)
        mutating func put(_ byte: UInt8) {
            base[count] = byte
            count += 1
        }

        @inline(__always)
        mutating func put(_ text: StaticString) {
            (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
            count += text.utf8CodeUnitCount
        }

        @inline(__always)
        mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
            if let source = bytes.baseAddress { (base + count).update(from: source, count: bytes.count) }
            count += bytes.count
        }

        /// CR, LF and NUL become spaces, as ``HTTP1ResponseWriter`` promises.
        @inline(__always)
        mutating func putSanitised(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes { put(byte == ASCII.cr || byte == ASCII.lf || byte == 0 ? ASCII.space : byte) }
        }

        /// A non-negative number in decimal (a negative one, impossible here, is written as 0).
        mutating func putDecimal(_ value: Int) {
            var rest = max(value, 0)
            var digits = 1
            var scale = 10
            while digits < 19 && rest >= scale {
                digits += 1
                scale &*= 10
            }
            var index = count + digits
            repeat {
                index -= 1
                base[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            count += digits
        }
    }
}
