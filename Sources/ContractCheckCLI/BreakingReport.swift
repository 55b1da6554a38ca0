import Contracts

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
