import Contracts

/// `contract-check breaking --against DIR`: compares old golden schemas with the schemas the
/// current contracts emit, with direction-aware rules (see ``ChangeKind``).
///
/// ```
/// $ contract-check breaking --against git:origin/main:Fixtures/schemas --format github
/// $ contract-check breaking --against old/ --allow breaking.app-to-backend.required-added@/locale
/// ```
enum BreakingCommand: Subcommand {
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
            """)

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        run(arguments, io: io, contracts: .v1)
    }

    static func run(_ arguments: [String], io: CommandIO, contracts: ContractSet) -> Int32 {
        let parsed: ParsedArguments
        switch parse(arguments, io: io) {
        case .run(let arguments): parsed = arguments
        case .exit(let code): return code
        }
        if let extra = parsed.positionals.first { return reportUsageError(.unexpectedArgument(extra), io: io) }
        guard let against = parsed.value(for: "--against") else { return reportUsageError(.missingArgument("--against DIR"), io: io) }
        let allows = parsed.values["--allow"] ?? []
        for allow in allows where !allow.contains("@") {
            return reportUsageError(.invalidValue(allow, option: "--allow", allowed: ["RULE@POINTER"], suggestion: nil), io: io)
        }
        let old: [String: JSONTree]
        switch GoldenSchemaSource.load(against, currentDirectory: io.currentDirectory) {
        case .success(let trees): old = trees
        case .failure(let error):
            io.writeErrorLine("Error: \(error.description)")
            return ExitCode.findings
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
}

/// The changes of one `breaking` run with `--allow` applied, in every output format.
struct BreakingReport {
    struct Entry {
        let change: SchemaChange
        let isAllowed: Bool
    }

    let entries: [Entry]
    let unusedAllows: [String]

    init(changes: [SchemaChange], allows: [String]) {
        var used = Set<String>()
        entries = changes.map { change in
            let allowed = change.isBreaking && allows.contains(change.allowKey)
            if allowed { used.insert(change.allowKey) }
            return Entry(change: change, isAllowed: allowed)
        }
        unusedAllows = allows.filter { !used.contains($0) }
    }

    var unallowedBreaking: Int { entries.filter { $0.change.isBreaking && !$0.isAllowed }.count }
    var allowedBreaking: Int { entries.filter(\.isAllowed).count }
    var infoCount: Int { entries.filter { !$0.change.isBreaking }.count }

    func label(_ entry: Entry) -> String {
        entry.isAllowed ? "allowed" : entry.change.isBreaking ? "breaking" : "info"
    }

    func writeText(io: CommandIO, against: String) {
        for entry in entries {
            let change = entry.change
            let place = change.pointer.isEmpty ? "(document)" : change.pointer
            io.writeLine("\(label(entry)): \(change.contract) \(place): \(change.id): \(change.message)")
            if entry.isAllowed { io.writeLine("  accepted by --allow \(change.allowKey)") }
        }
        for allow in unusedAllows { io.writeLine("note: --allow \(allow) matched no breaking change") }
        io.writeLine("\(unallowedBreaking) breaking, \(allowedBreaking) allowed, \(infoCount) non-breaking change\(infoCount == 1 ? "" : "s") against \(against)")
        if unallowedBreaking > 0 {
            io.writeLine("If a break is intended, accept it with --allow <id>@<pointer> (printed above as id and pointer).")
        }
    }

    func json() -> JSONTree {
        .object([
            "findings": .array(entries.map { entry in
                let change = entry.change
                return .object([
                    "contract": .string(change.contract),
                    "direction": .string(change.direction.rawValue),
                    "id": .string(change.id),
                    "kind": .string(change.kind.rawValue),
                    "pointer": .string(change.pointer),
                    "breaking": .bool(change.isBreaking),
                    "allowed": .bool(entry.isAllowed),
                    "message": .string(change.message),
                ])
            }),
            "breaking": .integer(Int64(unallowedBreaking)),
            "allowed": .integer(Int64(allowedBreaking)),
            "info": .integer(Int64(infoCount)),
            "unusedAllows": .strings(unusedAllows),
        ])
    }

    /// GitHub workflow commands: `::error` for a break, `::warning` for an allowed one,
    /// `::notice` for the rest, each on the contract's golden file.
    func writeGitHub(io: CommandIO, directory: String) {
        for entry in entries {
            let change = entry.change
            let command = entry.isAllowed ? "warning" : change.isBreaking ? "error" : "notice"
            let file = "\(directory)/\(change.contract).schema.json"
            let title = change.id + (entry.isAllowed ? " (allowed)" : "")
            let place = change.pointer.isEmpty ? "(document)" : change.pointer
            io.writeLine("::\(command) file=\(ReportFormatter.escapeProperty(file)),title=\(ReportFormatter.escapeProperty(title))::"
                         + ReportFormatter.escapeData("\(change.contract) \(place): \(change.message)"))
        }
        io.writeLine("\(unallowedBreaking) breaking, \(allowedBreaking) allowed, \(infoCount) non-breaking")
    }
}
