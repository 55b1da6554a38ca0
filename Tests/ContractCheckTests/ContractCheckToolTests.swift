@testable import ContractCheckCLI
import Testing

@Suite struct ContractCheckToolTests {
    @Test(arguments: [["--help"], ["-h"], ["help"]])
    func toolHelpListsSubcommandsAndExitsZero(_ arguments: [String]) {
        let result = runTool(arguments)
        #expect(result.status == 0)
        #expect(result.output.contains("USAGE: contract-check <subcommand>"))
        #expect(result.output.contains("validate"))
        #expect(result.output.contains("Validate JSON files against the contracts."))
        #expect(result.error.isEmpty)
    }

    @Test func versionPrintsTheToolAndItsVersion() {
        let result = runTool(["--version"])
        #expect(result.status == 0)
        #expect(result.output == "contract-check \(ContractCheck.version)\n")
        #expect(result.error.isEmpty)
        #expect(runTool(["--help"]).output.contains("--version"))
        #expect(runTool(["--verison"]).error.contains("did you mean '--version'?"), "\(runTool(["--verison"]).error)")
    }

    @Test func everyTableEntryAppearsInHelpWithItsAbstract() {
        let help = runTool(["--help"]).output
        for entry in ContractCheck.commandTable {
            let line = help.split(separator: "\n").first { $0.hasPrefix("  \(entry.name) ") }
            #expect(line != nil, "\(entry.name) missing from help")
            #expect(line?.hasSuffix(entry.abstract) == true, "\(entry.name)'s help line lacks its abstract")
        }
    }

    @Test(arguments: [["validate", "--help"], ["validate", "-h"], ["help", "validate"], ["validate", "--format", "nonsense", "--help"]])
    func subcommandHelp(_ arguments: [String]) {
        let result = runTool(arguments)
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("OVERVIEW: Validate JSON files against the contracts."))
        #expect(result.output.contains("USAGE: contract-check validate [--contract NAME] [--format text|json|github] [--verbose] PATH..."))
        #expect(result.output.contains("--contract NAME"))
        #expect(result.output.contains("-h, --help"))
    }

    /// Every subcommand's help says what its exit codes mean, and its USAGE line names every
    /// option it takes (serve's once lacked --color, validate's --verbose).
    @Test(arguments: ContractCheck.commandTable.map(\.name))
    func everySubcommandHelpHasExitStatusAndAFullUsageLine(_ name: String) throws {
        let entry = try #require(ContractCheck.commandTable.first { $0.name == name })
        let help = runTool([name, "--help"]).output
        #expect(help.contains("\nEXIT STATUS: 0 "), "\(name) --help has no EXIT STATUS section")
        #expect(help.contains(" 64 usage error"), "\(name) --help does not explain exit 64")
        for option in entry.help.options {
            let named = entry.help.usage.components(separatedBy: option.name).dropFirst().contains { rest in
                rest.first.map { !$0.isLetter && $0 != "-" } ?? true
            }
            #expect(named,
                    "USAGE of \(name) lacks \(option.name): \(entry.help.usage)")
        }
    }

    @Test func unknownSubcommandSuggestsTheClosest() {
        let result = runTool(["valdate", "Fixtures"])
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        let lines = result.error.split(separator: "\n").map(String.init)
        #expect(lines.first == "Error: unknown subcommand 'valdate'; did you mean 'validate'?")
        #expect(lines.dropFirst().first == "Usage: contract-check <subcommand> [options]")
    }

    @Test func unknownSubcommandFarFromAnyGetsNoSuggestion() {
        let result = runTool(["frobnicate"])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: unknown subcommand 'frobnicate'\n"))
    }

    @Test func missingSubcommandIsAUsageError() {
        let result = runTool([])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: missing subcommand\nUsage: contract-check"))
    }

    @Test func unknownToolOption() {
        let result = runTool(["--hlep"])
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: unknown option '--hlep'; did you mean '--help'?"))
    }
}
