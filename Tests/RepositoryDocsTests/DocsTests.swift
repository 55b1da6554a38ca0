import Foundation
import Testing
@testable import ContractCheckCLI
import PushTestSupport

/// The Markdown a newcomer reads: README.md and every page under Docs/. Each page's code
/// fences balance and no closing fence carries text (CommonMark would read it as content and
/// render the rest of the page inverted), and every `contract-check …` command shown parses
/// with the subcommand's own options, so a renamed or mistyped option in the docs fails here.
@Suite struct DocsTests {
    /// README.md and Docs/**/*.md, relative to the package root, sorted.
    static let markdownFiles: [String] = {
        var files = ["README.md"]
        let docs = packageRoot + "/Docs"
        let found = FileManager.default.enumerator(atPath: docs)?.compactMap { $0 as? String } ?? []
        files += found.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/" + $0 }
        return files
    }()

    static func text(_ file: String) throws -> String {
        try String(contentsOfFile: packageRoot + "/" + file, encoding: .utf8)
    }

    @Test(arguments: markdownFiles)
    func fencesBalanceAndClosingFencesCarryNoText(_ file: String) throws {
        #expect(MarkdownCommands.fenceProblems(try Self.text(file)) == [], "\(file)")
    }

    @Test(arguments: markdownFiles.filter { $0 == "README.md" || $0.hasPrefix("Docs/readme/") })
    func everyCommandShownParses(_ file: String) throws {
        for command in MarkdownCommands.commands(in: try Self.text(file)) {
            #expect(MarkdownCommands.problem(command.text) == nil, "\(file):\(command.line): \(command.text)")
        }
    }

    /// The extractor finds the commands (a broken one would pass every page by finding none).
    @Test func theDocsShowCommandsForEverySubcommand() throws {
        var all: [String] = []
        for file in Self.markdownFiles where file == "README.md" || file.hasPrefix("Docs/readme/") {
            all += MarkdownCommands.commands(in: try Self.text(file)).map(\.text)
        }
        #expect(all.count >= 30, "\(all)")
        for entry in ContractCheck.commandTable {
            #expect(all.contains { $0.contains("contract-check \(entry.name)") }, "no command shows \(entry.name)")
        }
    }

    // MARK: The checks themselves bite

    @Test func aClosingFenceWithTextAndAnUnclosedFenceAreFound() {
        #expect(MarkdownCommands.fenceProblems("```swift\nlet x = 1\n``` A probability\nmore\n") ==
                ["line 3: a closing fence carries text (\"A probability\"); put the text on its own line",
                 "line 1: the fence opened here is never closed"])
        #expect(MarkdownCommands.fenceProblems("```sh\necho\n```\n\n~~~\n```\n~~~\n") == [])
    }

    @Test(arguments: [
        ("swift run contract-check validate --formt json Fixtures/valid", "unknown option '--formt'; did you mean '--format'?"),
        ("contract-check validate --format yaml x.json", "invalid value 'yaml' for '--format'"),
        ("contract-check validate --verbose", "missing expected argument 'PATH...'"),
        ("contract-check serve --backend-port 99999", "invalid value '99999' for '--backend-port'"),
        ("contract-check schema --check extra", "unexpected argument 'extra'"),
        ("contract-check serv --quiet", "unknown subcommand 'serv'"),
        ("contract-check validate [--contract NAME] [--colour] PATH...", "'--colour' is not an option of validate"),
        ("contract-check --verison", "unknown option '--verison'"),
    ])
    func aBrokenCommandIsFound(command: String, expected: String) {
        let problem = MarkdownCommands.problem(command) ?? ""
        #expect(problem.contains(expected), "\(problem)")
    }

    @Test(arguments: [
        "contract-check serve --quiet --ready-file …",
        "swift run contract-check validate --format github Fixtures/valid samples/",
        "contract-check wait-ready \"$TMP/ready.json\" --timeout 10 --pid $! --log \"$TMP/serve.log\"",
        "contract-check breaking --against DIR|git:REF:PATH [--allow RULE@POINTER ...] [--format text|json|github]",
        "contract-check schema   [--check | --write] [--dir Fixtures/schemas] [--expressible-rules]",
        "contract-check serve --backend-port N --session TOKEN=ACCOUNT",
    ])
    func placeholdersAndSynopsesParse(command: String) {
        #expect(MarkdownCommands.problem(command) == nil)
    }

    @Test func commandsAreTakenFromBlocksAndInlineCodeWithContinuationsJoined() {
        let page = """
            Run `contract-check serve --quiet` first.

            ```sh
            $ swift run contract-check serve --session s1=a1 \\
                --apns-topic com.example.app &   # in the background
            - run: contract-check validate Fixtures/valid > out.txt
            curl -s http://127.0.0.1:8080   # not ours
            ```
            """
        #expect(MarkdownCommands.commands(in: page).map(\.text) == [
            "contract-check serve --quiet",
            "swift run contract-check serve --session s1=a1 --apns-topic com.example.app",
            "contract-check validate Fixtures/valid",
        ])
    }
}

