import Foundation
import Contracts

/// `contract-check breaking --against DIR`: compares old golden schemas with the schemas the
/// current contracts emit, with direction-aware rules (see ``ChangeKind``).
///
/// ```
/// $ contract-check breaking --against git:origin/main:Fixtures/schemas --format github
/// $ contract-check breaking --against old/ --allow breaking.app-to-backend.required-added@/locale
/// ```
enum BreakingCommand: ContractSetSubcommand {
    static let name = "breaking"

    static let help = CommandHelp(
        abstract: "Report breaking changes against a previous schema folder.",
        usage: "breaking --against DIR|git:REF:PATH [--allow RULE@POINTER ...] [--format text|json|github]",
        options: [
            OptionSpec("--against", valueName: "DIR", help: "The old golden schemas: a folder, or git:REF:PATH (e.g. git:origin/main:Fixtures/schemas)."),
            OptionSpec("--allow", valueName: "RULE@POINTER", isRepeatable: true,
                       help: "Accept one intended break, e.g. breaking.backend-to-app.enum-value-added@/aps/category."),
            OptionSpec("--format", allowedValues: ["text", "json", "github"], help: "Output format (default text)."),
        ],
        discussion: """
            Ids are breaking.<direction>.<kind> (exit 1 unless allowed) and info.<direction>.<kind> (listed only).
            appToBackend breaks on tightening (old apps keep sending the old shape); backendToApp breaks on \
            loosening and on removing what apps rely on (unless the member declares x-unknown-value-fallback); \
            providerToAPNs breaks on either. Rule changes use the pointer #<rule id>.

            EXIT STATUS: 0 no breaking change (or each allowed), 1 breaking changes, 64 usage error
            (--against empty, missing or unreadable: a misconfigured job, not a break).

            EXAMPLES:
              contract-check breaking --against git:origin/main:Fixtures/schemas --format github
              contract-check breaking --against old-schemas --allow breaking.backend-to-app.enum-value-added@/aps/category
            """)

    static func run(_ parsed: ParsedArguments, io: CommandIO, contracts: ContractSet) -> Int32 {
        guard let against = parsed.value(for: "--against") else { return reportUsageError(.missingArgument("--against DIR"), io: io) }
        guard !against.trimmingCharacters(in: .whitespaces).isEmpty else {
            // `--against "$BASE_SCHEMAS"` with the variable unset: a misconfigured job, not a break.
            return reportUsageError(.unusableValue(against, option: "--against",
                                                   reason: "it is empty (an unset variable?); give a folder of *.schema.json files or git:REF:PATH"), io: io)
        }
        let allows = parsed.values["--allow"] ?? []
        for allow in allows where !Self.isRulePointer(allow) {
            return reportUsageError(.unusableValue(allow, option: "--allow",
                                                   reason: "expected RULE@POINTER, e.g. breaking.backend-to-app.enum-value-added@/aps/category"), io: io)
        }
        let old: [String: JSONTree]
        switch GoldenSchemaSource.load(against, currentDirectory: io.currentDirectory) {
        case .success(let trees): old = trees
        case .failure(let error):
            // The old schemas could not be read: the job is misconfigured (exit 64), which CI
            // must tell from a real breaking change (exit 1).
            return reportUsageError(.unusableValue(against, option: "--against", reason: error.message), io: io)
        }
        var new: [String: JSONTree] = [:]
        for contract in contracts.contracts { new[contract.name] = JSONSchemaExporter.document(for: contract) }
        let changes = SchemaDiff.compare(old: old, new: new)
        let report = BreakingReport(changes: changes, allows: allows)
        switch parsed.value(for: "--format") ?? "text" {
        case "json": io.write(JSONTreeWriter.prettyText(report.json()))
        case "github": report.writeGitHub(io: io, directory: SchemaCommand.defaultDirectory)
        default: report.writeText(io: io, against: against)
        }
        return report.unallowedBreaking > 0 ? ExitCode.findings : ExitCode.success
    }

    /// `RULE@POINTER`: a rule id, `@`, and a JSON Pointer (empty, `/…` or `#…` for a rule).
    static func isRulePointer(_ text: String) -> Bool {
        guard let at = text.firstIndex(of: "@") else { return false }
        let rule = text[..<at], pointer = text[text.index(after: at)...]
        return !rule.isEmpty && !rule.contains(" ") && (pointer.isEmpty || pointer.hasPrefix("/") || pointer.hasPrefix("#"))
    }
}
