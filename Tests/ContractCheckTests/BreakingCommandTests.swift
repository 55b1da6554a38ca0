@testable import ContractCheckCLI
import Contracts
import Foundation
import Testing
import PushTestSupport

@Suite struct BreakingCommandTests {
    /// A copy of the golden folder whose payload schema lacked the OFFER category, so the
    /// current contracts add an enum value installed apps cannot read.
    static func oldGoldensWithoutOffer() throws -> ScratchFolder {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        for name in try FileManager.default.contentsOfDirectory(atPath: Goldens.folder) where name.hasSuffix(".schema.json") {
            var tree = try Goldens.tree(Goldens.folder + "/" + name)
            if name == "payload.schema.json" {
                tree = Goldens.edit(tree, ["properties", "aps", "properties", "category", "enum"]) { _ in .strings(["ORDER_UPDATE"]) }
            }
            if name == "device-registration.schema.json" {
                tree = Goldens.edit(tree, ["properties", "locale"]) { _ in .object(["type": .string("string")]) }
            }
            try folder.write("old/" + name, JSONTreeWriter.prettyText(tree))
        }
        return folder
    }

    @Test func currentGoldensHaveNoChanges() {
        let result = runTool(["breaking", "--against", "Fixtures/schemas"], in: packageRoot)
        #expect(result.status == 0)
        #expect(result.output.contains("0 breaking, 0 allowed, 0 non-breaking changes against Fixtures/schemas"))
    }

