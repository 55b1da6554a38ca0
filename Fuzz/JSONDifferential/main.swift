// Classifier for Fuzz/json-differential.py: reads base64 lines on stdin and prints, per
// line, `-` when JSONReader rejects the decoded bytes, else the value in a canonical form
// the script also derives from CPython's json: last duplicate key wins (in first-seen
// order), integers as digits, decimals as the hex of their IEEE bits, strings escaped as
// json.dumps(ensure_ascii=True) escapes them.
import Foundation

func canonical(_ value: JSONValue, into out: inout String) {
    switch value {
    case .null: out += "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .number(let number):
        if number.isIntegerLiteral {
            out += number.literal == "-0" ? "0" : number.literal
        } else {
            let hex = String(number.doubleValue.bitPattern, radix: 16)
            out += "f" + String(repeating: "0", count: 16 - hex.count) + hex
        }
    case .string(let text): escape(text, into: &out)
    case .array(let elements):
        out += "["
        for (index, element) in elements.enumerated() {
            if index > 0 { out += "," }
            canonical(element.value, into: &out)
        }
        out += "]"
    case .object(let members):
        var order: [String] = []
        var last: [String: JSONValue] = [:]
        for member in members {
            if last[member.key] == nil { order.append(member.key) }
            last[member.key] = member.value.value
        }
        out += "{"
        for (index, key) in order.enumerated() {
            if index > 0 { out += "," }
            escape(key, into: &out)
            out += ":"
            if let value = last[key] { canonical(value, into: &out) }
        }
        out += "}"
    }
}

func escape(_ text: String, into out: inout String) {
    out += "\""
    for unit in text.utf16 {
        switch unit {
        case 0x22: out += "\\\""
        case 0x5C: out += "\\\\"
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x08: out += "\\b"
        case 0x0C: out += "\\f"
        case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
        default:
            let hex = String(unit, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }
    out += "\""
}

var lines = ""
while let line = readLine() {
    if let data = Data(base64Encoded: line), let node = try? JSONReader.parse(data) {
        canonical(node.value, into: &lines)
        lines += "\n"
    } else {
        lines += "-\n"
    }
}
print(lines, terminator: "")
