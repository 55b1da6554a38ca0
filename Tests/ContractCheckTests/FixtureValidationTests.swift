import ContractCheckCLI
import Contracts
import Foundation
import Testing
import PushTestSupport

/// `contract-check validate` over the shipped fixtures with the v1 contracts, run in-process
/// exactly as `swift run contract-check validate …` would.
@Suite struct FixtureValidationTests {
    /// One invalid fixture and the rule ids its `NAME.expect` sidecar declares.
    struct InvalidFixture: CustomTestStringConvertible, Sendable {
        var relativePath: String
        var expectedRuleIDs: Set<String>
        var testDescription: String { relativePath }
    }

    static let fixturesRoot = packageRoot + "/Fixtures"

    /// Every `invalid/**/*.{json,apns}` with its sidecar, in byte order.
    static let invalidFixtures: [InvalidFixture] = {
        let base = fixturesRoot + "/invalid"
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var result: [InvalidFixture] = []
        for case let relative as String in enumerator where relative.hasSuffix(".json") || relative.hasSuffix(".apns") {
            let sidecar = base + "/" + (relative as NSString).deletingPathExtension + ".expect"
            let text = (try? String(contentsOfFile: sidecar, encoding: .utf8)) ?? ""
            let ids = text.split(whereSeparator: \.isNewline)
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
                .compactMap { $0.split(separator: " ").first.map(String.init) }
            result.append(InvalidFixture(relativePath: "Fixtures/invalid/" + relative, expectedRuleIDs: Set(ids)))
        }
        return result.sorted { $0.relativePath.utf8.lexicographicallyPrecedes($1.relativePath.utf8) }
    }()

    /// The rule id in brackets at the end of a text line.
    static func ruleID(of line: String) -> String? {
        guard line.hasSuffix("]"), let open = line.lastIndex(of: "[") else { return nil }
        return String(line[line.index(after: open)..<line.index(before: line.endIndex)])
    }

    @Test func validFixturesExitZero() {
        let result = runTool(["validate", "Fixtures/valid"], in: packageRoot)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains(": error:"))
        let summary = result.outputLines.last ?? ""
        #expect(summary.hasPrefix("checked ") && summary.contains(": 0 errors,"))
        // Every valid fixture was found and checked (none silently skipped).
        let count = FileManager.default.enumerator(atPath: Self.fixturesRoot + "/valid")?
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".json") || $0.hasSuffix(".apns") }.count ?? 0
        #expect(count >= 15)
        #expect(summary.hasPrefix("checked \(count) files:"))
    }

    @Test func thereAreInvalidFixturesToCheck() {
        #expect(Self.invalidFixtures.count >= 20)
        #expect(Self.invalidFixtures.allSatisfy { !$0.expectedRuleIDs.isEmpty })
    }

    @Test(arguments: invalidFixtures)
    func invalidFixtureExitsOneNamingItsRules(_ fixture: InvalidFixture) {
        let result = runTool(["validate", fixture.relativePath], in: packageRoot)
        #expect(result.status == 1, "\(fixture.relativePath) passed:\n\(result.output)")
        let findingLines = result.outputLines.filter { $0.hasPrefix(fixture.relativePath + ":") }
        let errorIDs = Set(findingLines.filter { $0.contains(": error: ") }.compactMap(Self.ruleID))
        let allIDs = Set(findingLines.compactMap(Self.ruleID))
        // Each declared rule is named; each error named is declared (warnings may come along).
        #expect(fixture.expectedRuleIDs.isSubset(of: allIDs), "\(fixture.relativePath): declared \(fixture.expectedRuleIDs.sorted()), output:\n\(result.output)")
        #expect(errorIDs.isSubset(of: fixture.expectedRuleIDs), "\(fixture.relativePath): unexpected \(errorIDs.subtracting(fixture.expectedRuleIDs).sorted())")
        // Every line names a line and column (fixtures are documents with positions).
        for line in findingLines where !fixture.relativePath.contains("/device-tokens/") && !fixture.relativePath.contains("/notification-ids/") {
            let place = line.dropFirst(fixture.relativePath.count + 1).prefix { $0 != " " }
            #expect(place.split(separator: ":").count == 2, "no line:col in \(line)")
        }
    }

    @Test func syntaxErrorFixtureNamesLineAndColumn() throws {
        let fixture = try #require(Self.invalidFixtures.first { $0.expectedRuleIDs.contains(ContractSet.syntaxRuleID) })
        let result = runTool(["validate", fixture.relativePath], in: packageRoot)
        #expect(result.status == 1)
        let line = try #require(result.outputLines.first)
        let place = line.dropFirst(fixture.relativePath.count + 1).prefix { $0 != " " }
        let numbers = place.split(separator: ":").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers.allSatisfy { $0 >= 1 }, "\(line)")
        #expect(line.hasSuffix("[json.syntax]"))
    }

    @Test func wholeInvalidFolderReportsEveryFile() {
        let result = runTool(["validate", "--format", "json", "Fixtures/invalid"], in: packageRoot)
        #expect(result.status == 1)
        let report = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) as? [String: Any]
        let files = report?["files"] as? [[String: Any]] ?? []
        #expect(files.count == Self.invalidFixtures.count)
        let failing = files.filter { ($0["violations"] as? [[String: Any]])?.contains { $0["severity"] as? String == "error" } == true }
        #expect(failing.count == Self.invalidFixtures.count)
    }

    @Test func noContractMessageListsTheV1Folders() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("misc/a.json", "{}")
        let result = runTool(["validate", "misc/a.json"], in: folder.path)
        #expect(result.status == 1)
        let line = try #require(result.outputLines.first)
        for hint in ["devices/", "opens/", "payloads/", "apns-errors/", "*.apns", "--contract NAME", "notification-opened"] {
            #expect(line.contains(hint), "\(hint) missing from: \(line)")
        }
    }

    @Test func payloadFixtureInGitHubFormat() throws {
        let fixture = try #require(Self.invalidFixtures.first { $0.relativePath == "Fixtures/invalid/payloads/mutable-content-true.json" })
        let result = runTool(["validate", "--format", "github", fixture.relativePath], in: packageRoot)
        #expect(result.status == 1)
        let line = try #require(result.outputLines.first)
        #expect(line.hasPrefix("::error file=\(fixture.relativePath),line="))
        #expect(line.contains(",title=payload.integer-flag::/aps/mutable-content: "))
    }
}
