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
        if byte(at: index) == UInt8(ascii: ".") {
            index &+= 1
            guard let digit = byte(at: index), isDigit(digit) else {
                throw JSONSyntaxError(.invalidNumber, at: position,
                                      "invalid number: expected a digit after '.', found \(describeFound())")
            }
            skipDigits()
            isInteger = false
        }
        if let exponent = byte(at: index), exponent == UInt8(ascii: "e") || exponent == UInt8(ascii: "E") {
            index &+= 1
            if let sign = byte(at: index), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index &+= 1 }
            guard let digit = byte(at: index), isDigit(digit) else {
                throw JSONSyntaxError(.invalidNumber, at: position,
                                      "invalid number: expected a digit in the exponent, found \(describeFound())")
            }
            skipDigits()
            isInteger = false
        }
        let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger && !overflow {
            let double = negative && value == 0 ? -0.0 : Double(value)
            return JSONNumber(literal: literal, integerValue: value, doubleValue: double, isIntegerLiteral: true)
        }
        // The grammar above is a subset of what Double's parser takes; it rounds correctly
        // and yields ±infinity for exponents out of range.
        let double = Double(literal) ?? (negative ? -Double.infinity : Double.infinity)
        return JSONNumber(literal: literal, integerValue: nil, doubleValue: double, isIntegerLiteral: isInteger)
    }

    @inline(__always) private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    @inline(__always) private mutating func skipDigits() {
        while let byte = byte(at: index), isDigit(byte) { index &+= 1 }
    }
}
