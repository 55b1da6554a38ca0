import Contracts

/// `contract-check openapi`: writes the OpenAPI 3.1 document of the backend endpoints.
///
/// ```
/// $ contract-check openapi --output Fixtures/openapi.json
/// ```
enum OpenAPICommand: Subcommand {
    static let name = "openapi"

    static let help = CommandHelp(
        abstract: "Write the OpenAPI 3.1 document for the backend endpoints.",
        usage: "openapi [--output FILE]",
        options: [OptionSpec("--output", valueName: "FILE", help: "Write to FILE instead of standard output.")],
        discussion: """
            Built from the v1 contracts (bodies, path parameters) and FakeBackend's problem+json errors; sorted keys.
            --output - writes to standard output. The folder FILE goes in must exist.

            EXIT STATUS: 0 written, 64 usage error (an unknown option, FILE a folder or in a
            folder that does not exist or is not writable).

            EXAMPLE:
              contract-check openapi --output Fixtures/openapi.json
            """)

    static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        let parsed: ParsedArguments
        switch parse(arguments, io: io) {
        case .run(let arguments): parsed = arguments
        case .exit(let code): return code
        }
        if let extra = parsed.positionals.first { return reportUsageError(.unexpectedArgument(extra), io: io) }
        let text = JSONTreeWriter.prettyText(OpenAPIExporter.document(for: .v1))
        guard let output = parsed.value(for: "--output"), output != "-" else {
            io.write(text)
            return ExitCode.success
        }
        do {
            try TextFiles.write(text, to: TextFiles.resolve(output, in: io.currentDirectory), shown: output)
        } catch {
            io.writeErrorLine("Error: cannot write \(output): \(error.reason)")
            return ExitCode.usage
        }
        io.writeLine("wrote \(output)")
        return ExitCode.success
    }
}
