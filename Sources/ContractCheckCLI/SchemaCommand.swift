import Foundation
import Contracts

/// `contract-check schema`: emits one JSON Schema file per contract and keeps the committed
/// golden files current.
///
/// ```
/// $ contract-check schema --check            # CI: fail with a diff when a file is stale
/// $ contract-check schema --write            # re-record every file
/// $ contract-check schema --expressible-rules
/// ```
enum SchemaCommand: ContractSetSubcommand {
    static let name = "schema"
    static let defaultDirectory = "Fixtures/schemas"

    static let help = CommandHelp(
        abstract: "Emit JSON Schema files, or check the golden ones are current.",
        usage: "schema [--check | --write] [--dir DIR] [--expressible-rules]",
        options: [
            OptionSpec("--check", help: "Compare only: a missing or different file prints a diff and exits 1."),
            OptionSpec("--write", help: "Write every file (re-record)."),
            OptionSpec("--dir", valueName: "DIR", help: "The golden folder (default \(defaultDirectory))."),
            OptionSpec("--expressible-rules", help: "Print, as JSON, which rule ids the emitted schemas enforce."),
        ],
        discussion: """
            Without --check or --write the mode comes from \(RecordMode.variable): missing (default: write files \
            that do not exist, compare the others), all (rewrite), never (compare). When CI is set nothing is \
            written unless --write is given.
            Files are named <contract>.schema.json: JSON Schema draft 2020-12, sorted keys, two-space indent.

            EXIT STATUS: 0 every file current (or written), 1 a file missing or different (a diff is
            printed) or not writable, 64 usage error (--check with --write, an unknown mode, a
            missing folder outside --write).

            EXAMPLES:
              contract-check schema --check
              contract-check schema --write --dir Fixtures/schemas
            """)

    static func run(_ parsed: ParsedArguments, io: CommandIO, contracts: ContractSet) -> Int32 {
        if parsed.flags.contains("--expressible-rules") {
            io.write(JSONTreeWriter.prettyText(expressibleRules(contracts)))
            return ExitCode.success
        }
        let mode: RecordMode
        if parsed.flags.contains("--check") && parsed.flags.contains("--write") {
            return reportUsageError(.conflictingOptions("--check", "--write", advice: "give one"), io: io)
        } else if parsed.flags.contains("--check") {
            mode = .never
        } else if parsed.flags.contains("--write") {
            mode = .all
        } else {
            do { mode = try RecordMode.from(io.environment) } catch { return reportUsageError(error, io: io) }
        }
        let directory = parsed.value(for: "--dir") ?? defaultDirectory
        return record(contracts, directory: directory, mode: mode, createsFolder: mode == .all || (mode == .missing && parsed.value(for: "--dir") != nil), io: io)
    }

    /// Compares (and, as `mode` allows, writes) every contract's file; 1 when any file is
    /// missing or different and was not written.
    /// - Parameter createsFolder: a missing folder is created (an explicit `--write`, or an
    ///   explicit `--dir` in the default mode); otherwise it is a usage error, so a run from
    ///   the wrong working directory says so instead of starting a new golden folder.
    static func record(_ contracts: ContractSet, directory: String, mode: RecordMode, createsFolder: Bool, io: CommandIO) -> Int32 {
        let folder = TextFiles.resolve(directory, in: io.currentDirectory)
        if !TextFiles.isExistingFolder(folder) {
            guard createsFolder, mode != .never else {
                io.writeErrorLine("Error: folder not found: \(directory) (run from the package root, give --dir DIR, or --write to create it)")
                return ExitCode.usage
            }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                io.writeErrorLine("Error: cannot create \(directory): \(error.localizedDescription)")
                return ExitCode.usage
            }
        }
        var failures = 0
        var written = 0
        var current = 0
        var expectedNames = Set<String>()
        for contract in contracts.contracts {
            let fileName = JSONSchemaExporter.fileName(for: contract)
            expectedNames.insert(fileName)
            let shown = directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
            let path = folder + "/" + fileName
            let expected = JSONSchemaExporter.emittedText(for: contract)
            let existing = TextFiles.read(path)
            if existing == expected {
                current += 1
                continue
            }
            if mode == .all || (mode == .missing && existing == nil) {
                do {
                    try TextFiles.write(expected, to: path)
                    written += 1
                    io.writeLine("wrote \(shown)")
                } catch {
                    failures += 1
                    io.writeErrorLine("Error: cannot write \(shown): \(error.reason)")
                }
                continue
            }
            failures += 1
            io.writeLine(existing == nil ? "\(shown): missing (contract \(contract.name))"
                                         : "\(shown): differs from the schema the \(contract.name) contract emits")
            io.write(LineDiff.unified(old: existing ?? "", new: expected,
                                      oldLabel: "a/\(shown) (golden)", newLabel: "b/\(shown) (emitted)"))
        }
        for name in TextFiles.names(in: folder) where name.hasSuffix(".schema.json") && !expectedNames.contains(name) {
            io.writeLine("\(directory)/\(name): no contract emits this file; remove it if the contract is gone")
        }
        if failures > 0 {
            io.writeLine("")
            io.writeLine("\(failures) golden file\(failures == 1 ? " is" : "s are") out of date. If the change is intended, re-record with:")
            io.writeLine("  swift run contract-check schema --write --dir \(directory)")
            io.writeLine("  (or \(RecordMode.variable)=all swift run contract-check schema --dir \(directory), outside CI)")
            return ExitCode.findings
        }
        io.writeLine("\(current + written) schema file\(current + written == 1 ? "" : "s") current (\(written) written) in \(directory)")
        return ExitCode.success
    }

    /// `{"expressible": [...], "inexpressible": [{"id", "reason"}], "folders": {...},
    /// "extensions": {...}}` for the whole set: what a third-party check of the fixtures needs
    /// (which ids the schemas enforce, and which schema file a fixture folder or extension selects).
    static func expressibleRules(_ contracts: ContractSet) -> JSONTree {
        let verdicts = RuleExpressibility.of(contracts)
        var folders: [String: JSONTree] = [:]
        var extensions: [String: JSONTree] = [:]
        for contract in contracts.contracts {
            let file = JSONTree.string(JSONSchemaExporter.fileName(for: contract))
            if let folder = contract.folderName { folders[folder] = file }
            if let fileExtension = contract.fileExtension { extensions[fileExtension] = file }
        }
        return .object([
            "folders": .object(folders),
            "extensions": .object(extensions),
            "expressible": .strings(verdicts.filter(\.isExpressible).map(\.id)),
            "inexpressible": .array(verdicts.filter { !$0.isExpressible }.map {
                .object(["id": .string($0.id), "reason": .string($0.reason)])
            }),
        ])
    }
}
