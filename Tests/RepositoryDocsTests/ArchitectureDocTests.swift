import Foundation
import Testing
import PushTestSupport

/// Docs/readme/architecture.md's module table against the places the modules come from:
/// Package.swift declares the same modules, the `import` lines of each module's sources are
/// the row's imports (and Package.swift's dependencies), in an order where every import points
/// down (to a row above), and each row's line count is within 15 % of the sources'.
@Suite struct ArchitectureDocTests {
    static let page = "Docs/readme/architecture.md"

    /// A module as declared in Package.swift or as one row of the page's table.
    struct Module: Equatable, CustomStringConvertible {
        var name: String
        var imports: Set<String>
        var description: String { "\(name) → \(imports.sorted())" }
    }

    /// The `.target` and `.executableTarget` lines of a manifest, in order, with their
    /// `dependencies: [...]` (plain target names).
    static func manifestModules(_ manifest: String) -> [Module] {
        manifest.split(separator: "\n").compactMap { line -> Module? in
            let line = String(line)
            guard let range = line.range(of: #"\.(target|executableTarget)\(name: "[^"]+""#, options: .regularExpression),
                  !line.contains(#"path: "Tests/"#) else { return nil }  // the tests' support library is no layer
            let name = line[range].split(separator: "\"")[1]
            var imports: Set<String> = []
            if let open = line.range(of: "dependencies: ["),
               let close = line[open.upperBound...].firstIndex(of: "]") {
                imports = Set(line[open.upperBound..<close].split(separator: ",").map {
                    $0.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
                }.filter { !$0.isEmpty })
            }
            return Module(name: String(name), imports: imports)
        }
    }

    /// The table rows whose first cell is a module in backticks: name, then the imports cell
    /// (backticked names, or "—" for none).
    static func tableModules(_ page: String) -> [Module] {
        page.split(separator: "\n").compactMap { line -> Module? in
            guard line.hasPrefix("| `") else { return nil }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { return nil }
            func names(_ cell: String) -> [String] {
                cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            }
            guard let name = names(cells[0]).first else { return nil }
            return Module(name: name, imports: Set(names(cells[2])))
        }
    }

    static func manifest() throws -> [Module] {
        manifestModules(try DocsTests.text("Package.swift"))
    }

    static func table() throws -> [Module] {
        tableModules(try DocsTests.text(page))
    }

    @Test func theTableListsEveryModuleOfThePackageOnce() throws {
        let declared = try Self.manifest().map(\.name)
        let listed = try Self.table().map(\.name)
        #expect(declared.count >= 10, "Package.swift: found only \(declared)")
        #expect(listed.sorted() == declared.sorted(),
                "\(Self.page) lists \(listed.sorted()); Package.swift declares \(declared.sorted()) (missing: \(Set(declared).subtracting(listed).sorted()), extra: \(Set(listed).subtracting(declared).sorted()))")
        #expect(Set(listed).count == listed.count, "\(Self.page) lists a module twice: \(listed)")
    }

    @Test func eachRowStatesThePackageImports() throws {
        let declared = Dictionary(try Self.manifest().map { ($0.name, $0.imports) }, uniquingKeysWith: { first, _ in first })
        for row in try Self.table() {
            guard let imports = declared[row.name] else { continue }
            #expect(row.imports == imports,
                    "\(Self.page): \(row.name) imports \(row.imports.sorted()) in the table, \(imports.sorted()) in Package.swift")
        }
    }

    /// The package's modules each Swift file under Sources/<module> imports (`import X`,
    /// `@testable import X`, however indented, inside `#if` too); system modules are left out.
    static func sourceImports(of module: String, among modules: Set<String>) -> Set<String> {
        let folder = packageRoot + "/Sources/" + module
        guard let files = FileManager.default.enumerator(atPath: folder) else { return [] }
        var imports: Set<String> = []
        for case let file as String in files where file.hasSuffix(".swift") {
            guard let text = try? String(contentsOfFile: folder + "/" + file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                let index = words.first == "@testable" ? 1 : 0
                guard words.count > index + 1, words[index] == "import" else { continue }
                let name = String(words[index + 1])
                if modules.contains(name), name != module { imports.insert(name) }
            }
        }
        return imports
    }

