import Foundation
import Testing
import PushTestSupport

/// Docs/readme/platforms.md lists every Sources file with a Darwin-only line, so the Linux CI
/// reader knows exactly which code a Mac runs that CI does not. The list is checked against
/// the sources themselves, the single place it comes from (it once named a file with no such
/// line and missed two that had one).
@Suite struct PlatformsDocTests {
    static let page = "Docs/readme/platforms.md"
    static let heading = "### Darwin-only lines in Sources/"

    /// True when `source` has a line only Darwin compiles, or one chosen by platform: an
    /// `import Darwin`, an `#if os(…)`/`#elseif os(…)`, a `canImport(Darwin)` or
    /// `canImport(FoundationEssentials)` condition, or an `#else` in a file that tests
    /// `canImport(Glibc)` (the Darwin side of a Glibc-first condition).
    static func hasPlatformLine(_ source: String) -> Bool {
        let lines = source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let testsGlibc = lines.contains { $0.hasPrefix("#") && $0.contains("canImport(Glibc)") }
        return lines.contains { line in
            line == "import Darwin"
                || line.hasPrefix("#if os(") || line.hasPrefix("#elseif os(")
                || (line.hasPrefix("#") && (line.contains("canImport(Darwin)") || line.contains("canImport(FoundationEssentials)")))
                || (testsGlibc && line.hasPrefix("#else"))
        }
    }

    /// The Swift files under Sources/ with such a line, relative to the package root, sorted.
    static func filesWithPlatformLines() throws -> [String] {
        let sources = packageRoot + "/Sources"
        let found = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []
        return try found.filter { $0.hasSuffix(".swift") }.sorted().filter { file in
            hasPlatformLine(try String(contentsOfFile: sources + "/" + file, encoding: .utf8))
        }.map { "Sources/" + $0 }
    }

    /// The files named in the first cell of the list's table rows (`` | `Sources/…` | ``),
    /// between its heading and the next heading or the "Shared lines" paragraph.
    static func listedFiles(_ page: String) -> [String] {
        guard let start = page.range(of: heading) else { return [] }
        var files: [String] = []
        for line in page[start.upperBound...].split(separator: "\n").dropFirst() {
            if line.hasPrefix("#") || line.hasPrefix("Shared lines") { break }
            guard line.hasPrefix("| `Sources/") else { continue }
            files.append(String(line.split(separator: "`")[1]))
        }
        return files
    }

    @Test func theDarwinListNamesEveryFileWithAPlatformLine() throws {
        let actual = try Self.filesWithPlatformLines()
        let listed = Self.listedFiles(try DocsTests.text(Self.page))
        #expect(actual.count >= 10, "found only \(actual) in Sources")
        #expect(Set(listed).count == listed.count, "\(Self.page) lists a file twice: \(listed)")
        let missing = Set(actual).subtracting(listed).sorted()
        let extra = Set(listed).subtracting(actual).sorted()
        #expect(missing.isEmpty && extra.isEmpty,
                "\(Self.page), \(Self.heading): add a row for \(missing) (they have a Darwin-only or platform-chosen line); remove \(extra) (no such line there)")
    }

    @Test func theScannerAndTheListReaderFindWhatTheyShould() {
        #expect(Self.hasPlatformLine("#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n"))
        #expect(Self.hasPlatformLine("    #if canImport(Glibc)\n    x()\n    #else\n    y()\n    #endif\n"))
        #expect(Self.hasPlatformLine("        #if os(Linux)\n        z()\n        #endif\n"))
        #expect(!Self.hasPlatformLine("#if canImport(Glibc)\nimport Glibc\n// everything Linux-only\n#endif\n"))
        #expect(!Self.hasPlatformLine("import Foundation\n/// `import Darwin` in a comment\nlet x = 1\n"))
        let page = """
        ### Darwin-only lines in Sources/

        | File | Darwin-only lines | Why |
        |---|---|---|
        | `Sources/A/B.swift` | `import Darwin` | for `read`. |
        | | `more` | of B |
        | `Sources/C.swift` | x | y |

        Shared lines that look platform-specific: `Sources/D.swift`.

        | `Sources/E.swift` | not in the list | |
        """
        #expect(Self.listedFiles(page) == ["Sources/A/B.swift", "Sources/C.swift"])
    }
}
