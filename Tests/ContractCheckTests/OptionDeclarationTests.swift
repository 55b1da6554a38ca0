import Foundation
import Testing
@testable import ContractCheckCLI
import PushTestSupport

/// Issue 37 item 3: each serve option is declared once (``ServeOption``) and every other
/// place refers to that declaration, so no spelling of an option is left to drift.
@Suite struct OptionDeclarationTests {
    /// The Swift files of ContractCheckCLI, by path.
    static func cliSources() throws -> [(path: String, text: String)] {
        let root = packageRoot + "/Sources/ContractCheckCLI"
        let paths = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".swift") }.sorted()
        return try paths.map { ($0, try String(contentsOfFile: root + "/" + $0, encoding: .utf8)) }
    }

    /// Where `name` occurs as a token (not followed or preceded by a letter or dash).
    static func occurrences(of name: String, in text: String) -> Int {
        let pattern = "(?<![A-Za-z0-9-])" + NSRegularExpression.escapedPattern(for: name) + "(?![A-Za-z0-9-])"
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return -1 }
        return regex.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
    }

    @Test func everyServeOptionIsSpelledOnceInTheSources() throws {
        let sources = try Self.cliSources()
        #expect(ServeOption.all.count == 20)
        #expect(Set(ServeOption.all.map(\.name)).count == ServeOption.all.count)
        for option in ServeOption.all {
            let places = sources.compactMap { source -> String? in
                let count = Self.occurrences(of: option.name, in: source.text)
                return count == 0 ? nil : "\(source.path) ×\(count)"
            }
            let total = sources.reduce(0) { $0 + Self.occurrences(of: option.name, in: $1.text) }
            #expect(total == 1, "\(option.name) is spelled \(total) times: \(places.joined(separator: ", ")); refer to ServeOption instead")
        }
    }

    @Test func serveParsesAndHelpsWithTheDeclarations() {
        #expect(ServeCommand.optionSpecs == ServeOption.all)
        #expect(ServeCommand.help.usage == ServeOption.usage)
        // Every declared option is in the usage line, with its value name.
        for option in ServeOption.all { #expect(ServeOption.usage.contains("[" + option.synopsis), "usage lacks \(option.synopsis)") }
    }

    /// A declared default is the default: giving it on the command line parses to the same
    /// options as leaving the option out.
    @Test func declaredDefaultsAreServesDefaults() throws {
        let withDefaults = ServeOption.all.filter { $0.defaultValue != nil }
        #expect(withDefaults.map(\.name) == [ServeOption.backendPort, ServeOption.adminPort, ServeOption.apnsPort,
                                              ServeOption.apnsEnvironment, ServeOption.color].map(\.name))
        let none = try ServeCommand.parse([])
        for option in withDefaults {
            let given = try ServeCommand.parse([option.name, option.defaultValue ?? ""])
            #expect(given == none, "\(option.name) \(option.defaultValue ?? "") is not serve's default")
        }
    }

    /// The serve option table, generated from the declarations: what cli.md's table must
    /// hold (option and `--help` line; the third column, cli.md's details, is the doc's own).
    static func optionTable(_ options: [OptionSpec]) -> String {
        (["| option | what it does (`--help`'s line) | more |", "| --- | --- | --- |"]
            + options.map { "| `\(Self.cell($0.synopsis))` | \(Self.cell($0.help)) | … |" }).joined(separator: "\n")
    }

    /// `text` as a Markdown table cell: a `|` escaped.
    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }

    /// The cells of a Markdown table row, `\|` read as a `|` inside a cell.
    static func cells(_ row: Substring) -> [String] {
        let placeholder = "\u{0}"
        return row.replacingOccurrences(of: "\\|", with: placeholder).split(separator: "|", omittingEmptySubsequences: false)
            .dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: placeholder, with: "|") }
    }

    /// cli.md's serve section: its usage block shows each option as declared (value name and
    /// all), and its option table has one row per declared option, in `--help`'s order, each
    /// naming the option as declared with the declaration's help line, word for word, in its
    /// second column (the third holds the doc's details).
    @Test func cliDocShowsEveryServeOptionAsDeclared() throws {
        let doc = try String(contentsOfFile: packageRoot + "/Docs/readme/cli.md", encoding: .utf8)
        let section = try #require(doc.components(separatedBy: "\n## serve\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        let usage = section.components(separatedBy: "```").dropFirst().first ?? ""
        let flatUsage = usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in ServeOption.all {
            #expect(flatUsage.contains("[" + option.synopsis), "cli.md's serve usage lacks [\(option.synopsis)")
        }
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| `") }.map(Self.cells)
        let documented = rows.map { row in [row.first ?? "", row.dropFirst().first ?? ""] }
        let declared = ServeOption.all.map { ["`\($0.synopsis)`", $0.help] }
        for (row, option) in zip(documented, declared) where row != option {
            Issue.record("cli.md's serve table has \(row) where the declaration says \(option)")
        }
        #expect(documented.count == declared.count, """
            cli.md's serve table has \(documented.count) rows for \(declared.count) options; \
            the declarations as a table:
            \(Self.optionTable(ServeOption.all))
            """)
    }
}
