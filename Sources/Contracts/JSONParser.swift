/// The byte-level state machine behind `JSONReader`: one pass over a buffer, no recursion.
///
/// Containers are kept on an explicit stack, so nesting depth costs heap, not call stack,
/// and `maxDepth` is a policy rather than a guard against crashing. Every read checks
/// `index < end` first; the buffer is never indexed out of range.
struct JSONParser {
    /// An array or object being filled.
    private struct Frame {
        var isObject: Bool
        var start: SourcePosition
        var elements: [JSONNode] = []
        var members: [JSONMember] = []
        var key: String = ""
        var keyPosition: SourcePosition
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let end: Int
    let maxDepth: Int
    var index = 0
    var line = 1
    /// Byte offset where the current line starts.
    var lineStart = 0
    /// Bytes on the current line that do not start a scalar (UTF-8 continuation bytes, a BOM).
    var nonColumnBytes = 0
    /// Reused buffer for strings that contain escapes.
    var scratch: [UInt8] = []
    /// Keys read without building a String (none: every key read as a string).
    let knownKeys: KnownKeys
    private var stack: [Frame] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, knownKeys: KnownKeys = .v1) {
        self.knownKeys = knownKeys
        self.bytes = bytes
        self.end = bytes.count
        self.maxDepth = min(max(0, maxDepth), JSONReader.depthCeiling)
    }

    // MARK: Positions

    var position: SourcePosition {
        SourcePosition(line: line, column: index &- lineStart &- nonColumnBytes &+ 1, offset: index)
    }

    @inline(__always) func byte(at offset: Int) -> UInt8? {
        offset < end && offset >= 0 ? bytes[offset] : nil
    }

