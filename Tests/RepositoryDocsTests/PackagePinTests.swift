import Foundation
import Testing
@testable import ContractCheckCLI

/// The versions and pins a consumer reads agree: `contract-check --version` is CHANGELOG.md's
/// top released version and the API baseline's (API/VERSION); the README's dependency line
/// pins a form SwiftPM resolves without tags (branch or revision) or, with `from:`, the
/// released version; every product it names, the DocC article's and the example's, is a
/// library product of Package.swift, named with the package as Package.swift names it.
@Suite struct PackagePinTests {
    /// The first `## [x.y.z]` heading of a Keep a Changelog text (Unreleased skipped).
    static func topReleasedVersion(_ changelog: String) -> String? {
        for line in changelog.components(separatedBy: "\n") where line.hasPrefix("## [") {
            let name = line.dropFirst(4).prefix { $0 != "]" }
            let parts = name.split(separator: ".")
            if parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) { return String(name) }
        }
        return nil
    }

    /// The text of a file as code: a Markdown page's ```swift blocks, a manifest whole.
    static func code(_ file: String) throws -> String {
        let text = try DocsTests.text(file)
        guard file.hasSuffix(".md") else { return text }
        var blocks: [String] = []
        var inSwift = false
        for line in text.components(separatedBy: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inSwift = !inSwift && trimmed == "```swift"
            } else if inSwift {
                blocks.append(line)
            }
        }
        return blocks.joined(separator: "\n")
    }

    /// The `.package(…)` and `.product(name:package:)` calls of a manifest or snippet.
    static func dependencyCalls(_ text: String) -> (packages: [String], products: [(name: String, package: String)]) {
        let packages = matches(#"\.package\([^\n]*\)"#, in: text)
        let products = matches(#"\.product\(name: "([^"]+)", package: "([^"]+)"\)"#, in: text, groups: 2)
            .map { (name: $0[0], package: $0[1]) }
        return (packages.map { $0[0] }, products)
    }

    static func matches(_ pattern: String, in text: String, groups: Int = 0) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).map { match in
            (0...groups).dropFirst(groups == 0 ? 0 : 1).compactMap { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) }
            }
        }
    }

    /// Why a `.package(…)` pin would not resolve for a consumer, or nil.
    static func pinProblem(_ call: String, released: String) -> String? {
        if call.contains("path:") { return nil }
        guard call.contains("url: \"") else { return "\(call): neither url: nor path:" }
        if call.contains("branch: \"main\"") || call.contains("revision: \"") { return nil }
        if call.contains("from: \"\(released)\"") || call.contains("exact: \"\(released)\"") { return nil }
        return "\(call): pins neither branch: \"main\", a revision, nor the released \(released)"
    }

    static var libraries: [String] {
        get throws {
            matches(#"\.library\(name: "([^"]+)""#, in: try DocsTests.text("Package.swift"), groups: 1).map { $0[0] }
        }
    }

    @Test func versionIsTheChangelogsTopReleaseAndTheAPIBaselines() throws {
        let released = try #require(Self.topReleasedVersion(try DocsTests.text("CHANGELOG.md")))
        #expect(ContractCheck.version == released)
        let io = CommandIO.capturing()
        #expect(ContractCheck.main(["--version"], io: io) == 0)
        #expect(io.capturedOutput == "contract-check \(released)\n")
        let baseline = try DocsTests.text("API/VERSION").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(baseline == released, "API/VERSION is the last release's API; re-record it with scripts/api-check.sh --update \(released)")
    }

    @Test(arguments: ["README.md", "Sources/FakeBackend/FakeBackend.docc/AddTheFakesToAnXcodeTestTarget.md", "Examples/GroceryApp/Package.swift"])
    func dependencyLinesNameThePackagesProducts(_ file: String) throws {
        let released = try #require(Self.topReleasedVersion(try DocsTests.text("CHANGELOG.md")))
        let (packages, products) = Self.dependencyCalls(try Self.code(file))
        let libraries = try Self.libraries
        #expect(!packages.isEmpty, "\(file) shows no .package( line")
        for call in packages {
            #expect(Self.pinProblem(call, released: released) == nil, "\(file): \(call)")
        }
        #expect(!products.isEmpty, "\(file) names no product")
        for product in products {
            #expect(libraries.contains(product.name), "\(file): \(product.name) is not a library of Package.swift (\(libraries))")
            #expect(product.package == "PushContracts", "\(file): package \"\(product.package)\"")
        }
    }

    @Test func theReadmeNamesEveryLibraryAndTheArticlePinsAsTheReadmeDoes() throws {
        let readme = Self.dependencyCalls(try Self.code("README.md"))
        #expect(Set(readme.products.map(\.name)) == Set(try Self.libraries))
        let article = Self.dependencyCalls(try Self.code("Sources/FakeBackend/FakeBackend.docc/AddTheFakesToAnXcodeTestTarget.md"))
        #expect(article.packages == readme.packages, "the article pins as the README does")
    }

    // MARK: The checks bite

    @Test func aPinThatCannotResolveIsFound() {
        #expect(Self.pinProblem(#".package(url: "https://x/PushContracts.git", from: "0.1.0")"#, released: "0.2.0") != nil)
        #expect(Self.pinProblem(#".package(url: "https://x/PushContracts.git", from: "0.2.0")"#, released: "0.2.0") == nil)
        #expect(Self.pinProblem(#".package(url: "https://x/PushContracts.git", branch: "develop")"#, released: "0.2.0") != nil)
        #expect(Self.topReleasedVersion("## [Unreleased]\n\n## [1.2.3] - 2026-01-01\n## [1.2.2]") == "1.2.3")
        let calls = Self.dependencyCalls(#".product(name: "FakeAPNs", package: "PushContracts"),"#)
        #expect(calls.products.map(\.name) == ["FakeAPNs"])
    }
}
