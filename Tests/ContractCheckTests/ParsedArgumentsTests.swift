import ContractCheckCLI
import Contracts
import Testing

@Suite struct ParsedArgumentsTests {
    let options = [
        OptionSpec("--contract", valueName: "NAME", help: ""),
        OptionSpec("--format", allowedValues: ["text", "json", "github"], help: ""),
        OptionSpec("--allow", valueName: "RULE", isRepeatable: true, help: ""),
        OptionSpec("--check", help: ""),
    ]

    @Test func splitsOptionsFlagsAndPositionals() throws {
        let parsed = try ParsedArguments.parse(["a", "--contract", "payload", "--format=json", "--check", "b", "--allow", "x", "--allow", "y"], options: options)
        #expect(parsed.positionals == ["a", "b"])
        #expect(parsed.value(for: "--contract") == "payload")
        #expect(parsed.value(for: "--format") == "json")
        #expect(parsed.values["--allow"] == ["x", "y"])
        #expect(parsed.flags == ["--check"])
        #expect(!parsed.wantsHelp)
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ParsedArguments.parse(["--", "--contract", "-h"], options: options)
        #expect(parsed.positionals == ["--contract", "-h"])
        #expect(!parsed.wantsHelp)
    }

    @Test func unknownOptionSuggests() {
        #expect(throws: UsageError.unknownOption("--contarct", suggestion: "--contract")) {
            try ParsedArguments.parse(["--contarct", "x"], options: options)
        }
        #expect(throws: UsageError.unknownOption("-x", suggestion: nil)) {
            try ParsedArguments.parse(["-x"], options: options)
        }
    }

    @Test func missingValue() {
        #expect(throws: UsageError.missingValue(option: "--contract", valueName: "NAME")) {
            try ParsedArguments.parse(["--contract"], options: options)
        }
        #expect(throws: UsageError.missingValue(option: "--contract", valueName: "NAME")) {
            try ParsedArguments.parse(["--contract", "--check"], options: options)
        }
    }

    @Test func choiceOutsideTheAllowedSetSuggests() {
        #expect(throws: UsageError.invalidValue("jsno", option: "--format", allowed: ["text", "json", "github"], suggestion: "json")) {
            try ParsedArguments.parse(["--format", "jsno"], options: options)
        }
    }

    @Test func repeatedSingleOptionIsAnError() {
        #expect(throws: UsageError.repeatedOption("--contract")) {
            try ParsedArguments.parse(["--contract", "a", "--contract", "b"], options: options)
        }
    }

    @Test func flagWithInlineValueIsAnError() {
        #expect(throws: UsageError.unexpectedArgument("--check=yes")) {
            try ParsedArguments.parse(["--check=yes"], options: options)
        }
    }

    @Test func helpWinsOverEveryOtherProblem() throws {
        let parsed = try ParsedArguments.parse(["--nonsense", "--format", "bad", "-h"], options: options)
        #expect(parsed.wantsHelp)
    }

    @Test(arguments: [
        ("validate", "valdate", 1), ("", "abc", 3), ("kitten", "sitting", 3), ("--contract", "--contarct", 1), ("flaw", "lawn", 2),
    ])
    func editDistance(_ a: String, _ b: String, _ expected: Int) {
        #expect(Suggestion.editDistance(a, b) == expected)
    }

    @Test func suggestionNeedsToBeClose() {
        #expect(Suggestion.closest(to: "serv", among: ["validate", "serve", "schema"]) == "serve")
        #expect(Suggestion.closest(to: "--form", among: ["--format", "--contract"]) == "--format")
        #expect(Suggestion.closest(to: "zzzzzz", among: ["validate", "serve"]) == nil)
    }
}