    @Test func reportsBreaksWithIdAndPointer() throws {
        let folder = try Self.oldGoldensWithoutOffer()
        defer { folder.remove() }
        let result = runTool(["breaking", "--against", "old"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("breaking: payload /aps/category: breaking.backend-to-app.enum-value-added: /aps/category gained the value \"OFFER\""))
        #expect(result.output.contains("breaking: device-registration /locale: breaking.app-to-backend.member-removed:"))
        #expect(result.output.contains("2 breaking, 0 allowed,"))
        #expect(result.output.contains("--allow <id>@<pointer>"))
    }

    @Test func allowAcceptsAnIntendedBreak() throws {
        let folder = try Self.oldGoldensWithoutOffer()
        defer { folder.remove() }
        let result = runTool(["breaking", "--against", "old",
                              "--allow", "breaking.backend-to-app.enum-value-added@/aps/category",
                              "--allow", "breaking.app-to-backend.member-removed@/locale",
                              "--allow", "breaking.app-to-backend.required-added@/nothing"], in: folder.path)
        #expect(result.status == 0)
        #expect(result.output.contains("allowed: payload /aps/category: breaking.backend-to-app.enum-value-added"))
        #expect(result.output.contains("accepted by --allow breaking.backend-to-app.enum-value-added@/aps/category"))
        #expect(result.output.contains("note: --allow breaking.app-to-backend.required-added@/nothing matched no breaking change"))
        #expect(result.output.contains("0 breaking, 2 allowed,"))
    }

    @Test func jsonFormat() throws {
        let folder = try Self.oldGoldensWithoutOffer()
        defer { folder.remove() }
        let result = runTool(["breaking", "--against", "old", "--format", "json",
                              "--allow", "breaking.app-to-backend.member-removed@/locale"], in: folder.path)
        #expect(result.status == 1)
        let tree = JSONTree(try JSONReader.parse(Array(result.output.utf8)))
        #expect(tree["breaking"] == .integer(1))
        #expect(tree["allowed"] == .integer(1))
        let findings = tree["findings"]?.arrayValue ?? []
        let offer = findings.first { $0["pointer"] == .string("/aps/category") && $0["contract"] == .string("payload") }
        #expect(offer?["id"] == .string("breaking.backend-to-app.enum-value-added"))
        #expect(offer?["breaking"] == .bool(true))
        #expect(offer?["allowed"] == .bool(false))
        #expect(offer?["direction"] == .string("backendToApp"))
    }

    @Test func githubFormat() throws {
        let folder = try Self.oldGoldensWithoutOffer()
        defer { folder.remove() }
        let result = runTool(["breaking", "--against", "old", "--format", "github",
                              "--allow", "breaking.app-to-backend.member-removed@/locale"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.outputLines.contains { $0.hasPrefix("::error file=Fixtures/schemas/payload.schema.json,title=breaking.backend-to-app.enum-value-added::payload /aps/category: ") })
        #expect(result.outputLines.contains { $0.hasPrefix("::warning file=Fixtures/schemas/device-registration.schema.json,title=breaking.app-to-backend.member-removed (allowed)::") })
    }

    @Test func nonBreakingChangesAreInfo() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        for name in try FileManager.default.contentsOfDirectory(atPath: Goldens.folder) where name.hasSuffix(".schema.json") {
            var tree = try Goldens.tree(Goldens.folder + "/" + name)
            if name == "payload.schema.json" {
                // The route has a fallback: a longer route is fine for installed apps.
                tree = Goldens.edit(tree, ["properties", "route", "maxLength"]) { _ in .integer(100) }
            }
            try folder.write("old/" + name, JSONTreeWriter.prettyText(tree))
        }
        let result = runTool(["breaking", "--against", "old"], in: folder.path)
        #expect(result.status == 0)
        #expect(result.output.contains("info: payload /route: info.backend-to-app.length-loosened: /route: maxLength 100 → 200 — old apps fall back"))
    }

    @Test func removedContractBreaks() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let extra = Contract(name: "gone", direction: .appToBackend, summary: "Gone.", schema: .object([]))
        try folder.write("old/gone.schema.json", JSONSchemaExporter.emittedText(for: extra))
        let result = runTool(["breaking", "--against", "old"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("breaking.app-to-backend.contract-removed"))
        #expect(result.output.contains("info.backend-to-app.contract-added"))
    }

    @Test func readsAGitRef() {
        let result = runTool(["breaking", "--against", "git:HEAD:Fixtures/schemas", "--format", "json"], in: packageRoot)
        #expect(result.error.isEmpty, "\(result.error)")
        #expect(result.output.contains("\"findings\""))
    }

    @Test(arguments: [
        ["breaking"],
        ["breaking", "--against", "x", "--allow", "no-at-sign"],
        ["breaking", "--against", "x", "--format", "xml"],
    ])
    func usageErrors(_ arguments: [String]) {
        let result = runTool(arguments)
        #expect(result.status == 64)
    }

    /// A job that cannot read the old schemas is misconfigured: exit 64, naming the argument,
    /// never 1 (which means a real breaking change).
    @Test(arguments: [
        ("", "it is empty (an unset variable?)"),
        ("  ", "it is empty (an unset variable?)"),
        ("git:HEAD", "expected git:REF:PATH"),
        ("git:no-such-ref-xyz:Fixtures/schemas", "git ls-tree no-such-ref-xyz Fixtures/schemas/ failed"),
        ("/nonexistent/schemas", "is not a folder of *.schema.json files"),
        ("Sources", "holds no *.schema.json files"),
    ])
    func anUnreadableAgainstIsAUsageError(against: String, reason: String) {
        let result = runTool(["breaking", "--against", against], in: packageRoot)
        #expect(result.status == 64, "\(result.error)")
        #expect(result.error.hasPrefix("Error: cannot use '\(against)' for '--against': "), "\(result.error)")
        #expect(result.error.contains(reason), "\(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test(arguments: ["no-at-sign", "rule@no-slash", "@/aps", "two words@/x"])
    func aMalformedAllowSaysTheExpectedForm(_ allow: String) {
        let result = runTool(["breaking", "--against", "Fixtures/schemas", "--allow", allow], in: packageRoot)
        #expect(result.status == 64)
        #expect(result.error.contains("expected RULE@POINTER, e.g. breaking."), "\(result.error)")
    }

    @Test func wellFormedAllowsAreAccepted() {
        let result = runTool(["breaking", "--against", "Fixtures/schemas", "--allow", "breaking.app-to-backend.required-added@/locale",
                              "--allow", "info.x.y@", "--allow", "breaking.provider-to-apns.rule-added@#payload.size"], in: packageRoot)
        #expect(result.status == 0, "\(result.error)")
    }
}

@Suite struct OpenAPICommandTests {
    @Test func committedDocumentIsCurrent() throws {
        let result = runTool(["openapi"])
        #expect(result.status == 0)
        let golden = try String(contentsOfFile: packageRoot + "/Fixtures/openapi.json", encoding: .utf8)
        #expect(result.output == golden, "re-record with: swift run contract-check openapi --output Fixtures/openapi.json")
    }

    @Test func documentShape() throws {
        let tree = JSONTree(try JSONReader.parse(Array(runTool(["openapi"]).output.utf8)))
        #expect(tree["openapi"] == .string("3.1.0"))
        let devices = try #require(tree["paths"]?["/v1/devices/{token}"])
        #expect(devices["put"]?["requestBody"]?["content"]?["application/json"]?["schema"]?["$ref"] == .string("#/components/schemas/device-registration"))
        #expect(devices["delete"]?["requestBody"] == nil)
        #expect(devices["parameters"]?.arrayValue?.first?["schema"]?["$ref"] == .string("#/components/schemas/device-token"))
        let opened = try #require(tree["paths"]?["/v1/notifications/{id}/opened"]?["post"])
        let statuses = Set(opened["responses"]?.objectValue?.keys.map { $0 } ?? [])
        #expect(statuses == ["204", "400", "401", "404", "405", "413", "415", "429"])
        // 415 is about a body's media type: DELETE has no body and never answers it.
        let deleteStatuses = Set(devices["delete"]?["responses"]?.objectValue?.keys.map { $0 } ?? [])
        #expect(deleteStatuses == ["204", "400", "401", "404", "405", "413", "429"])
        #expect(tree["components"]?["securitySchemes"]?["bearer"]?["scheme"] == .string("bearer"))
        let problem = tree["components"]?["schemas"]?["Problem"]
        #expect(problem?["required"] == .strings(["type", "title", "status", "detail"]))
        #expect(tree["components"]?["schemas"]?["device-token"]?["pattern"] == .string(StringFormat.hexBytes.pattern))
        #expect(tree["components"]?["responses"]?["ContractViolation"]?["content"]?["application/problem+json"] != nil)
    }

    @Test func writesTheOutputFile() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/out", withIntermediateDirectories: true)
        let result = runTool(["openapi", "--output", "out/openapi.json"], in: folder.path)
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: folder.path + "/out/openapi.json", encoding: .utf8) == runTool(["openapi"]).output)
    }

    /// The folder of a path as typed, by bytes (NSString's deletingLastPathComponent traps on ".").
    @Test(arguments: [("out/x.json", "out"), ("x.json", ""), ("/x.json", "/"), (".", ""), ("a//b/", "a"), ("/", "/"), ("", "")])
    func theFolderOfAPath(path: String, folder: String) {
        #expect(TextFiles.folder(of: path) == folder)
    }

    /// A typo in the output path is reported, not created; a folder is not a file.
    @Test func anOutputIntoAMissingFolderOrOntoAFolderIsAUsageError() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let missing = runTool(["openapi", "--output", "nonexistent-dir/x.json"], in: folder.path)
        #expect(missing.status == 64)
        // The folder as the user wrote it, not resolved against the working directory.
        #expect(missing.error == "Error: cannot write nonexistent-dir/x.json: the folder nonexistent-dir does not exist\n", "\(missing.error)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/nonexistent-dir"))
        let onto = runTool(["openapi", "--output", "."], in: folder.path)
        #expect(onto.status == 64)
        #expect(onto.error == "Error: cannot write .: it is a folder; give a file path\n", "\(onto.error)")
    }
}
