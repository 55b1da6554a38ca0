/// What `--help` prints for a subcommand, and the usage line printed under a usage error.
package struct CommandHelp: Sendable {
    /// One line: what the command does (also shown in the tool's subcommand list).
    package var abstract: String
    /// The synopsis after `contract-check `, e.g. `validate [--contract NAME] PATH...`.
    package var usage: String
    /// Positional arguments: placeholder and one line each.
    package var arguments: [(name: String, help: String)]
    /// The options (`--help` is added when printing).
    package var options: [OptionSpec]
    /// Paragraphs after the options: rules, exit codes, examples.
    package var discussion: String?

    /// See the properties; only `abstract` and `usage` are needed.
    package init(abstract: String, usage: String, arguments: [(name: String, help: String)] = [], options: [OptionSpec] = [], discussion: String? = nil) {
        self.abstract = abstract
        self.usage = usage
        self.arguments = arguments
        self.options = options
        self.discussion = discussion
    }

    /// The full help text, ending with a newline.
    package func rendered(toolName: String) -> String {
        var lines = ["OVERVIEW: \(abstract)", "", "USAGE: \(toolName) \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += arguments.map { Self.row($0.name, $0.help) }
        }
        lines += ["", "OPTIONS:"]
        lines += options.map { Self.row($0.synopsis, $0.help) }
        lines.append(Self.row("-h, --help", "Show help information."))
        if let discussion {
            lines += ["", discussion]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func row(_ left: String, _ right: String) -> String {
        let padded = left.count < 28 ? left + String(repeating: " ", count: 28 - left.count) : left + "\n" + String(repeating: " ", count: 30)
        return "  " + padded + right
    }
}
