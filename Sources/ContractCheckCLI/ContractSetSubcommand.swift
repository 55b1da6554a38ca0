import Contracts

/// A subcommand that takes options only and works on a contract set: the v1 set when run
/// from the command line, a test's own set in tests. It implements the step after parsing;
/// parsing, help and the "unexpected argument" error are shared here.
protocol ContractSetSubcommand: Subcommand {
    /// Runs with parsed options against `contracts`; returns the exit code.
    static func run(_ parsed: ParsedArguments, io: CommandIO, contracts: ContractSet) -> Int32
}

extension ContractSetSubcommand {
    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        run(arguments, io: io, contracts: .v1)
    }

    /// Parses `arguments` (help and usage errors as ``Subcommand/parse(_:io:)``; a positional
    /// argument is an error), then runs against `contracts`.
    static func run(_ arguments: [String], io: CommandIO, contracts: ContractSet) -> Int32 {
        switch parse(arguments, io: io) {
        case .exit(let code):
            return code
        case .run(let parsed):
            if let extra = parsed.positionals.first { return reportUsageError(.unexpectedArgument(extra), io: io) }
            return run(parsed, io: io, contracts: contracts)
        }
    }
}
