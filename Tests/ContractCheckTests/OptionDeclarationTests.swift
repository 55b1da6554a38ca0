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

    /// The rows of the serve option table, generated from the declarations: what to paste
    /// into Docs/readme/cli.md as a starting point when an option is added.
    static func optionTable(_ options: [OptionSpec]) -> String {
        (["| option | what it does |", "| --- | --- |"] + options.map { "| `\($0.synopsis)` | \($0.help) |" }).joined(separator: "\n")
    }

    /// cli.md's serve section: its usage block and its option table name exactly the
    /// declared options (the table's words are richer than `--help`'s line, so only the
    /// names are compared; the usage block shows each option as declared, value name and all).
    @Test func cliDocNamesEveryServeOptionAsDeclared() throws {
        let doc = try String(contentsOfFile: packageRoot + "/Docs/readme/cli.md", encoding: .utf8)
        let section = try #require(doc.components(separatedBy: "\n## serve\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        let usage = section.components(separatedBy: "```").dropFirst().first ?? ""
        let flatUsage = usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in ServeOption.all {
            #expect(flatUsage.contains("[" + option.synopsis), "cli.md's serve usage lacks [\(option.synopsis)")
        }
        let firstCells = section.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { $0.split(separator: "|").first.map(String.init) ?? "" }
        var named: Set<String> = []
        for cell in firstCells {
            for token in cell.split(whereSeparator: { $0 == "`" || $0 == " " || $0 == "," }) where token.hasPrefix("--") { named.insert(String(token)) }
        }
        let declared = Set(ServeOption.all.map(\.name))
        #expect(named == declared, """
            cli.md's serve table names \(named.subtracting(declared).sorted()) not declared and misses \(declared.subtracting(named).sorted()); \
            the declarations as a table:
            \(Self.optionTable(ServeOption.all))
            """)
    }
}
