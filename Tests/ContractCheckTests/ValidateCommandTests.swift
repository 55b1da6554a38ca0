import ContractCheckCLI
import Contracts
import Foundation
import Testing
import PushTestSupport

/// `validate` against a small fake contract set, so these tests pin the command's behaviour
/// (paths, formats, file problems, exit codes) independently of the v1 rules.
@Suite struct ValidateCommandTests {
    let checker = FakeChecker()

    // MARK: Usage

    @Test func missingPathIsAUsageError() {
        let result = runValidate([], checker: checker)
        #expect(result.status == 64)
        #expect(result.output.isEmpty)
        #expect(result.error == """
            Error: missing expected argument 'PATH...'
            Usage: contract-check validate [--contract NAME] [--format text|json|github] [--verbose] PATH...
              See 'contract-check validate --help' for more information.

            """)
    }

    @Test func unknownOptionIsAUsageErrorWithSuggestion() {
        let result = runValidate(["--fromat", "json", "x.json"], checker: checker)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: unknown option '--fromat'; did you mean '--format'?\nUsage: contract-check validate"))
    }

    @Test func unknownContractNameIsAUsageErrorWithSuggestion() {
        let result = runValidate(["--contract", "paylod", "x.json"], checker: checker)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix("Error: invalid value 'paylod' for '--contract': expected one of 'payload', 'device-registration', 'apns-file'; did you mean 'payload'?"))
    }

    /// Issue 39: a name that begins several contracts gets them all as "did you mean".
    @Test func aContractNameThatBeginsSeveralSuggestsThem() {
        let result = runTool(["validate", "--contract", "live-activity", "x.json"])
        #expect(result.status == 64)
        #expect(result.errorLines.first?.hasSuffix("did you mean 'live-activity-payload' or 'live-activity-registration'?") == true, "\(result.error)")
    }

    /// Issue 39: a usage error points at --help in a short line, not serve's whole synopsis.
    @Test func aServeUsageErrorPrintsAShortUsagePointer() {
        let result = runTool(["serve", "--backend-prot", "1"])
        #expect(result.status == 64)
        #expect(result.errorLines.dropFirst().first == "Usage: contract-check serve [options]", "\(result.error)")
        #expect(result.errorLines.allSatisfy { $0.count < 160 }, "\(result.error)")
    }

    // MARK: Text output

    @Test func violationLineNamesPathPositionPointerAndRule() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/a.json", "{\"ok\": 1,\n  \"bad\": true}\n")
        let result = runValidate(["payloads"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        #expect(result.outputLines == [
            "payloads/a.json:2:10: error: /bad: expected no \"bad\", found one; remove it [payload.no-bad]",
            "checked 1 file: 1 error, 0 warnings",
        ])
    }

    @Test func warningsAloneExitZero() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/a.json", "{\"odd\": 1}")
        let result = runValidate(["payloads/a.json"], checker: checker, in: folder.path)
        #expect(result.status == 0)
        #expect(result.outputLines == [
            "payloads/a.json:1:9: warning: /odd: odd, but allowed [payload.odd]",
            "checked 1 file: 0 errors, 1 warning",
        ])
    }

    @Test func syntaxErrorNamesLineAndColumn() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/broken.json", "{\n  \"aps\": {},\n  \"x\": tru\n}\n")
        let result = runValidate(["payloads"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        let line = try #require(result.outputLines.first)
        #expect(line.hasPrefix("payloads/broken.json:3:8: error: "))
        #expect(line.hasSuffix("[json.syntax]"))
    }

    /// A file far over the payload limit is reported as too large without being parsed: the
    /// broken end of this one would be a json.syntax error if it were read.
    @Test func aFileFarOverTheSizeLimitIsReportedUnparsed() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let filler = String(repeating: "x", count: 1_000_000)
        try folder.write("payloads/huge.json", #"{"aps":{"alert":""# + filler + #""}} and then not JSON"#)
        let result = runTool(["validate", "payloads/huge.json"], in: folder.path)
        #expect(result.status == 1)
        let line = result.outputLines.first ?? ""
        #expect(line.hasPrefix("payloads/huge.json:1:1: error: "), "\(line)")
        #expect(line.contains("expected at most 4096 bytes, found a 1000038-byte file — more than 16 times the limit, so it was not parsed"), "\(line)")
        #expect(result.outputLines.first?.hasSuffix("[payload.size]") == true)
        #expect(!result.output.contains("json.syntax"))
        // Just over the limit, the file is parsed and checked in full (the compact-size hint needs it).
        try folder.write("payloads/big.json", #"{"aps":{"alert":""# + String(repeating: "x", count: 5000) + #""}}"#)
        let parsed = runTool(["validate", "payloads/big.json"], in: folder.path)
        #expect(parsed.output.contains("shorten the alert"), "\(parsed.output)")
    }

    /// Issue 39: a Live Activity push under payloads/ breaks `payload` but fits
    /// `live-activity-payload`: the output names that contract and how to pick it.
    @Test func aDocumentInTheWrongFolderNamesTheContractItFits() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let push = try String(contentsOfFile: packageRoot + "/Fixtures/valid/live-activities/update.json", encoding: .utf8)
        try folder.write("payloads/update.json", push)
        let result = runTool(["validate", "payloads"], in: folder.path)
        #expect(result.status == 1)
        #expect(result.output.contains("breaks the payload contract but fits live-activity-payload"), "\(result.output)")
        #expect(result.output.contains("--contract live-activity-payload or put it under live-activities/"), "\(result.output)")
        let picked = runTool(["validate", "--contract", "live-activity-payload", "payloads"], in: folder.path)
        #expect(picked.status == 0, "\(picked.output)")
        // A payload that breaks its contract and fits no other gets no such line.
        try folder.write("payloads/update.json", #"{"aps":{"alert":7}}"#)
        let plain = runTool(["validate", "payloads"], in: folder.path)
        #expect(plain.status == 1 && !plain.output.contains("fits"), "\(plain.output)")
    }

    /// Valid JSON nested deeper than the reader follows is not called "not JSON".
    @Test func tooDeepValidJSONIsNotCalledNotJSON() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let depth = JSONReader.defaultMaxDepth + 1
        try folder.write("payloads/deep.json", #"{"aps":{},"x":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}")
        let result = runTool(["validate", "payloads"], in: folder.path)
        #expect(result.status == 1)
        let line = try #require(result.outputLines.first)
        #expect(line.contains("nesting too deep"), "\(line)")
        #expect(line.contains("no contract's message does"), "\(line)")
        #expect(!line.contains("not JSON"), "\(line)")
    }

    @Test func foldersAreSearchedRecursivelyInSortedOrderSkippingSidecarsAndHiddenFiles() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        for name in ["payloads/b.json", "payloads/a/z.json", "payloads/a.json", "payloads/c.json"] {
            try folder.write(name, "{\"bad\": 1}")
        }
        try folder.write("payloads/c.expect", "not json at all")
        try folder.write("payloads/.hidden.json", "not json at all")
        try folder.write("payloads/.git/config", "not json at all")
        let result = runValidate(["payloads/"], checker: checker, in: folder.path)
        let paths = result.outputLines.dropLast().map { String($0.prefix { $0 != ":" }) }
        #expect(paths == ["payloads/a.json", "payloads/a/z.json", "payloads/b.json", "payloads/c.json"])
        #expect(result.outputLines.last == "checked 4 files: 4 errors, 0 warnings")
    }

    @Test func manyFilesCheckedInParallelKeepByteOrder() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        var expected: [String] = []
        for index in 0..<300 {
            // Every third file is in a subfolder whose name sorts between its siblings.
            let path = index % 3 == 0 ? "payloads/f\(index % 7)/n\(index).json" : "payloads/f\(index % 7).\(index).json"
            try folder.write(path, index % 2 == 0 ? "{\"bad\": \(index)}" : "{}")
            if index % 2 == 0 { expected.append(path) }
        }
        expected.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let result = runValidate(["payloads"], checker: checker, in: folder.path)
        let paths = result.outputLines.dropLast().map { String($0.prefix { $0 != ":" }) }
        #expect(paths == expected)
        #expect(result.outputLines.last == "checked 300 files: 150 errors, 0 warnings")
    }

    @Test func contractComesFromOptionExtensionOrNearestFolder() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/devices/r.json", "{\"bad\": 1}")
        try folder.write("devices/payloads/p.json", "{\"bad\": 1}")
        try folder.write("devices/push.apns", "{\"bad\": 1}")
        let result = runValidate(["devices", "payloads"], checker: checker, in: folder.path)
        #expect(result.outputLines.contains { $0.hasPrefix("devices/payloads/p.json:") && $0.hasSuffix("[payload.no-bad]") })
        #expect(result.outputLines.contains { $0.hasPrefix("devices/push.apns:") && $0.hasSuffix("[apns-file.no-bad]") })
        #expect(result.outputLines.contains { $0.hasPrefix("payloads/devices/r.json:") && $0.hasSuffix("[device-registration.no-bad]") })

        let forced = runValidate(["--contract", "payload", "devices"], checker: checker, in: folder.path)
        #expect(forced.outputLines.filter { $0.hasSuffix("[payload.no-bad]") }.count == 2)
    }

    @Test func aFolderOfTheSameLengthAsThePreviousFileIsResolvedAfresh() throws {
        // The resolver answers the next path from the last one when folder and extension
        // have the same bytes: folders of the same length must not share that answer.
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/a.json", "{\"bad\": 1}")
        try folder.write("payloadz/b.json", "{\"bad\": 1}")
        try folder.write("payloads/c.jsom", "{\"bad\": 1}")
        try folder.write("payloads/d.json", "{\"bad\": 1}")
        let result = runValidate(["payloads/a.json", "payloadz/b.json", "payloads/c.jsom", "payloads/d.json"], checker: checker, in: folder.path)
        let lines = result.outputLines
        #expect(lines.count == 5)
        #expect(lines.first?.hasPrefix("payloads/a.json:") == true && lines.first?.hasSuffix("[payload.no-bad]") == true)
        #expect(lines.dropFirst().first?.hasPrefix("payloadz/b.json: error: cannot tell which contract applies") == true)
        #expect(lines.dropFirst(2).first?.hasPrefix("payloads/c.jsom:") == true && lines.dropFirst(2).first?.hasSuffix("[payload.no-bad]") == true)
        #expect(lines.dropFirst(3).first?.hasPrefix("payloads/d.json:") == true && lines.dropFirst(3).first?.hasSuffix("[payload.no-bad]") == true)
    }

    @Test func fileInTheCurrentFolderUsesTheFolderName() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/a.json", "{\"bad\": 1}")
        let result = runValidate(["a.json"], checker: checker, in: folder.path + "/payloads")
        #expect(result.outputLines.first?.hasSuffix("[payload.no-bad]") == true)
    }

    @Test func fileWithoutAContractSaysHowToFixIt() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("misc/a.json", "{}")
        let result = runValidate(["misc/a.json"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        let line = try #require(result.outputLines.first)
        #expect(line.hasPrefix("misc/a.json: error: cannot tell which contract applies"))
        #expect(line.contains("--contract NAME"))
        #expect(line.hasSuffix("[file.unknown-contract]"))
    }

    // MARK: Files that cannot be checked

    @Test func everyBadFileGetsALineAndTheRunGoesOn() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/1-empty.json", "")
        try folder.write("payloads/2-blank.json", " \n\t\n")
        try folder.write("payloads/3-binary.json", [0x7B, 0x00, 0x01, 0xFF])
        try folder.write("payloads/4-utf16.json", [0xFF, 0xFE, 0x7B, 0x00, 0x7D, 0x00])
        try folder.write("payloads/5-not-json.json", "hello")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/payloads/6-dangling.json", withDestinationPath: "nowhere.json")
        try folder.write("payloads/7-bad.json", "{\"bad\": 1}")
        try folder.write("payloads/8-ok.json", "{}")
        let result = runValidate(["payloads", "missing.json"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        let lines = result.outputLines
        try #require(lines.count == 9)
        #expect(lines[0] == "payloads/1-empty.json: error: empty file; expected one JSON document [file.empty]")
        #expect(lines[1].hasPrefix("payloads/2-blank.json: error: file holds only whitespace") && lines[1].hasSuffix("[file.empty]"))
        #expect(lines[2] == "payloads/3-binary.json: error: binary file (NUL byte at offset 1); expected UTF-8 JSON text [file.binary]")
        #expect(lines[3].hasPrefix("payloads/4-utf16.json: error: file starts with a UTF-16") && lines[3].hasSuffix("[file.binary]"))
        #expect(lines[4].hasPrefix("payloads/5-not-json.json:1:1: error: ") && lines[4].hasSuffix("[json.syntax]"))
        #expect(lines[5].hasPrefix("payloads/6-dangling.json: error: symbolic link to a file that does not exist") && lines[5].hasSuffix("[file.not-found]"))
        #expect(lines[6].hasPrefix("payloads/7-bad.json:1:9: error: /bad:"))
        #expect(lines[7].hasPrefix("missing.json: error: no such file or folder") && lines[7].hasSuffix("[file.not-found]"))
        // The dangling link and the missing path were never read: not counted as files checked.
        #expect(lines[8] == "checked 7 files: 8 errors, 0 warnings (2 paths could not be read)")
    }

    @Test func namedPipesAreReportedNotRead() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/ok.json", "{}")
        #expect(mkfifo(folder.path + "/payloads/pipe.json", 0o600) == 0)
        #expect(mkfifo(folder.path + "/named.json", 0o600) == 0)
        // Nobody writes to either pipe: a blocking read would hang the test.
        let result = runValidate(["payloads", "--contract", "payload", "named.json"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        #expect(result.outputLines == [
            "payloads/pipe.json: error: not a regular file (a named pipe); pass JSON files or folders [file.not-regular]",
            "named.json: error: not a regular file (a named pipe); pass JSON files or folders [file.not-regular]",
            "checked 1 file: 2 errors, 0 warnings (2 paths could not be read)",
        ])
    }

    @Test func emptyFileNamedOnTheCommandLine() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/empty.json", "")
        let result = runValidate(["payloads/empty.json", "payloads/empty.json"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        #expect(result.outputLines == [
            "payloads/empty.json: error: empty file; expected one JSON document [file.empty]",
            "checked 1 file: 1 error, 0 warnings",
        ])
    }

    @Test func fileLargerThanTheReadBufferIsReadWhole() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let filler = String(repeating: "x", count: 100_000)
        try folder.write("payloads/big.json", "{\"pad\": \"\(filler)\", \"bad\": 1}")
        try folder.write("payloads/small.json", "{\"bad\": 2}")
        let result = runValidate(["payloads"], checker: checker, in: folder.path)
        #expect(result.outputLines.first?.hasPrefix("payloads/big.json:1:\(100_000 + 20): error: /bad:") == true)
        #expect(result.outputLines.dropFirst().first?.hasPrefix("payloads/small.json:1:9: error: /bad:") == true)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file"))
    func unreadableFileIsReported() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let path = try folder.write("payloads/secret.json", "{}")
        #expect(chmod(path, 0) == 0)
        let result = runValidate(["payloads"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        #expect(result.outputLines.first?.hasPrefix("payloads/secret.json: error: cannot read the file (Permission denied") == true)
    }

    /// A CI step pointed at the wrong folder must not pass: an empty folder is an error.
    @Test func emptyFolderIsAnError() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/payloads", withIntermediateDirectories: true)
        let result = runValidate(["payloads"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        #expect(result.outputLines.first == "payloads: error: folder holds no files to check; point at a folder of .json files named after a contract, or .apns files [file.empty-folder]")
    }

    /// "checked N files" counts the files read; paths that could not be read are counted apart.
    @Test func theSummaryCountsOnlyFilesThatWereRead() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/a.json", "{}")
        try FileManager.default.createDirectory(atPath: folder.path + "/empty", withIntermediateDirectories: true)
        let result = runValidate(["payloads", "missing.json", "empty"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        #expect(result.outputLines.last == "checked 1 file: 2 errors, 0 warnings (1 path could not be read; 1 folder held no files to check)", "\(result.outputLines)")
        let json = runValidate(["--format", "json", "payloads", "missing.json"], checker: checker, in: folder.path)
        let counts = try #require((try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])?["counts"] as? [String: Int])
        #expect(counts["files"] == 1 && counts["unread"] == 1, "\(counts)")
    }

    /// A name that is not UTF-8 is said to be so, not reported as a file that does not exist.
    @Test func aFileNameThatIsNotUTF8IsReportedAsSuch() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/good.json", "{}")
        let name = Array((folder.path + "/payloads/caf").utf8) + [0xE9] + Array(".json".utf8) + [0]
        let file = name.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { fopen($0, "wb") }
        }
        guard let file else { return }  // a file system that refuses such names has nothing to report
        fputs("{}", file)
        fclose(file)
        let result = runValidate(["payloads"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        #expect(result.outputLines.contains { $0.hasSuffix(": error: file name is not valid UTF-8 (caf\\xE9.json), so it cannot be checked; rename it [file.name-not-utf8]") },
                "\(result.outputLines)")
        #expect(!result.output.contains("file.not-found"))
        #expect(result.outputLines.last == "checked 1 file: 1 error, 0 warnings (1 path could not be read)")
    }

    /// In folders only files a contract claims are read; the rest are skipped (listed with
    /// --verbose), and a folder of nothing but such files is an error.
    @Test func filesNoContractClaimsAreSkippedInFolders() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("Fixtures/README.md", "# not json")
        try folder.write("Fixtures/key.p8", "-----BEGIN PRIVATE KEY-----")
        try folder.write("Fixtures/openapi.json", "{}")
        try folder.write("Fixtures/payloads/a.json", "{\"bad\": 1}")
        try folder.write("Fixtures/payloads/notes.txt", "not json")
        try folder.write("Fixtures/push.apns", "{}")
        let result = runValidate(["--verbose", "Fixtures"], checker: checker, in: folder.path)
        let checked = result.outputLines.dropLast().map { String($0.prefix { $0 != ":" }) }
        #expect(checked == ["Fixtures/payloads/a.json"], "\(result.outputLines)")
        #expect(result.outputLines.last == "checked 2 files: 1 error, 0 warnings")
        #expect(result.errorLines == ["skipped Fixtures/README.md: no contract claims it",
                                      "skipped Fixtures/key.p8: no contract claims it",
                                      "skipped Fixtures/openapi.json: no contract claims it",
                                      "skipped Fixtures/payloads/notes.txt: no contract claims it"], "\(result.errorLines)")
        let quiet = runValidate(["Fixtures"], checker: checker, in: folder.path)
        #expect(quiet.errorLines.isEmpty)

        try folder.write("docs/README.md", "# not json")
        let nothing = runValidate(["docs"], checker: checker, in: folder.path)
        #expect(nothing.status == 1)
        #expect(nothing.outputLines.first?.hasPrefix("docs: error: folder holds no files to check (1 file no contract claims skipped; --verbose lists them)") == true,
                "\(nothing.outputLines)")
    }

    // MARK: Formats

    @Test func githubFormatPrintsWorkflowAnnotations() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/a,b.json", "{\"bad\": 1, \"odd\": 2}")
        try folder.write("payloads/empty.json", "")
        let result = runValidate(["--format", "github", "payloads"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        #expect(result.outputLines == [
            "::error file=payloads/a%2Cb.json,line=1,col=9,title=payload.no-bad::/bad: expected no \"bad\", found one; remove it",
            "::warning file=payloads/a%2Cb.json,line=1,col=19,title=payload.odd::/odd: odd, but allowed",
            "::error file=payloads/empty.json,title=file.empty::empty file; expected one JSON document",
            "checked 2 files: 2 errors, 1 warning",
        ])
    }

    @Test func jsonFormatIsAMachineReadableReport() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/a.json", "{\"bad\": \"\\n\"}")
        try folder.write("payloads/b.json", "{}")
        let result = runValidate(["--format=json", "payloads"], checker: checker, in: folder.path)
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let report = try #require(object)
        let counts = try #require(report["counts"] as? [String: Int])
        #expect(counts == ["files": 2, "errors": 1, "warnings": 0, "filesWithErrors": 1, "unread": 0])
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.map { $0["path"] as? String } == ["payloads/a.json", "payloads/b.json"])
        #expect(files.map { $0["contract"] as? String } == ["payload", "payload"])
        let violations = try #require(files.first?["violations"] as? [[String: Any]])
        #expect(violations.count == 1)
        #expect(violations.first?["ruleID"] as? String == "payload.no-bad")
        #expect(violations.first?["pointer"] as? String == "/bad")
        #expect(violations.first?["line"] as? Int == 1)
        #expect(violations.first?["column"] as? Int == 9)
        #expect(violations.first?["severity"] as? String == "error")
        #expect((files.last?["violations"] as? [Any])?.isEmpty == true)
        // The report is JSON our own reader accepts too.
        #expect(throws: Never.self) { try JSONReader.parse(Array(result.output.utf8)) }
    }

    /// The plain text lines are written straight into the output buffer; they are the
    /// bytes `textLine` spells, with and without a position, a pointer (the empty one is
    /// "(document)"), for errors and warnings, and with non-ASCII text.
    @Test func plainTextLinesAreTheTextLineBytes() {
        let findings = [
            Finding(position: SourcePosition(line: 12, column: 345, offset: 9), pointer: "/aps/alert", message: "expected a string — fix it.", ruleID: "payload.type"),
            Finding(severity: .warning, position: SourcePosition(line: 1, column: 1, offset: 0), pointer: "", message: "é ✓", ruleID: "payload.unknown-route"),
            Finding(message: "unreadable", ruleID: "file.unreadable"),
            Finding(severity: .warning, pointer: "/x", message: "m", ruleID: "r"),
        ]
        let formatter = ReportFormatter(format: .text, color: false)
        for finding in findings {
            var bytes: [UInt8] = []
            ReportFormatter.appendPlainTextLine(finding, path: "payloads/ä b.json", to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == formatter.textLine(finding, path: "payloads/ä b.json"))
        }
        let io = CommandIO.capturing()
        formatter.write([FileReport(path: "p.json", contract: "payload", findings: findings)], to: io)
        #expect(io.capturedOutput == findings.map { formatter.textLine($0, path: "p.json") + "\n" }.joined()
            + "checked 1 file: 2 errors, 2 warnings\n")
    }

    @Test func jsonStringEscapesControlCharacters() {
        #expect(ReportFormatter.jsonString("a\"b\\c\n\u{1}é") == "\"a\\\"b\\\\c\\n\\u0001é\"")
    }

    // MARK: Colour

    @Test func colourOnlyOnATerminalWithoutNoColor() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/a.json", "{\"bad\": 1}")
        let escape = "\u{1B}["
        #expect(runValidate(["payloads"], checker: checker, in: folder.path, terminal: true).output.contains(escape))
        #expect(!runValidate(["payloads"], checker: checker, in: folder.path, environment: ["NO_COLOR": "1"], terminal: true).output.contains(escape))
        #expect(!runValidate(["payloads"], checker: checker, in: folder.path, terminal: false).output.contains(escape))
        #expect(!runValidate(["--format", "github", "payloads"], checker: checker, in: folder.path, terminal: true).output.contains(escape))
    }
}
