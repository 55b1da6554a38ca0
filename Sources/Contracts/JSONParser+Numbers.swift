/// Numbers, read against RFC 8259's grammar:
/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
extension JSONParser {
    /// Reads the number at `index` (a `-` or a digit) and moves past it.
    ///
    /// Integers are accumulated exactly into `Int64` (negatives downward, so `Int64.min`
    /// fits); a literal too big for `Int64` stays an integer literal with `integerValue` nil.
    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        let startPosition = position
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index &+= 1 }
        guard let first = byte(at: index), isDigit(first) else {
            throw JSONSyntaxError(.invalidNumber, at: position,
                                  "invalid number: expected a digit after '-', found \(describeFound())\(hint())")
        }
        var value: Int64 = 0
        var overflow = false
        if first == UInt8(ascii: "0") {
            index &+= 1
            if let next = byte(at: index), isDigit(next) {
                throw JSONSyntaxError(.invalidNumber, at: startPosition,
                                      "invalid number: expected '.', 'e' or the end of the number after a leading '0', found '\(Character(Unicode.Scalar(next)))' (JSON does not allow leading zeros)")
            }
        } else {
            while let digitByte = byte(at: index), isDigit(digitByte) {
                if !overflow {
                    let digit = Int64(digitByte &- UInt8(ascii: "0"))
                    let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
                    let (next, o2) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
                    value = next
                    overflow = o1 || o2
                }
                index &+= 1
            }
        }
        var isInteger = true
        let integerEnd = index
        var fractionDigits = 0
        var exponentValue = 0
        if byte(at: index) == UInt8(ascii: ".") {
            index &+= 1
            guard let digit = byte(at: index), isDigit(digit) else {
                throw JSONSyntaxError(.invalidNumber, at: position,
                                      "invalid number: expected a digit after '.', found \(describeFound())")
            }
            let fractionStart = index
            skipDigits()
            fractionDigits = index &- fractionStart
            isInteger = false
        }
        if let exponent = byte(at: index), exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E") {
            index &+= 1
            var exponentSign = 1
            if let sign = byte(at: index), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                if sign == UInt8(ascii: "-") { exponentSign = -1 }
                index &+= 1
            }
            guard let digit = byte(at: index), isDigit(digit) else {
                throw JSONSyntaxError(.invalidNumber, at: position,
                                      "invalid number: expected a digit in the exponent, found \(describeFound())")
            }
            while let digit = byte(at: index), isDigit(digit) {
                if exponentValue < 100_000 { exponentValue = exponentValue &* 10 &+ Int(digit &- UInt8(ascii: "0")) }
                index &+= 1
            }
            exponentValue = exponentValue &* exponentSign
            isInteger = false
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger && !overflow {
            let double = negative && value == 0 ? -0.0 : Double(value)
            return JSONNumber(literal: literal, integerValue: value, doubleValue: double, isIntegerLiteral: true)
        }
        let double = fastDouble(start: start, integerEnd: integerEnd, fractionDigits: fractionDigits,
                                exponent: exponentValue, negative: negative)
            // The grammar above is a subset of what Double's parser takes; it rounds correctly
            // and yields ±infinity or ±0 for exponents out of range.
            ?? Double(literal) ?? (negative ? -Double.infinity : Double.infinity)
        return JSONNumber(literal: literal, integerValue: nil, doubleValue: double, isIntegerLiteral: isInteger)
    }

    /// Clinger's fast path: when all significant digits fit in 53 bits and the power of ten
    /// is at most 10^22, one IEEE multiplication or division of two exact values is correctly
    /// rounded. Returns nil otherwise (the caller then uses the full decimal parser).
    private func fastDouble(start: Int, integerEnd: Int, fractionDigits: Int, exponent: Int, negative: Bool) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        var offset = negative ? start &+ 1 : start
        let fractionEnd = integerEnd &+ (fractionDigits > 0 ? 1 &+ fractionDigits : 0)
        while offset < fractionEnd, offset < end {
            let byte = bytes[offset]
            offset &+= 1
            if byte == UInt8(ascii: ".") { continue }
            digits &+= 1
            if digits > 19 { return nil }
            mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
        }
        guard mantissa <= 1 << 53 else { return nil }
        let power = exponent &- fractionDigits
        guard power >= -22 && power <= 22 else { return nil }
        var value = Double(mantissa)
        let scale = Self.powerOfTen(power < 0 ? -power : power)
        value = power < 0 ? value / scale : value * scale
        return negative ? -value : value
    }

    /// 10^n for 0 ≤ n ≤ 22, all exactly representable as Double.
    private static func powerOfTen(_ n: Int) -> Double {
        var result = 1.0
        var remaining = n
        var base = 10.0
        // Square-and-multiply: for n ≤ 22 every base (10, 10^2, 10^4, 10^8, 10^16) and every
        // partial product is a power of ten ≤ 10^22, so each step is exact.
        while remaining > 0 {
            if remaining & 1 == 1 { result *= base }
            remaining >>= 1
            if remaining > 0 { base *= base }
        }
        return result
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    @inline(__always) private mutating func skipDigits() {
        while let byte = byte(at: index), isDigit(byte) { index &+= 1 }
    }
}