    /// The rows' imports are what the sources import, not only what Package.swift allows (it
    /// let PushScenarios import PushCore, which none of its files did).
    @Test func eachRowStatesWhatItsSourcesImport() throws {
        let manifest = try Self.manifest()
        let names = Set(manifest.map(\.name))
        let declared = Dictionary(manifest.map { ($0.name, $0.imports) }, uniquingKeysWith: { first, _ in first })
        for row in try Self.table() where row.name != "CLoopbackShim" {
            let imported = Self.sourceImports(of: row.name, among: names)
            #expect(!imported.isEmpty || row.imports.isEmpty, "Sources/\(row.name): no import found")
            #expect(row.imports == imported,
                    "\(Self.page): \(row.name) imports \(row.imports.sorted()) in the table; its sources import \(imported.sorted())")
            #expect(declared[row.name] == imported,
                    "Package.swift: \(row.name) depends on \(declared[row.name]?.sorted() ?? []); its sources import \(imported.sorted())")
        }
    }

    /// The Lines column is near the truth (within 15 %): the command under the table recounts.
    @Test func eachRowsLineCountIsNearTheSources() throws {
        let page = try DocsTests.text(Self.page)
        for line in page.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let name = cells[0].split(separator: "`").first.map(String.init),
                  let listed = Int(cells[3].prefix { $0.isNumber || $0 == "," }.replacingOccurrences(of: ",", with: "")) else { continue }
            let folder = packageRoot + "/Sources/" + name
            let files = try #require(FileManager.default.enumerator(atPath: folder), "no folder Sources/\(name)")
            var counted = 0
            for case let file as String in files
            where [".swift", ".c", ".h"].contains(where: file.hasSuffix) {
                counted += (try? String(contentsOfFile: folder + "/" + file, encoding: .utf8))?.utf8.lazy.filter { $0 == 0x0A }.count ?? 0
            }
            #expect(abs(counted - listed) * 100 <= counted * 15,
                    "\(Self.page): \(name) has \(listed) lines in the table, \(counted) in Sources/\(name); recount with the command under the table")
        }
    }

    /// The table is bottom up, so "arrows only downward" reads as: every import is a row above.
    @Test func everyImportPointsDown() throws {
        var below: Set<String> = []
        for row in try Self.table() {
            #expect(row.imports.isSubset(of: below),
                    "\(Self.page): \(row.name) imports \(row.imports.subtracting(below).sorted()), not below it in the table")
            below.insert(row.name)
        }
    }

    /// Benchmarks are a package of their own (Benchmarks/Package.swift), so neither this
    /// package's build nor a consumer's compiles them.
    @Test func noTargetOfThePackageLivesUnderBenchmarks() throws {
        let manifest = try DocsTests.text("Package.swift")
        #expect(!manifest.contains(#"path: "Benchmarks"#), "Package.swift: a target under Benchmarks/; put it in Benchmarks/Package.swift")
    }

    /// The benchmark package compiles the modules its executables use again, from the same
    /// folders (Benchmarks/Modules/<Name> links to Sources/<Name>) with the same imports, so
    /// what it measures is this package's code.
    @Test func theBenchmarkPackageCompilesTheSameModules() throws {
        let declared = Dictionary(try Self.manifest().map { ($0.name, $0.imports) }, uniquingKeysWith: { first, _ in first })
        let benchmarkManifest = try DocsTests.text("Benchmarks/Package.swift")
        let copies = Self.manifestModules(benchmarkManifest).filter { declared[$0.name] != nil }
        #expect(copies.count >= 5, "Benchmarks/Package.swift: found only \(copies)")
        for copy in copies {
            #expect(copy.imports == declared[copy.name], "Benchmarks/Package.swift: \(copy.name) imports \(copy.imports.sorted()), Package.swift \(declared[copy.name]?.sorted() ?? [])")
            #expect(benchmarkManifest.contains(#".target(name: "\#(copy.name)""#) && benchmarkManifest.contains(#"path: "Modules/\#(copy.name)")"#),
                    "Benchmarks/Package.swift: \(copy.name) is not a library target at Modules/\(copy.name)")
            let link = try? FileManager.default.destinationOfSymbolicLink(atPath: packageRoot + "/Benchmarks/Modules/" + copy.name)
            #expect(link == "../../Sources/" + copy.name, "Benchmarks/Modules/\(copy.name) links to \(link ?? "nothing"), not ../../Sources/\(copy.name)")
        }
    }

    @Test func theParsersReadDependenciesAndImports() {
        let manifest = """
            .target(name: "A"),
            .target(name: "B", dependencies: ["A", "C"]),
            .executableTarget(name: "tool", dependencies: ["B"]),
            .target(name: "D", dependencies: ["A"], path: "Modules/D"),
            .testTarget(name: "BTests", dependencies: ["B"]),
        """
        #expect(Self.manifestModules(manifest) == [
            Module(name: "A", imports: []), Module(name: "B", imports: ["A", "C"]), Module(name: "tool", imports: ["B"]),
            Module(name: "D", imports: ["A"]),
        ])
        let page = """
        | Module | What it holds | Imports | Lines |
        |---|---|---|---|
        | `A` | the `Thing` type | — | 84 |
        | `B` | more | `A`, `C` | 1,000 |
        """
        #expect(Self.tableModules(page) == [Module(name: "A", imports: []), Module(name: "B", imports: ["A", "C"])])
    }
}
