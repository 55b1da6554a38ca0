/// The shape of a `contract-check` subcommand.
///
/// A subcommand is a caseless enum in its own file (`ValidateCommand.swift`,
/// `SchemaCommand.swift`, …) listed once in ``ContractCheck/subcommands``. It never prints
/// directly: everything goes through the ``CommandIO`` it is given, so tests run it
/// in-process. Use ``parse(_:io:)`` first: it handles `--help` and usage errors uniformly.
///
/// ```swift
/// enum OpenAPICommand: Subcommand {
///     static let name = "openapi"
///     static let help = CommandHelp(abstract: "Write the OpenAPI 3.1 document.",
///                                   usage: "openapi [--output FILE]",
///                                   options: [OptionSpec("--output", valueName: "FILE", help: "…")])
///     static func run(_ arguments: [String], io: CommandIO) -> Int32 {
///         guard case .run(let parsed) = parse(arguments, io: io) else { … return the exit code }
///         …
///         return ExitCode.success
///     }
/// }
/// ```
package protocol Subcommand {
    /// The word after `contract-check`, e.g. `validate`.
    static var name: String { get }
    /// Its help; `help.abstract` is the one line shown in the tool's subcommand list.
    static var help: CommandHelp { get }
    /// Runs with the arguments after the subcommand name and returns the exit code
    /// (``ExitCode/success``, ``ExitCode/findings`` or ``ExitCode/usage``).
    static func run(_ arguments: [String], io: CommandIO) -> Int32
}

/// What ``Subcommand/parse(_:io:)`` decided: run with these arguments, or exit now.
package enum ParseOutcome: Sendable {
    case run(ParsedArguments)
    /// Help was printed (0) or a usage error was (64).
    case exit(Int32)
}

extension Subcommand {
    /// Parses `arguments` against `help.options`; prints help for `-h`/`--help`, the tool's
    /// version for `--version`, and `Error: … / Usage: …` for a usage error.
    package static func parse(_ arguments: [String], io: CommandIO) -> ParseOutcome {
        do {
            // `serve --version` asks the tool's version (it used to get "a did-you-mean for serve's session option").
            if ParsedArguments.hasOption("--version", before: arguments), !help.options.contains(where: { $0.name == "--version" }) {
                io.write("\(ContractCheck.toolName) \(ContractCheck.version)\n")
                return .exit(ExitCode.success)
            }
            let parsed = try ParsedArguments.parse(arguments, options: help.options)
            if parsed.wantsHelp {
                io.write(help.rendered(toolName: ContractCheck.toolName))
                return .exit(ExitCode.success)
            }
            return .run(parsed)
        } catch {
            return .exit(reportUsageError(error, io: io))
        }
    }

    /// The usage line a usage error repeats: the synopsis when it is short, else a pointer to
    /// `--help` (serve's synopsis is ~500 characters; issue 39).
    package static var shortUsage: String { help.usage.count <= 160 ? help.usage : "\(name) [options]" }

    /// Prints `Error: … / Usage: … / See '… --help'` to standard error and returns 64.
    @discardableResult
    package static func reportUsageError(_ error: UsageError, io: CommandIO) -> Int32 {
        io.writeErrorLine("Error: \(error.message)")
        io.writeErrorLine("Usage: \(ContractCheck.toolName) \(shortUsage)")
        io.writeErrorLine("  See '\(ContractCheck.toolName) \(name) --help' for more information.")
        return ExitCode.usage
    }
}
