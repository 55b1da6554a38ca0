import Contracts
/// The `contract-check` command line tool, callable in-process for tests.
///
/// ```swift
/// let io = CommandIO.capturing()
/// let status = ContractCheck.main(["validate", "--format", "json", "Fixtures/valid"], io: io)
/// ```
package enum ContractCheck {
    /// The program name used in help and usage lines.
    package static let toolName = "contract-check"

    /// This build's version, printed by `contract-check --version`.
    package static let version = "0.3.0"

    static let overview = "Checks the JSON messages an iOS app, its backend and its APNs sender exchange against one set of contracts."

    /// One row of the command table: a subcommand's name, abstract and entry point.
    package struct Entry {
        package let name: String
        package let abstract: String
        /// Its help: usage line and options (what the docs test parses commands against).
        package let help: CommandHelp
        package let run: (_ arguments: [String], _ io: CommandIO) -> Int32

        /// A subcommand of this build.
        package static func command(_ command: any Subcommand.Type) -> Entry {
            Entry(name: command.name, abstract: command.help.abstract, help: command.help, run: { command.run($0, io: $1) })
        }
    }

    /// THE list of subcommands, in the order help shows them; the only place to add one.
    ///
    /// To add a subcommand: write `enum XCommand: Subcommand` in `XCommand.swift` (see
    /// ``Subcommand`` for the shape: `name`, `help: CommandHelp`, `run(_:io:) -> Int32`),
    /// then add `XCommand.self` below.
    package static var subcommands: [any Subcommand.Type] {
        [
            ValidateCommand.self,
            SchemaCommand.self,
            BreakingCommand.self,
            OpenAPICommand.self,
            ServeCommand.self,
            WaitReadyCommand.self,
            APNsCertificateCommand.self,
            SenderCheckCommand.self,
        ]
    }

    /// Each subcommand's name, abstract, help and entry point, in ``subcommands``' order.
    /// Building it renders every subcommand's help, so running one looks its name up in
    /// ``subcommands`` instead (~0.9 M instructions at every start).
    package static var commandTable: [Entry] {
        subcommands.map(Entry.command)
    }

    /// Runs the tool with `arguments` (without the program name) on the process's standard
    /// streams and returns the exit code.
    package static func main(_ arguments: [String]) -> Int32 {
        let io = CommandIO.standardStreams()
        let status = main(arguments, io: io)
        io.flush()
        return status
    }

    /// Runs the tool with `arguments` (without the program name), writing through `io`.
    /// - Returns: 0 clean, 1 findings, 64 usage error.
    package static func main(_ arguments: [String], io: CommandIO) -> Int32 {
        guard let first = arguments.first else {
            io.writeErrorLine("Error: missing subcommand")
            io.writeErrorLine("Usage: \(toolName) <subcommand> [options]")
            io.writeErrorLine("  See '\(toolName) --help' for the list of subcommands.")
            return ExitCode.usage
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "-h", "--help":
            io.write(toolHelp())
            return ExitCode.success
        case "--version":
            io.write("\(toolName) \(version)\n")
            return ExitCode.success
        case "help":
            guard let topic = rest.first else {
                io.write(toolHelp())
                return ExitCode.success
            }
            return main([topic, "--help"], io: io)
        default:
            break
        }
        let commands = subcommands
        guard let command = commands.first(where: { $0.name == first }) else {
            let error: UsageError
            if first.hasPrefix("-") {
                error = .unknownOption(first, suggestion: Suggestion.closest(to: first, among: ["--help", "--version"], acceptingUniquePrefix: true))
            } else {
                error = .unknownSubcommand(first, suggestion: Suggestion.closest(to: first, among: commands.map { $0.name } + ["help"], acceptingUniquePrefix: true))
            }
            io.writeErrorLine("Error: \(error.message)")
            io.writeErrorLine("Usage: \(toolName) <subcommand> [options]")
            io.writeErrorLine("  See '\(toolName) --help' for the list of subcommands.")
            return ExitCode.usage
        }
        return command.run(rest, io: io)
    }

    /// The tool's help: overview, usage and the subcommand list.
    static func toolHelp() -> String {
        var lines = [
            "OVERVIEW: \(overview)",
            "",
            "USAGE: \(toolName) <subcommand> [options]",
            "",
            "SUBCOMMANDS:",
        ]
        for entry in commandTable {
            lines.append(CommandHelp.row(entry.name, entry.abstract))
        }
        lines += [
            "",
            "OPTIONS:",
            CommandHelp.row("-h, --help", "Show help information."),
            CommandHelp.row("--version", "Print the version and exit."),
            "",
            "EXIT STATUS: 0 clean, 1 violations or breaking changes (serve: a server cannot start;",
            "  wait-ready: timed out or serve exited first), 64 usage error.",
            "  See '\(toolName) help <subcommand>' for detailed help.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
