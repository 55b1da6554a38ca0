/// Writes a ``JSONTree`` as deterministic text: two-space indentation, keys sorted by their
/// UTF-8 bytes, one member or item per line, `\n` line ends and a final newline.
///
/// Foundation's `JSONSerialization` is not used: its key order, number spelling and slash
/// escaping differ between Linux and macOS, and golden files must be byte-identical on both.
///
/// ```swift
/// let text = JSONTreeWriter.prettyText(.object(["b": .integer(1), "a": .bool(true)]))
/// // {\n  "a": true,\n  "b": 1\n}\n
/// ```
public enum JSONTreeWriter {
    /// The pretty-printed text of `tree`, ending with a newline.
    public static func prettyText(_ tree: JSONTree) -> String {
        var output = ""
        write(tree, indent: 0, into: &output)
        output += "\n"
        return output
    }

    /// The compact text of `tree` (no whitespace), with sorted keys.
    public static func compactText(_ tree: JSONTree) -> String {
        var output = ""
        writeCompact(tree, into: &output)
        return output
    }

    /// Keys in byte order, so the order never depends on the platform's string collation.
    static func sortedKeys(_ members: [String: JSONTree]) -> [String] {
        members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    private static func write(_ tree: JSONTree, indent: Int, into output: inout String) {
        switch tree {
        case .array(let items):
            guard !items.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += String(repeating: " ", count: indent + 2)
                write(item, indent: indent + 2, into: &output)
                output += index == items.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{\n"
            let keys = sortedKeys(members)
            for (index, key) in keys.enumerated() {
                output += String(repeating: " ", count: indent + 2)
                writeString(key, into: &output)
                output += ": "
                if let value = members[key] { write(value, indent: indent + 2, into: &output) }
                output += index == keys.count - 1 ? "\n" : ",\n"
            }
            output += String(repeating: " ", count: indent) + "}"
        default:
            writeCompact(tree, into: &output)
        }
    }

    private static func writeCompact(_ tree: JSONTree, into output: inout String) {
        switch tree {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += numberText(value)
        case .string(let text): writeString(text, into: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                writeCompact(item, into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, key) in sortedKeys(members).enumerated() {
                if index > 0 { output += "," }
                writeString(key, into: &output)
                output += ":"
                if let value = members[key] { writeCompact(value, into: &output) }
            }
            output += "}"
        }
    }

    /// Whole doubles within ±2^53 are written as integers (`1`, not `1.0`); others with
    /// Swift's shortest round-trip spelling. Non-finite values, which JSON cannot hold, as null.
    static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return "\(value)"
    }

    /// `text` as a JSON string literal, quotes included (see ``writeString(_:into:)``).
    package static func quoted(_ text: String) -> String {
        var result = ""
        writeString(text, into: &result)
        return result
    }

    /// A JSON string: `"` and `\` escaped, control characters and DEL as short escapes or
    /// `\u00XX`, everything else (including non-ASCII) as is. The CLI's reports use it too.
    package static func writeString(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
