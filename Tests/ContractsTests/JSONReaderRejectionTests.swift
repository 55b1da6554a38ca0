import Testing
@testable import Contracts

/// Everything RFC 8259 rejects is rejected, at the right place, with a message that says
/// what was expected and what was found.
@Suite struct JSONReaderRejectionTests {
    struct Rejection: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        var kind: JSONSyntaxError.Kind
        var line: Int
        var column: Int
        var offset: Int?
        var fragment: String
        var name: String

        init(_ text: String, _ kind: JSONSyntaxError.Kind, _ line: Int, _ column: Int, offset: Int? = nil, _ fragment: String) {
            self.init(Array(text.utf8), kind, line, column, offset: offset, fragment, name: text.debugDescription)
        }

        init(_ bytes: [UInt8], _ kind: JSONSyntaxError.Kind, _ line: Int, _ column: Int, offset: Int? = nil, _ fragment: String, name: String? = nil) {
            self.bytes = bytes
            self.kind = kind
            self.line = line
            self.column = column
            self.offset = offset
            self.fragment = fragment
            self.name = name ?? bytes.map { String($0, radix: 16) }.joined(separator: " ")
        }

        var testDescription: String { name }
    }

    static let structure: [Rejection] = [
        Rejection("", .emptyDocument, 1, 1, offset: 0, "1:1: empty document: expected a JSON value"),
        Rejection(" \n  ", .emptyDocument, 2, 3, "empty document"),
        Rejection([0xEF, 0xBB, 0xBF], .emptyDocument, 1, 1, offset: 3, "empty document: expected a JSON value"),
        Rejection("[1,2,]", .trailingComma, 1, 6, "1:6: expected a JSON value after ',', found ']' (JSON does not allow trailing commas"),
        Rejection("{\"a\":1,}", .trailingComma, 1, 8, "expected a string key after ',', found '}'"),
        Rejection("[1 2]", .unexpectedCharacter, 1, 4, "expected ',' or ']' after array element, found '2'"),
        Rejection("{\n  \"a\": 1]", .unexpectedCharacter, 2, 9, "2:9: expected ',' or '}' after object member, found ']'"),
        Rejection("{\n  \"a\": 1\n  \"b\": 2\n}", .unexpectedCharacter, 3, 3, "expected ',' or '}' after object member, found '\"'"),
        Rejection("[", .unexpectedCharacter, 1, 2, "expected a JSON value or ']' after '[', found end of input"),
        Rejection("{", .unexpectedCharacter, 1, 2, "expected a string key or '}' after '{', found end of input"),
        Rejection("{\"a\"}", .unexpectedCharacter, 1, 5, "expected ':' after object key \"a\", found '}'"),
        Rejection("{\"a\":}", .unexpectedCharacter, 1, 6, "expected a JSON value after ':', found '}'"),
        Rejection("{\"a\": 1, \"b\"", .unexpectedCharacter, 1, 13, "expected ':' after object key \"b\", found end of input"),
        Rejection("{,}", .unexpectedCharacter, 1, 2, "expected a string key or '}' after '{', found ','"),
        Rejection("{a: 1}", .unexpectedCharacter, 1, 2, "expected a string key or '}' after '{', found 'a'"),
        Rejection("[,1]", .unexpectedCharacter, 1, 2, "expected a JSON value or ']' after '[', found ','"),
        Rejection("[1,,2]", .unexpectedCharacter, 1, 4, "expected a JSON value after ',', found ','"),
        Rejection("[1] x", .trailingContent, 1, 5, "expected end of document after the JSON value, found 'x'"),
        Rejection("{} {}", .trailingContent, 1, 4, "found '{'"),
        Rejection("{\"a\":1}}", .trailingContent, 1, 8, "found '}'"),
        Rejection("[1]\u{0}", .trailingContent, 1, 4, "found control character U+0000"),
        Rejection("0x1F", .trailingContent, 1, 2, "found 'x1F'"),
        // Comments
        Rejection("// comment\n{}", .unexpectedCharacter, 1, 1, "expected a JSON value, found '/' (JSON has no comments)"),
        Rejection("[1, /* c */ 2]", .unexpectedCharacter, 1, 5, "(JSON has no comments)"),
        Rejection("{\"a\": 1 # c\n}", .unexpectedCharacter, 1, 9, "found '#' (JSON has no comments)"),
        // Literals
        Rejection("NaN", .unexpectedCharacter, 1, 1, "expected a JSON value, found 'NaN' (NaN and Infinity are not JSON numbers)"),
        Rejection("[Infinity]", .unexpectedCharacter, 1, 2, "found 'Infinity' (NaN and Infinity"),
        Rejection("True", .unexpectedCharacter, 1, 1, "expected a JSON value, found 'True'"),
        Rejection("undefined", .unexpectedCharacter, 1, 1, "found 'undefined'"),
        Rejection("tru", .invalidLiteral, 1, 1, "expected 'true', found 'tru'"),
        Rejection("[nul]", .invalidLiteral, 1, 2, "expected 'null', found 'nul'"),
        Rejection("fals", .invalidLiteral, 1, 1, "expected 'false', found 'fals'"),
        Rejection("[truex]", .unexpectedCharacter, 1, 6, "expected ',' or ']' after array element, found 'x'"),
        // Numbers
        Rejection("-Infinity", .invalidNumber, 1, 2, "expected a digit after '-', found 'Infinity'"),
        Rejection("01", .invalidNumber, 1, 1, "leading '0', found '1' (JSON does not allow leading zeros)"),
        Rejection("[-012]", .invalidNumber, 1, 2, "leading zeros"),
        Rejection("+1", .unexpectedCharacter, 1, 1, "expected a JSON value, found '+' (JSON numbers have no '+' sign)"),
        Rejection(".5", .unexpectedCharacter, 1, 1, "found '.' (JSON numbers need a digit before '.', e.g. 0.5)"),
        Rejection("1.", .invalidNumber, 1, 3, "expected a digit after '.', found end of input"),
        Rejection("[1.e5]", .invalidNumber, 1, 4, "expected a digit after '.', found 'e5'"),
        Rejection("1e", .invalidNumber, 1, 3, "expected a digit in the exponent, found end of input"),
        Rejection("1e+]", .invalidNumber, 1, 4, "expected a digit in the exponent, found ']'"),
        Rejection("-", .invalidNumber, 1, 2, "expected a digit after '-', found end of input"),
        Rejection("- 1", .invalidNumber, 1, 2, "found ' '"),
        // Quotes
        Rejection("'a'", .unexpectedCharacter, 1, 1, "expected a JSON value, found \"'\" (JSON strings use double quotes)"),
        Rejection("{'a': 1}", .unexpectedCharacter, 1, 2, "expected a string key or '}' after '{', found \"'\" (JSON strings use double quotes)"),
        Rejection("{“a”: 1}", .unexpectedCharacter, 1, 2, "found '“' (U+201C) (typographic quote"),
    ]

    static let strings: [Rejection] = [
        Rejection("\"abc", .unterminatedString, 1, 5, "unterminated string: expected a closing '\"', found end of input"),
        Rejection("\"abc\\", .unterminatedString, 1, 6, "unterminated string"),
        Rejection("\"a\\n", .unterminatedString, 1, 5, "unterminated string"),
        Rejection("\"a\nb\"", .controlCharacter, 1, 3, "unescaped control character U+000A in string: expected it written as \\n"),
        Rejection("\"a\tb\"", .controlCharacter, 1, 3, "U+0009 in string: expected it written as \\t"),
        Rejection("[\"x\\n\u{1}\"]", .controlCharacter, 1, 6, "U+0001 in string: expected it written as \\u0001"),
        Rejection("\"\\x\"", .invalidEscape, 1, 2, "invalid escape in string: expected one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX, found '\\x'"),
        Rejection("\"\\'\"", .invalidEscape, 1, 2, "found '\\''"),
        Rejection("\"ab\\u12G4\"", .invalidEscape, 1, 4, "expected 4 hex digits after \\u, found 'G4'"),
        Rejection("\"\\u12\"", .invalidEscape, 1, 2, "expected 4 hex digits after \\u, found '\"'"),
        Rejection("\"\\uD800\"", .loneSurrogate, 1, 2, "lone high surrogate \\uD800 in string: expected a low surrogate escape \\uDC00–\\uDFFF after it, found '\"'"),
        Rejection("\"\\uD83D\\u0041\"", .loneSurrogate, 1, 2, "found \\u0041"),
        Rejection("\"ab\\uD800\\n\"", .loneSurrogate, 1, 4, "lone high surrogate \\uD800"),
        Rejection("\"\\uD800\\uD800\"", .loneSurrogate, 1, 2, "lone high surrogate"),
        Rejection("\"\\uDC00\"", .loneSurrogate, 1, 2, "lone low surrogate \\uDC00 in string: expected a high surrogate"),
        Rejection("[\"\\uDE00\\uD83D\"]", .loneSurrogate, 1, 3, "lone low surrogate \\uDE00"),
        Rejection("\"\\uD83D\\uDE0", .invalidEscape, 1, 8, "expected 4 hex digits"),
    ]

    static let encoding: [Rejection] = [
        Rejection([0x22, 0xC0, 0xAF, 0x22], .invalidUTF8, 1, 2, offset: 1, "invalid UTF-8 in string: overlong encoding (lead byte 0xC0)"),
        Rejection([0x22, 0xC1, 0xBF, 0x22], .invalidUTF8, 1, 2, "overlong"),
        Rejection([0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8, 1, 2, "overlong encoding (0xE0 0x80)"),
        Rejection([0x22, 0xF0, 0x80, 0x80, 0xAF, 0x22], .invalidUTF8, 1, 2, "overlong encoding (0xF0 0x80)"),
        Rejection([0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8, 1, 2, "UTF-8-encoded surrogate (0xED 0xA0)"),
        Rejection([0x22, 0xED, 0xBF, 0xBF, 0x22], .invalidUTF8, 1, 2, "surrogate"),
        Rejection([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8, 1, 2, "code point above U+10FFFF"),
        Rejection([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], .invalidUTF8, 1, 2, "byte 0xF5 never appears in UTF-8"),
        Rejection([0x22, 0xFF, 0x22], .invalidUTF8, 1, 2, "byte 0xFF never appears"),
        Rejection([0x22, 0x61, 0x80, 0x22], .invalidUTF8, 1, 3, offset: 2, "unexpected continuation byte 0x80"),
        Rejection([0x22, 0xE2, 0x82, 0x22], .invalidUTF8, 1, 2, "truncated sequence: lead byte 0xE2 needs 2 continuation bytes (0x80–0xBF), found 0x22"),
        Rejection([0x22, 0xE2, 0x82], .invalidUTF8, 1, 2, "truncated sequence: lead byte 0xE2 needs 2 continuation bytes (0x80–0xBF), found end of input"),
        Rejection([0x22, 0xC3], .invalidUTF8, 1, 2, "needs 1 continuation byte (0x80–0xBF), found end of input"),
        Rejection([0x22, 0xF0, 0x9F, 0x98, 0x41, 0x22], .invalidUTF8, 1, 2, "needs 3 continuation bytes"),
        // Columns count scalars before the bad byte: "é" is one column.
        Rejection([0x22, 0xC3, 0xA9, 0xC3, 0x22], .invalidUTF8, 1, 3, offset: 3, "truncated"),
        Rejection([0x22, 0x5C, 0x6E, 0xC3, 0xA9, 0x80, 0x22], .invalidUTF8, 1, 5, offset: 5, "unexpected continuation byte"),
        // Outside strings, any non-ASCII byte is out of place.
        Rejection([0x5B, 0xC3, 0xA9, 0x5D], .unexpectedCharacter, 1, 2, "expected a JSON value or ']' after '[', found 'é' (U+00E9)"),
        Rejection([0xFF, 0xFE, 0x5B, 0x00], .unexpectedCharacter, 1, 1, "found invalid UTF-8 byte 0xFF (JSON must be UTF-8, not UTF-16)"),
        // A binary file (PNG signature) gets a plain-spoken error, not a crash or a guess.
        Rejection([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .unexpectedCharacter, 1, 1, offset: 0,
                  "1:1: expected a JSON value, found invalid UTF-8 byte 0x89"),
        Rejection([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF, 0x31], .unexpectedCharacter, 1, 1, offset: 3, "found '\u{FEFF}' (U+FEFF)"),
        // Positions after multi-byte text, a BOM and line breaks.
        Rejection("[\"日本\", x]", .unexpectedCharacter, 1, 8, offset: 11, "found 'x'"),
        Rejection([0xEF, 0xBB, 0xBF] + Array("[x]".utf8), .unexpectedCharacter, 1, 2, offset: 4, "found 'x'"),
        Rejection("[1,\r\n x]", .unexpectedCharacter, 2, 2, offset: 6, "found 'x'"),
        Rejection("[1,\r x]", .unexpectedCharacter, 2, 2, offset: 5, "found 'x'"),
    ]

    @Test(arguments: structure + strings + encoding)
    func rejects(_ expected: Rejection) throws {
        let error = try #require(throws: JSONSyntaxError.self) { try JSONReader.parse(expected.bytes) }
        #expect(error.kind == expected.kind)
        #expect(error.position.line == expected.line)
        #expect(error.position.column == expected.column)
        if let offset = expected.offset { #expect(error.position.offset == offset) }
        #expect(error.description.contains(expected.fragment), "\(error.description)")
        #expect(error.description.hasPrefix("\(expected.line):\(expected.column): "))
    }

    @Test(arguments: [
        "\"\u{7F}\"", "\"\\u0000\"", "\"\u{10FFFF}\"", "\"\\uDBFF\\uDFFF\"", "\"\u{FFFE}\"", "-0.0e-0", "0E0", " \t\r\n[] \t\r\n",
        "\"/\"", "1E400", "{\"\":\"\"}", "[[],{},[{}]]",
    ])
    func acceptsTheEdgesRFC8259Allows(_ text: String) throws {
        _ = try JSONReader.parse(text)
    }
}
