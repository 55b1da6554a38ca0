import Foundation
import Testing
import PushTestSupport

/// Every ```swift listing in the DocC catalogs' articles (`Sources/*/*.docc`) is code that
/// compiles and runs: it stands, line for line, in one of the recipe files beside this one,
/// which are compiled with the tests and run as tests. A listing's leading imports (and its
/// `#if canImport(FoundationNetworking)` lines) need only be imported by a recipe file.
/// Manifest listings (`.package(`) are checked by `PackagePinTests` in RepositoryDocsTests.
@Suite struct DocCListingTests {
    static let root = URL(fileURLWithPath: packageRoot)
    static let recipeDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    static func articles() throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        var found: [String] = []
        for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("\(module).docc")
            guard let walker = FileManager.default.enumerator(atPath: catalog.path) else { continue }
            for case let file as String in walker where file.hasSuffix(".md") {
                found.append("Sources/\(module)/\(module).docc/\(file)")
            }
        }
        return found.sorted()
    }

    static func recipes() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: recipeDirectory.path).sorted()
            .filter { $0.hasSuffix("Recipe.swift") || $0.hasSuffix("Recipes.swift") }
            .map { try String(contentsOf: recipeDirectory.appendingPathComponent($0), encoding: .utf8) }
    }

    /// The ```swift blocks of a Markdown text, each as its lines.
    static func swiftListings(in text: String) -> [[String]] {
        var listings: [[String]] = []
        var current: [String]?
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current == nil, trimmed == "```swift" {
                current = []
            } else if let lines = current, trimmed == "```" {
                listings.append(lines)
                current = nil
            } else if current != nil {
                current?.append(line)
            }
        }
        return listings
    }

    /// Why a listing is not in the recipes, or nil when it is.
    static func problem(with listing: [String], recipes: [String]) -> String? {
        let lines = listing.map { String($0.reversed().drop { $0 == " " }.reversed()) }
        let isHeader: (String) -> Bool = { $0.hasPrefix("import ") || $0.hasPrefix("#if canImport") || $0 == "#endif" || $0.isEmpty }
        let header = lines.prefix(while: isHeader)
        let recipeLines = Set(recipes.flatMap { $0.components(separatedBy: "\n") }.map { $0.components(separatedBy: "  //")[0] })
        for line in header where !line.isEmpty && !recipeLines.contains(line.components(separatedBy: "  //")[0]) {
            return "no recipe has `\(line)`"
        }
        let body = lines.dropFirst(header.count).joined(separator: "\n").trimmingCharacters(in: .newlines)
        if body.isEmpty { return nil }
        return recipes.contains { $0.contains(body) } ? nil : "not in any recipe file:\n\(body)"
    }

    @Test func everySwiftListingOfTheCatalogsIsInARecipeThatCompiles() throws {
        let recipes = try Self.recipes()
        var checked = 0
        for article in try Self.articles() {
            let text = try String(contentsOf: Self.root.appendingPathComponent(article), encoding: .utf8)
            for listing in Self.swiftListings(in: text) where !listing.joined().contains(".package(") {
                checked += 1
                if let problem = Self.problem(with: listing, recipes: recipes) {
                    Issue.record("\(article): \(problem)")
                }
            }
        }
        #expect(recipes.count >= 4)
        #expect(checked >= 8, "the catalogs' articles should show their recipes; \(checked) listings found")
    }

    @Test func aListingChangedByOneCharacterIsFound() throws {
        let recipes = try Self.recipes()
        let listing = ["import FakeAPNs", "", "        #expect(status == 410)"]
        #expect(Self.problem(with: listing, recipes: recipes) == nil)
        #expect(Self.problem(with: ["        #expect(status == 411)"], recipes: recipes) != nil)
        #expect(Self.problem(with: ["import FakeAPNS"], recipes: recipes) == "no recipe has `import FakeAPNS`")
    }
}
