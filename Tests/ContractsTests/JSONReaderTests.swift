import Testing
@testable import Contracts

@Suite struct JSONReaderTests {
    // MARK: Values and positions

    @Test func multiLineDocumentKeepsEveryPosition() throws {
        let text = "{\n  \"a\": 1,\n  \"b\": [true, null],\n  \"é\": \"ü\",  \"c\": -2.5\n}\n"
        let root = try JSONReader.parse(text)
        #expect(root.position == SourcePosition(line: 1, column: 1, offset: 0))
        let members = try #require(root.objectMembers)
        #expect(members.map(\.key) == ["a", "b", "é", "c"])

        let a = try #require(root.member("a"))
        #expect(a.keyPosition == SourcePosition(line: 2, column: 3, offset: 4))
        #expect(a.value.position == SourcePosition(line: 2, column: 8, offset: 9))
        #expect(a.value.integerValue == 1)

        let b = try #require(root.member("b"))
        #expect(b.keyPosition.description == "3:3")
        #expect(b.value.position.description == "3:8")
        let elements = try #require(b.value.arrayElements)
        #expect(elements.map(\.position.description) == ["3:9", "3:15"])
        #expect(elements.map(\.value) == [.bool(true), .null])

        // Columns count scalars: "é" is 2 bytes but 1 column.
        let e = try #require(root.member("é"))
        #expect(e.keyPosition.description == "4:3")
        #expect(e.value.position.description == "4:8")
        #expect(e.value.stringValue == "ü")
        let c = try #require(root.member("c"))
        #expect(c.keyPosition.line == 4 && c.keyPosition.column == 14)
        #expect(c.keyPosition.offset == Array(text.utf8).firstIndex(of: UInt8(ascii: "c")).map { $0 - 1 })
        #expect(c.value.position.column == 19)
        #expect(c.value.numberValue?.literal == "-2.5")
    }

