/// Why a byte sequence is not a JSON document (RFC 8259), and where.
///
/// `description` reads `line:column: message`, e.g.
/// `3:17: expected ',' or '}' after object member, found ']'`. The message names what the
/// reader expected and what it found, so a person can fix the file without a JSON spec.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The class of a syntax error, stable for tests and tooling; the message carries detail.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: String, Sendable, Hashable {
            case emptyDocument = "empty-document"
            case unexpectedCharacter = "unexpected-character"
            case trailingComma = "trailing-comma"
            case invalidLiteral = "invalid-literal"
            case invalidNumber = "invalid-number"
            case unterminatedString = "unterminated-string"
            case controlCharacter = "control-character"
            case invalidEscape = "invalid-escape"
            case loneSurrogate = "lone-surrogate"
            case invalidUTF8 = "invalid-utf8"
            case trailingContent = "trailing-content"
            case tooDeep = "too-deep"
        }

        private let code: Code
        private init(_ code: Code) { self.code = code }

        /// No value at all: empty input, only whitespace, or only a byte order mark.
        public static let emptyDocument = Kind(.emptyDocument)
        /// A byte that cannot start or continue the construct being read.
        public static let unexpectedCharacter = Kind(.unexpectedCharacter)
        /// A `,` directly before `]` or `}`.
        public static let trailingComma = Kind(.trailingComma)
        /// A word that is not `true`, `false` or `null` (e.g. `True`, `nul`).
        public static let invalidLiteral = Kind(.invalidLiteral)
        /// A number outside RFC 8259's grammar: leading zeros, `1.`, `1e`, `-`.
        public static let invalidNumber = Kind(.invalidNumber)
        /// A string with no closing quote before the end of input.
        public static let unterminatedString = Kind(.unterminatedString)
        /// A raw control character (U+0000–U+001F) inside a string.
        public static let controlCharacter = Kind(.controlCharacter)
        /// A backslash escape other than `\" \\ \/ \b \f \n \r \t \uXXXX`.
        public static let invalidEscape = Kind(.invalidEscape)
        /// A `\uD800`–`\uDFFF` escape that is not part of a high+low surrogate pair.
        public static let loneSurrogate = Kind(.loneSurrogate)
        /// Bytes in a string that are not well-formed UTF-8.
        public static let invalidUTF8 = Kind(.invalidUTF8)
        /// Anything but whitespace after the document's value.
        public static let trailingContent = Kind(.trailingContent)
        /// Arrays and objects nested deeper than the reader's `maxDepth`.
        public static let tooDeep = Kind(.tooDeep)

        public var description: String { code.rawValue }
    }

    /// What kind of mistake this is.
    public var kind: Kind
    /// Where the offending byte is (for an unterminated string: the end of input).
    public var position: SourcePosition
    /// What was expected and what was found, without the position.
    public var message: String

    /// Creates an error; the reader is the usual source, tests and tools may build expected ones.
    ///
    /// - Parameters:
    ///   - kind: The class of mistake.
    ///   - position: Where the offending byte is.
    ///   - message: What was expected and what was found, without the position.
    public init(_ kind: Kind, at position: SourcePosition, _ message: String) {
        self.kind = kind
        self.position = position
        self.message = message
    }

    /// `line:column: message`.
    public var description: String { "\(position): \(message)" }
}
