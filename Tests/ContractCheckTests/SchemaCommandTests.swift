import ContractCheckCLI
import Contracts
import Foundation
import Testing
import PushTestSupport

/// The golden schema folder and what one contract emits, for editing copies in tests.
enum Goldens {
    static let folder = packageRoot + "/Fixtures/schemas"

    static func tree(_ path: String) throws -> JSONTree {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return JSONTree(try JSONReader.parse(Array(text.utf8)))
    }

    /// `tree` with the value at `path` (object keys) replaced by `change(old value)`.
    static func edit(_ tree: JSONTree, _ path: [String], _ change: (JSONTree?) -> JSONTree?) -> JSONTree {
        guard case .object(var members) = tree else { return tree }
        guard let first = path.first else { return change(tree) ?? .null }
        if path.count == 1 {
            members[first] = change(members[first])
        } else {
            members[first] = edit(members[first] ?? .object([:]), Array(path.dropFirst()), change)
        }
        return .object(members)
    }
}

@Suite struct SchemaCommandTests {
    @Test func committedGoldensAreCurrent() {
        let result = runTool(["schema", "--check"], in: packageRoot)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("\(ContractSet.v1.contracts.count) schema files current (0 written) in Fixtures/schemas"))
    }

    @Test func missingModeWritesOnlyMissingFiles() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let first = runTool(["schema", "--dir", "schemas"], in: folder.path)
        #expect(first.status == 0)
        #expect(first.outputLines.filter { $0.hasPrefix("wrote ") }.count == ContractSet.v1.contracts.count)
        let payload = try String(contentsOfFile: folder.path + "/schemas/payload.schema.json", encoding: .utf8)
        let contract = try #require(ContractSet.v1.contract(named: "payload"))
        #expect(payload == JSONSchemaExporter.emittedText(for: contract))

        // A changed file is compared, not overwritten, in the default mode.
        try folder.write("schemas/payload.schema.json", payload.replacingOccurrences(of: "\"ORDER_UPDATE\",", with: "\"ORDER_UPDATE\", \"PROMO\","))
        let second = runTool(["schema", "--dir", "schemas"], in: folder.path)
        #expect(second.status == 1)
        #expect(second.output.contains("schemas/payload.schema.json: differs from the schema the payload contract emits"))
        #expect(try String(contentsOfFile: folder.path + "/schemas/payload.schema.json", encoding: .utf8) != payload)
    }

    @Test func checkPrintsADiffAndTheReRecordCommand() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        #expect(runTool(["schema", "--write", "--dir", "g"], in: folder.path).status == 0)
        let path = folder.path + "/g/notification-opened.schema.json"
        let original = try String(contentsOfFile: path, encoding: .utf8)
        try folder.write("g/notification-opened.schema.json", original.replacingOccurrences(of: "\"seeOffer\"", with: "\"seeOffers\""))
        let result = runTool(["schema", "--check", "--dir", "g"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("--- a/g/notification-opened.schema.json (golden)"))
        #expect(result.output.contains("+++ b/g/notification-opened.schema.json (emitted)"))
        #expect(result.output.contains("-        \"seeOffers\""))
        #expect(result.output.contains("+        \"seeOffer\""))
        #expect(result.output.contains("@@ -"))
        #expect(result.output.contains("swift run contract-check schema --write --dir g"))
        // --check never writes.
        #expect(try String(contentsOfFile: path, encoding: .utf8) != original)
    }

    @Test(arguments: [
        ["CI": "true"],
        ["CI": "1", "PUSHCONTRACTS_RECORD": "all"],
        ["PUSHCONTRACTS_RECORD": "never"],
    ])
    func neverRecordsOnCIOrWithNever(_ environment: [String: String]) throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/s", withIntermediateDirectories: true)
        let result = runTool(["schema", "--dir", "s"], in: folder.path, environment: environment)
        #expect(result.status == 1)
        #expect(result.output.contains("s/payload.schema.json: missing (contract payload)"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/s/payload.schema.json"))
    }

    @Test func recordAllRewritesADifferentFile() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("s/device-token.schema.json", "{}\n")
        let result = runTool(["schema", "--dir", "s"], in: folder.path, environment: ["PUSHCONTRACTS_RECORD": "all", "CI": "false"])
        #expect(result.status == 0)
        #expect(result.output.contains("wrote s/device-token.schema.json"))
        let contract = try #require(ContractSet.v1.contract(named: "device-token"))
        #expect(try String(contentsOfFile: folder.path + "/s/device-token.schema.json", encoding: .utf8) == JSONSchemaExporter.emittedText(for: contract))
    }

    @Test(arguments: [
        (["schema", "--check", "--write"], [String: String]()),
        (["schema"], ["PUSHCONTRACTS_RECORD": "sometimes"]),
        (["schema", "extra"], [String: String]()),
    ])
    func usageErrors(_ arguments: [String], _ environment: [String: String]) {
        let result = runTool(arguments, environment: environment)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: "))
    }

    @Test func checkAndWriteTogetherSayTheyCannotBeCombined() {
        let result = runTool(["schema", "--check", "--write"])
        #expect(result.status == 64)
        #expect(result.errorLines.first == "Error: --check and --write cannot be combined; give one", "\(result.error)")
    }

    @Test func expressibleRulesListsVerdictsAndFolders() throws {
        let result = runTool(["schema", "--expressible-rules"])
        #expect(result.status == 0)
        let tree = JSONTree(try JSONReader.parse(Array(result.output.utf8)))
        let expressible = tree["expressible"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let inexpressible = tree["inexpressible"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(expressible.contains("payload.silent-push"))
        #expect(inexpressible.contains("payload.size"))
        #expect(inexpressible.contains("payload.duplicate-key"))
        #expect(tree["folders"]?["payloads"] == .string("payload.schema.json"))
        #expect(tree["extensions"]?["apns"] == .string("apns-file.schema.json"))
    }
}

@Suite struct LineDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(LineDiff.unified(old: "a\nb\n", new: "a\nb\n", oldLabel: "x", newLabel: "y") == "")
    }

    @Test func oneChangedLineInTheMiddle() {
        let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let new = old.replacingOccurrences(of: "line 5\n", with: "line five\n")
        #expect(LineDiff.unified(old: old, new: new, oldLabel: "a/f", newLabel: "b/f") == """
            --- a/f
            +++ b/f
            @@ -2,7 +2,7 @@
             line 2
             line 3
             line 4
            -line 5
            +line five
             line 6
             line 7
             line 8

            """)
    }

    @Test func fromNothing() {
        #expect(LineDiff.unified(old: "", new: "a\nb\n", oldLabel: "x", newLabel: "y") == "--- x\n+++ y\n@@ -0,0 +1,2 @@\n+a\n+b\n")
    }

    @Test func editsKeepCommonLines() {
        let edits = LineDiff.edits(old: ["a", "b", "c", "d"], new: ["a", "c", "d", "e"])
        #expect(edits == [.same("a"), .removed("b"), .same("c"), .same("d"), .added("e")])
    }

    @Test func separateHunks() {
        let old = (1...20).map(String.init).joined(separator: "\n")
        let new = old.replacingOccurrences(of: "2\n", with: "two\n").replacingOccurrences(of: "\n18\n", with: "\neighteen\n")
        let diff = LineDiff.unified(old: old, new: new, oldLabel: "x", newLabel: "y")
        #expect(diff.components(separatedBy: "\n@@ ").count == 3)
    }

    /// Run from the wrong folder, neither the default mode nor a check invents a golden
    /// folder or diffs seven files against nothing: exit 64, "folder not found".
    @Test(arguments: [["schema"], ["schema", "--check"], ["schema", "--check", "--dir", "/no/such/folder"]])
    func aMissingGoldenFolderIsAUsageError(_ arguments: [String]) throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let result = runTool(arguments, in: folder.path, environment: [:])
        #expect(result.status == 64, "\(result.output)\(result.error)")
        #expect(result.error.hasPrefix("Error: folder not found: "), "\(result.error)")
        #expect(!result.output.contains("---"), "no diffs")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/Fixtures"))
    }

    @Test func writeCreatesTheFolderItWasAskedFor() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let result = runTool(["schema", "--write"], in: folder.path, environment: [:])
        #expect(result.status == 0, "\(result.error)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/Fixtures/schemas/payload.schema.json"))
    }
}
