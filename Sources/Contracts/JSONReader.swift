/// Reads RFC 8259 JSON into a `JSONNode` tree that remembers where every value and key starts.
///
/// Unlike `JSONSerialization`, the reader tells `1` from `1.0` from `true`, keeps duplicate
/// keys (in source order, so a validator can report both), and says exactly where and why a
/// document is malformed. It never traps on any input: every byte sequence yields a tree or a
/// `JSONSyntaxError`.
///
/// ```swift
/// let node = try JSONReader.parse(Array(#"{"aps": {"mutable-content": 1}}"#.utf8))
/// node.member("aps")?.value.member("mutable-content")?.value.position  // 1:29
/// ```
///
/// What it accepts is exactly RFC 8259's grammar, with one allowance: a leading UTF-8 byte
/// order mark (EF BB BF) is skipped, as the RFC permits ("MAY ignore"), because editors on
/// Windows write one; it does not count as a column. Anything else the RFC rejects is an
/// error: trailing commas, comments, `NaN`/`Infinity`, leading zeros, `+1`, `.5`, `1.`,
/// single quotes, raw control characters in strings, unknown escapes, ill-formed UTF-8
/// (overlong forms, encoded surrogates, code points above U+10FFFF, truncated sequences),
/// lone surrogate escapes, and anything after the value.
///
/// Positions: lines and columns are 1-based; a line ends at LF, CR LF, or a lone CR; the
/// column counts Unicode scalars, so `é` is one column however many bytes it takes.
public enum JSONReader {
    /// The nesting depth `parse` allows unless told otherwise; APNs payloads need about 4.
    public static let defaultMaxDepth = 128

    /// The deepest nesting any `maxDepth` can ask for; larger requests are lowered to it.
    ///
    /// Reading is iterative, but releasing or comparing a `JSONValue` tree recurses once per
    /// level, so a tree much deeper than this could exhaust a thread's stack after parsing.
    public static let depthCeiling = 4096

    /// Parses one JSON document.
    ///
    /// - Parameters:
    ///   - bytes: The UTF-8 document.
    ///   - maxDepth: The most arrays and objects that may be open at once; deeper input is a
    ///     `.tooDeep` error, never a stack overflow (the reader keeps its own stack).
    ///     Capped at `depthCeiling`.
    /// - Returns: The root value with its position.
    /// - Throws: `JSONSyntaxError` naming the line, column and byte offset of the first
    ///   mistake, what was expected there and what was found.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONNode {
        try bytes.withUnsafeBufferPointer { read($0, maxDepth: maxDepth) }.get()
    }

    /// Parses one JSON document from raw memory (for callers holding `Data` or a socket buffer).
    ///
    /// - Parameters:
    ///   - buffer: The UTF-8 document; only read during the call.
    ///   - maxDepth: The most arrays and objects that may be open at once.
    /// - Throws: `JSONSyntaxError`, as `parse(_:maxDepth:)` for `[UInt8]`.
    public static func parse(_ buffer: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONNode {
        try buffer.withMemoryRebound(to: UInt8.self) { read($0, maxDepth: maxDepth) }.get()
    }

    /// Parses one JSON document from any byte sequence (e.g. `Data`, `ArraySlice<UInt8>`).
    ///
    /// Contiguous sequences are read in place; others are copied once.
    /// - Throws: `JSONSyntaxError`, as `parse(_:maxDepth:)` for `[UInt8]`.
    public static func parse(_ bytes: some Sequence<UInt8>, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONNode {
        if let inPlace = bytes.withContiguousStorageIfAvailable({ read($0, maxDepth: maxDepth) }) {
            return try inPlace.get()
        }
        return try parse(Array(bytes), maxDepth: maxDepth)
    }

    /// Parses one JSON document held in a string (its UTF-8 form), handy in tests.
    ///
    /// - Throws: `JSONSyntaxError`, as `parse(_:maxDepth:)` for `[UInt8]`.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONSyntaxError) -> JSONNode {
        try parse(text.utf8, maxDepth: maxDepth)
    }

    /// The one entry to the parser; a `Result` so no closure-taking API needs typed throws.
    private static func read(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) -> Result<JSONNode, JSONSyntaxError> {
        var parser = JSONParser(bytes, maxDepth: maxDepth)
        do throws(JSONSyntaxError) {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}