    @Test func wideCharactersAndEscapesCountAsColumns() throws {
        let root = try JSONReader.parse(#"["日本😀", "\u00e9", 1]"#)
        let elements = try #require(root.arrayElements)
        #expect(elements.map(\.position.column) == [2, 9, 19])
        #expect(elements.map(\.position.offset) == [1, 15, 25])
        #expect(elements[0].stringValue == "日本😀")
        #expect(elements[1].stringValue == "é")
    }

    @Test func lineBreaksLFCRLFAndLoneCR() throws {
        for (text, expected) in [("[\n1]", "2:1"), ("[\r\n1]", "2:1"), ("[\r1]", "2:1"), ("[\r\n\r\n 1]", "3:2")] {
            let root = try JSONReader.parse(text)
            #expect(root.arrayElements?.first?.position.description == expected, "\(text.debugDescription)")
        }
    }

    @Test func leadingByteOrderMarkIsSkippedAndNotCounted() throws {
        let root = try JSONReader.parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": true}"#.utf8))
        #expect(root.position == SourcePosition(line: 1, column: 1, offset: 3))
        #expect(root.member("a")?.keyPosition == SourcePosition(line: 1, column: 2, offset: 4))
        #expect(root.member("a")?.value.boolValue == true)
    }

    @Test func escapesDecode() throws {
        let root = try JSONReader.parse(#""a\"b\\c\/d\b\f\n\r\t\u0000\u00E9\uD83D\uDE00\u20AC""#)
        #expect(root.stringValue == "a\"b\\c/d\u{8}\u{C}\n\r\t\u{0}é😀€")
        let key = try JSONReader.parse(#"{"k\u0041": "x\ty"}"#)
        #expect(key.member("kA")?.value.stringValue == "x\ty")
    }

    @Test func everyOverloadReadsTheSameTree() throws {
        let text = #"{"aps": {"badge": 3}, "list": [1.5, "x", null]}"#
        let bytes = Array(text.utf8)
        let fromArray = try JSONReader.parse(bytes)
        #expect(try JSONReader.parse(text) == fromArray)
        #expect(try JSONReader.parse(bytes[...]) == fromArray)
        #expect(try JSONReader.parse(text.utf8.lazy.map { $0 }) == fromArray)
        let fromRaw = try bytes.withUnsafeBytes { (raw) throws(JSONSyntaxError) in try JSONReader.parse(raw) }
        #expect(fromRaw == fromArray)
    }

    // MARK: Numbers and Booleans

    struct NumberCase: Sendable, CustomTestStringConvertible {
        var literal: String
        var isIntegerLiteral: Bool
        var integerValue: Int64?
        var doubleValue: Double
        var testDescription: String { literal }
    }

    @Test(arguments: [
        NumberCase(literal: "0", isIntegerLiteral: true, integerValue: 0, doubleValue: 0),
        NumberCase(literal: "7", isIntegerLiteral: true, integerValue: 7, doubleValue: 7),
        NumberCase(literal: "-12", isIntegerLiteral: true, integerValue: -12, doubleValue: -12),
        NumberCase(literal: "9223372036854775807", isIntegerLiteral: true, integerValue: .max, doubleValue: 9223372036854775808),
        NumberCase(literal: "-9223372036854775808", isIntegerLiteral: true, integerValue: .min, doubleValue: -9223372036854775808),
        NumberCase(literal: "9223372036854775808", isIntegerLiteral: true, integerValue: nil, doubleValue: 9223372036854775808),
        NumberCase(literal: "-9223372036854775809", isIntegerLiteral: true, integerValue: nil, doubleValue: -9223372036854775808),
        NumberCase(literal: "123456789012345678901234567890", isIntegerLiteral: true, integerValue: nil, doubleValue: 1.2345678901234568e29),
        NumberCase(literal: "1.0", isIntegerLiteral: false, integerValue: nil, doubleValue: 1),
        NumberCase(literal: "7.5", isIntegerLiteral: false, integerValue: nil, doubleValue: 7.5),
        NumberCase(literal: "-0.5", isIntegerLiteral: false, integerValue: nil, doubleValue: -0.5),
        NumberCase(literal: "1e3", isIntegerLiteral: false, integerValue: nil, doubleValue: 1000),
        NumberCase(literal: "1E+2", isIntegerLiteral: false, integerValue: nil, doubleValue: 100),
        NumberCase(literal: "25e-1", isIntegerLiteral: false, integerValue: nil, doubleValue: 2.5),
        NumberCase(literal: "1e400", isIntegerLiteral: false, integerValue: nil, doubleValue: .infinity),
        NumberCase(literal: "-1e400", isIntegerLiteral: false, integerValue: nil, doubleValue: -.infinity),
        NumberCase(literal: "1e-400", isIntegerLiteral: false, integerValue: nil, doubleValue: 0),
    ])
    func numbersKeepIntegerOrDecimal(_ expected: NumberCase) throws {
        let node = try JSONReader.parse("[\(expected.literal)]")
        let number = try #require(node.arrayElements?.first?.numberValue)
        #expect(number.literal == expected.literal)
        #expect(number.isIntegerLiteral == expected.isIntegerLiteral)
        #expect(number.integerValue == expected.integerValue)
        #expect(number.doubleValue == expected.doubleValue)
    }

    @Test func negativeZeroIsTheIntegerZeroWithANegativeDouble() throws {
        let number = try #require(try JSONReader.parse("-0").numberValue)
        #expect(number.isIntegerLiteral && number.integerValue == 0)
        #expect(number.doubleValue == 0 && number.doubleValue.sign == .minus)
        #expect(number.literal == "-0")
    }

    @Test func booleansAreNotNumbers() throws {
        let root = try JSONReader.parse(#"{"t": true, "f": false, "one": 1, "n": null}"#)
        #expect(root.member("t")?.value.value == .bool(true))
        #expect(root.member("t")?.value.integerValue == nil)
        #expect(root.member("f")?.value.boolValue == false)
        #expect(root.member("one")?.value.boolValue == nil)
        #expect(root.member("one")?.value.integerValue == 1)
        #expect(root.member("n")?.value.isNull == true)
        #expect(try JSONReader.parse("1.0").integerValue == nil)
    }

    // MARK: Duplicate keys

    @Test func duplicateKeysAreKeptWithBothPositions() throws {
        let root = try JSONReader.parse("{\"a\": 1,\n \"b\": {\"a\": 0},\n \"a\": 2, \"a\": 3}")
        #expect(root.objectMembers?.map(\.key) == ["a", "b", "a", "a"])
        #expect(root.member("a")?.value.integerValue == 1)
        let duplicates = root.duplicateKeys
        #expect(duplicates.count == 2)
        #expect(duplicates.map(\.first.keyPosition.description) == ["1:2", "1:2"])
        #expect(duplicates.map(\.duplicate.keyPosition.description) == ["3:2", "3:10"])
        #expect(duplicates.map { $0.duplicate.value.integerValue } == [2, 3])
        #expect(root.member("b")?.value.duplicateKeys.isEmpty == true)
    }

    @Test func duplicateKeysInLargeObjects() throws {
        let members = (0..<40).map { "\"k\($0 % 30)\": \($0)" }.joined(separator: ", ")
        let duplicates = try JSONReader.parse("{\(members)}").duplicateKeys
        #expect(duplicates.count == 10)
        #expect(duplicates.first?.first.value.integerValue == 0)
        #expect(duplicates.first?.duplicate.value.integerValue == 30)
    }

    // MARK: Depth

    @Test func depthLimit() throws {
        #expect(try JSONReader.parse("[[[1]]]", maxDepth: 3).arrayElements?.count == 1)
        #expect(throws: JSONSyntaxError(.tooDeep, at: SourcePosition(line: 1, column: 4, offset: 3),
                                        "nesting too deep: expected at most 3 levels of arrays and objects, found another '{'")) {
            try JSONReader.parse("[[[{}]]]", maxDepth: 3)
        }
        #expect(try JSONReader.parse("1", maxDepth: 0).integerValue == 1)
        #expect(throws: JSONSyntaxError.self) { try JSONReader.parse("[]", maxDepth: 0) }
        let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect(try JSONReader.parse(ok).arrayElements?.count == 1)
        let error = try #require(throws: JSONSyntaxError.self) {
            try JSONReader.parse(String(repeating: "[", count: 129) + String(repeating: "]", count: 129))
        }
        #expect(error.kind == .tooDeep && error.position.column == 129)
    }

    @Test func hundredThousandOpenBracketsDoNotCrash() throws {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        let error = try #require(throws: JSONSyntaxError.self) { try JSONReader.parse(deep) }
        #expect(error.kind == .tooDeep)
        #expect(error.position.offset == 128)
        // The ceiling keeps even an absurd maxDepth from building a tree too deep to release.
        let capped = try #require(throws: JSONSyntaxError.self) { try JSONReader.parse(deep, maxDepth: .max) }
        #expect(capped.kind == .tooDeep && capped.position.offset == JSONReader.depthCeiling)
        let nested = String(repeating: "{\"a\":", count: 2000) + "1" + String(repeating: "}", count: 2000)
        #expect(try JSONReader.parse(nested, maxDepth: 2000).member("a") != nil)
    }
}

@Suite struct JSONReaderDocumentationTests {
    /// The example in JSONReader's doc comment and Docs/readme/json-reader.md.
    @Test func readmeExample() throws {
        let node = try JSONReader.parse(#"{"aps": {"mutable-content": 1}}"#)
        let flag = try #require(node.member("aps")?.value.member("mutable-content"))
        #expect(flag.value.integerValue == 1)
        #expect(flag.value.position == SourcePosition(line: 1, column: 29, offset: 28))
        #expect(node.duplicateKeys.isEmpty)
    }
}