/// Finds fences and `contract-check` commands in Markdown, and parses a command with the
/// CLI's own option tables (``ParsedArguments``, serve's value checks) without running it.
///
/// Placeholders: `…` or `...` stands for a value after an option that takes one, else for
/// "more arguments" (dropped); an ALL-CAPS word (`FILE`, `N`, `TOKEN=ACCOUNT`) or `<dir>` is a
/// value or path whose own checks are skipped, and so is a shell variable (`"$TMP/ready.json"`).
/// A subcommand alone (`contract-check validate` in a sentence) is a mention. A line with a `[`-bracketed token is a
/// synopsis: every `--option` in it must be one of the subcommand's.
enum MarkdownCommands {
    struct Command: Equatable {
        var line: Int
        var text: String
    }

    /// Fences: every opened fence closes, and a closing fence carries nothing after it.
    static func fenceProblems(_ text: String) -> [String] {
        var problems: [String] = []
        var open: (line: Int, marker: Character, length: Int)?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.drop { $0 == " " }
            guard let first = line.first, first == "`" || first == "~" else { continue }
            let run = line.prefix { $0 == first }.count
            guard run >= 3 else { continue }
            let rest = line.dropFirst(run).trimmingCharacters(in: .whitespaces)
            if let current = open {
                guard first == current.marker, run >= current.length else { continue }
                guard rest.isEmpty else {
                    // CommonMark reads it as content: the block stays open.
                    problems.append("line \(index + 1): a closing fence carries text (\"\(rest)\"); put the text on its own line")
                    continue
                }
                open = nil
            } else {
                open = (index + 1, first, run)
            }
        }
        if let open { problems.append("line \(open.line): the fence opened here is never closed") }
        return problems
    }

    static let prefixes = ["contract-check ", "swift run contract-check ", "swift run -c release contract-check "]

    /// The `contract-check` commands in code blocks (shell prompts, `- run:` and comments
    /// stripped, `\` continuations joined) and in inline code spans, with their line numbers.
    static func commands(in text: String) -> [Command] {
        var commands: [Command] = []
        var inBlock = false
        var pending: (line: Int, text: String)?
        var prose: [(line: Int, text: String)] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inBlock.toggle()
                continue
            }
            guard inBlock else {
                prose.append((index + 1, String(raw)))
                continue
            }
            var line = trimmed
            if let started = pending {
                pending = nil
                line = started.text + " " + line
            }
            for prefix in ["$ ", "- run: "] where line.hasPrefix(prefix) { line.removeFirst(prefix.count) }
            guard prefixes.contains(where: line.hasPrefix) else { continue }
            if line.hasSuffix("\\") {
                pending = (index + 1, String(line.dropLast()).trimmingCharacters(in: .whitespaces))
                continue
            }
            commands.append(Command(line: index + 1, text: cut(line)))
        }
        // Inline code may wrap across lines within a paragraph: join the prose first.
        let joined = prose.map(\.text).joined(separator: " ")
        var offsetLines: [Int] = []
        for (line, text) in prose { offsetLines += Array(repeating: line, count: text.count + 1) }
        var position = 0
        var start: Int?
        var span = ""
        for character in joined {
            if character == "`" {
                if let begin = start {
                    let text = span.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
                    if prefixes.contains(where: text.hasPrefix) {
                        commands.append(Command(line: begin < offsetLines.count ? offsetLines[begin] : 0, text: cut(text)))
                    }
                    start = nil
                } else {
                    start = position
                    span = ""
                }
            } else if start != nil {
                span.append(character)
            }
            position += 1
        }
        return commands.sorted { $0.line < $1.line }
    }

    /// The command without a trailing comment, redirection, pipe or background `&` (a
    /// synopsis keeps its `|` alternatives).
    static func cut(_ line: String) -> String {
        var result = line
        let markers = line.contains(" [") ? [" #"] : [" #", " &", " >", " |", ";", " 2>"]
        for marker in markers {
            if let range = result.range(of: marker) { result = String(result[..<range.lowerBound]) }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// Shell-like words: quotes group and are removed; no expansion.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var inWord = false
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    static func isPlaceholder(_ word: String) -> Bool {
        if word == "…" || word == "..." || word.hasSuffix("...") || word.hasPrefix("$") || (word.hasPrefix("<") && word.hasSuffix(">")) {
            return true
        }
        return word.contains { $0.isUppercase } && !word.contains { $0.isLowercase } && !word.hasPrefix("-")
    }

    /// Why `command` would not parse, or nil when it parses.
    static func problem(_ command: String) -> String? {
        guard let prefix = prefixes.first(where: command.hasPrefix) else { return "not a contract-check command" }
        var arguments = words(String(command.dropFirst(prefix.count)))
        guard let name = arguments.first else { return "no subcommand" }
        arguments.removeFirst()
        if isPlaceholder(name) { return nil }  // `contract-check <command> --help`
        if name == "help" {
            guard let topic = arguments.first, !isPlaceholder(topic) else { return nil }
            return ContractCheck.commandTable.contains { $0.name == topic } ? nil : "unknown subcommand '\(topic)'"
        }
        if name.hasPrefix("-") {
            return ["--help", "-h", "--version"].contains(name) ? nil : "unknown option '\(name)'"
        }
        guard let entry = ContractCheck.commandTable.first(where: { $0.name == name }) else {
            return "unknown subcommand '\(name)'"
        }
        if arguments.isEmpty { return nil }  // a mention in prose: "times `contract-check validate`"
        let options = entry.help.options
        if arguments.contains(where: { $0.hasPrefix("[") }) {
            // A synopsis: the options it names must exist.
            for word in arguments {
                for part in word.split(whereSeparator: { "[]|".contains($0) }) where part.hasPrefix("--") {
                    let option = String(part)
                    if option != "--help", !options.contains(where: { $0.name == option }) {
                        return "'\(option)' is not an option of \(name)"
                    }
                }
            }
            return nil
        }
        // `…` after an option that takes a value is that value; elsewhere, "and more".
        var concrete: [String] = []
        var hasPlaceholder = false
        for word in arguments {
            if word == "…" || word == "..." {
                hasPlaceholder = true
                if let previous = concrete.last, options.contains(where: { $0.name == previous && $0.valueName != nil }) {
                    concrete.append("PLACEHOLDER")
                }
                continue
            }
            if isPlaceholder(word) { hasPlaceholder = true }
            concrete.append(word)
        }
        let parsed: ParsedArguments
        do {
            parsed = try ParsedArguments.parse(concrete, options: options)
        } catch {
            return error.message
        }
        switch name {
        case "validate":
            if parsed.positionals.isEmpty && !hasPlaceholder { return UsageError.missingArgument("PATH...").message }
        case "wait-ready":
            if parsed.positionals.count != 1 { return "expected one FILE, found \(parsed.positionals.count)" }
        default:
            if let extra = parsed.positionals.first { return UsageError.unexpectedArgument(extra).message }
        }
        if name == "serve", !hasPlaceholder {
            do { _ = try ServeCommand.Options(parsed) } catch { return error.message }
        }
        if name == "breaking", parsed.value(for: "--against") == nil { return "breaking needs --against" }
        return nil
    }
}