    @inline(__always) mutating func skipWhitespace() {
        while index < end {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index &+= 1
            case UInt8(ascii: "\n"):
                index &+= 1
                newLine()
            case UInt8(ascii: "\r"):
                index &+= 1
                if index < end && bytes[index] == UInt8(ascii: "\n") { continue }
                newLine()
            default:
                return
            }
        }
    }

    @inline(__always) private mutating func newLine() {
        line &+= 1
        lineStart = index
        nonColumnBytes = 0
    }

    // MARK: Document

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        if end >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            index = 3
            nonColumnBytes = 3
        }
        skipWhitespace()
        if index >= end {
            throw JSONSyntaxError(.emptyDocument, at: position, "empty document: expected a JSON value")
        }
        var context = "expected a JSON value"
        while true {
            // Here: whitespace skipped, a value must start at `index`.
            var node: JSONNode
            let start = position
            guard let first = byte(at: index) else {
                throw valueError(context, at: start)
            }
            switch first {
            case UInt8(ascii: "{"):
                try push(isObject: true, at: start)
                index &+= 1
                skipWhitespace()
                if byte(at: index) == UInt8(ascii: "}") {
                    index &+= 1
                    node = popFrame()
                } else {
                    try readKey(after: "'{'", allowClose: true)
                    context = "expected a JSON value after ':'"
                    continue
                }
            case UInt8(ascii: "["):
                try push(isObject: false, at: start)
                index &+= 1
                skipWhitespace()
                if byte(at: index) == UInt8(ascii: "]") {
                    index &+= 1
                    node = popFrame()
                } else {
                    context = "expected a JSON value or ']' after '['"
                    continue
                }
            case UInt8(ascii: "\""):
                node = JSONNode(.string(try parseString()), at: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                node = JSONNode(.number(try parseNumber()), at: start)
            case UInt8(ascii: "t"):
                try expectLiteral("true")
                node = JSONNode(.bool(true), at: start)
            case UInt8(ascii: "f"):
                try expectLiteral("false")
                node = JSONNode(.bool(false), at: start)
            case UInt8(ascii: "n"):
                try expectLiteral("null")
                node = JSONNode(.null, at: start)
            default:
                throw valueError(context, at: start)
            }
            // A value is complete: hand it to its container, closing containers as we go.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    if index < end {
                        throw JSONSyntaxError(.trailingContent, at: position,
                                              "expected end of document after the JSON value, found \(describeFound())")
                    }
                    return node
                }
                let top = stack.count &- 1
                let isObject = stack[top].isObject
                // The key and the value move into the container (no retain and release):
                // the frame's key is taken (the next member's key replaces it), the node consumed.
                if isObject {
                    var key = ""
                    swap(&key, &stack[top].key)
                    if stack[top].members.capacity == 0 { stack[top].members.reserveCapacity(8) }
                    stack[top].members.append(JSONMember(key: key, keyPosition: stack[top].keyPosition, value: consume node))
                } else {
                    if stack[top].elements.capacity == 0 { stack[top].elements.reserveCapacity(4) }
                    stack[top].elements.append(consume node)
                }
                skipWhitespace()
                let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let next = byte(at: index)
                if next == UInt8(ascii: ",") {
                    index &+= 1
                    skipWhitespace()
                    if isObject {
                        try readKey(after: "','", allowClose: false)
                        context = "expected a JSON value after ':'"
                    } else {
                        if byte(at: index) == closer {
                            throw trailingComma(closer: "]")
                        }
                        context = "expected a JSON value after ','"
                    }
                    break
                } else if next == closer {
                    index &+= 1
                    node = popFrame()
                } else {
                    let what = isObject ? "expected ',' or '}' after object member" : "expected ',' or ']' after array element"
                    throw JSONSyntaxError(.unexpectedCharacter, at: position, "\(what), found \(describeFound())\(hint())")
                }
            }
        }
    }

    // MARK: Containers

    private mutating func push(isObject: Bool, at start: SourcePosition) throws(JSONSyntaxError) {
        if stack.count >= maxDepth {
            throw JSONSyntaxError(.tooDeep, at: start,
                                  "nesting too deep: expected at most \(maxDepth) levels of arrays and objects, found another '\(isObject ? "{" : "[")'")
        }
        if stack.capacity == 0 { stack.reserveCapacity(8) }  // one allocation, not one per level up to 4
        stack.append(Frame(isObject: isObject, start: start, keyPosition: start))
    }

    private mutating func popFrame() -> JSONNode {
        guard let frame = stack.popLast() else { return JSONNode(.null) }
        return frame.isObject
            ? JSONNode(.object(frame.members), at: frame.start)
            : JSONNode(.array(frame.elements), at: frame.start)
    }

    /// Reads `"key"` `:` and the whitespace after it, storing the key in the top frame.
    private mutating func readKey(after what: String, allowClose: Bool) throws(JSONSyntaxError) {
        guard byte(at: index) == UInt8(ascii: "\"") else {
            if byte(at: index) == UInt8(ascii: "}") && !allowClose {
                throw trailingComma(closer: "}")
            }
            let expected = allowClose ? "expected a string key or '}' after \(what)" : "expected a string key after \(what)"
            throw JSONSyntaxError(.unexpectedCharacter, at: position, "\(expected), found \(describeFound())\(hint())")
        }
        let keyPosition = position
        let key = try parseKey()
        let top = stack.count &- 1
        if top >= 0 {
            stack[top].key = key
            stack[top].keyPosition = keyPosition
        }
        skipWhitespace()
        guard byte(at: index) == UInt8(ascii: ":") else {
            throw JSONSyntaxError(.unexpectedCharacter, at: position,
                                  "expected ':' after object key \"\(key)\", found \(describeFound())\(hint())")
        }
        index &+= 1
        skipWhitespace()
    }

    private func trailingComma(closer: String) -> JSONSyntaxError {
        JSONSyntaxError(.trailingComma, at: position,
                        "expected a \(closer == "}" ? "string key" : "JSON value") after ',', found '\(closer)' (JSON does not allow trailing commas; remove the ',')")
    }

    // MARK: Literals

    private mutating func expectLiteral(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected -> Bool in
            guard end &- index >= count else { return false }
            for offset in 0..<count where bytes[index &+ offset] != expected[offset] {
                return false
            }
            return true
        }
        guard matches else {
            throw JSONSyntaxError(.invalidLiteral, at: position, "expected '\(word)', found \(describeFound())\(hint())")
        }
        index &+= count
    }

    // MARK: Describing what was found

    private func valueError(_ context: String, at start: SourcePosition) -> JSONSyntaxError {
        let next = byte(at: index)
        if next == UInt8(ascii: "]") || next == UInt8(ascii: "}"), context.hasSuffix("after ','") {
            return trailingComma(closer: next == UInt8(ascii: "]") ? "]" : "}")
        }
        return JSONSyntaxError(.unexpectedCharacter, at: start, "\(context), found \(describeFound())\(hint())")
    }

    /// A short, quoted rendering of the input at `index`: a word, a character, or a byte.
    func describeFound(at offset: Int? = nil) -> String {
        let at = offset ?? index
        guard let first = byte(at: at) else { return "end of input" }
        if isWordByte(first) {
            var stop = at
            while let next = byte(at: stop), isWordByte(next), stop &- at < 24 { stop &+= 1 }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[at..<stop]), as: UTF8.self)
            return "'\(word)'"
        }
        switch first {
        case UInt8(ascii: "\n"): return "a line break"
        case UInt8(ascii: "\r"): return "a carriage return"
        case UInt8(ascii: "\t"): return "a tab"
        case UInt8(ascii: "'"): return "\"'\""
        case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(first)))'"
        case 0..<0x20, 0x7F: return "control character \(Self.scalarName(UInt32(first)))"
        default:
            if let (scalar, _) = decodeScalar(at: at) {
                return "'\(Character(scalar))' (\(Self.scalarName(scalar.value)))"
            }
            return "invalid UTF-8 byte \(Self.hexByte(first))"
        }
    }

    private func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            return true
        default:
            return false
        }
    }

    /// Why a byte someone wrote is not JSON, when the usual reason is known.
    func hint(at offset: Int? = nil) -> String {
        let at = offset ?? index
        switch byte(at: at) {
        case UInt8(ascii: "/"), UInt8(ascii: "#"): return " (JSON has no comments)"
        case UInt8(ascii: "'"): return " (JSON strings use double quotes)"
        case UInt8(ascii: "+"): return " (JSON numbers have no '+' sign)"
        case UInt8(ascii: "."): return " (JSON numbers need a digit before '.', e.g. 0.5)"
        case UInt8(ascii: "N"), UInt8(ascii: "I"): return " (NaN and Infinity are not JSON numbers)"
        case 0xFE, 0xFF: return " (JSON must be UTF-8, not UTF-16)"
        case 0xE2:
            // “ ” ‘ ’: quotes an editor "smartened".
            if byte(at: at &+ 1) == 0x80, let third = byte(at: at &+ 2), (0x98...0x9D).contains(third) {
                return " (typographic quote; JSON strings use '\"')"
            }
            return ""
        default: return ""
        }
    }

    static func scalarName(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 &- hex.count)) + hex
    }

    static func hexByte(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count < 2 ? "0" : "") + hex
    }
}
