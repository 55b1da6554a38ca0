import ContractCheckCLI
import Contracts
import Foundation
import Testing
import PushTestSupport

/// `validate` over enough files that its helper threads share the work (more than one chunk
/// of ``ParallelChecker/chunkSize``): order, repeated paths, folders found among the files.
@Suite struct ValidateParallelTests {
    let checker = FakeChecker()

    /// 200 files, each with a finding; `count` of them named a second (and third) time.
    private func writeFiles(_ count: Int, in folder: ScratchFolder) throws -> [String] {
        var paths: [String] = []
        for index in 0..<count {
            let path = String(format: "payloads/p%03d.json", index)
            try folder.write(path, "{\"bad\": \(index)}")
            paths.append(path)
        }
        return paths
    }

    private func reportedPaths(_ result: RunResult) -> [String] {
        result.outputLines.dropLast().map { String($0.prefix { $0 != ":" }) }
    }

    @Test func aPathNamedAgainIsReportedOnceInItsFirstPlace() throws {
        let folder = try ScratchFolder(prefix: "contract-check-parallel")
        defer { folder.remove() }
        let paths = try writeFiles(200, in: folder)
        // Repeats late in the list, in other chunks than the first naming.
        let arguments = paths + [paths[3], paths[150], paths[3]] + [paths[0]]
        let result = runValidate(arguments, checker: checker, in: folder.path)
        #expect(reportedPaths(result) == paths)
        #expect(result.outputLines.last == "checked 200 files: 200 errors, 0 warnings")
    }

    @Test func canonicallyEqualSpellingsOfAPathAreOnePath() throws {
        let folder = try ScratchFolder(prefix: "contract-check-parallel")
        defer { folder.remove() }
        var paths = try writeFiles(150, in: folder)
        // "é" precomposed, then as "e" and a combining accent: byte-different names (two
        // files on Linux), equal as Swift strings; the summary has always counted them once.
        let composed = "payloads/caf\u{E9}.json", decomposed = "payloads/cafe\u{301}.json"
        try folder.write(composed, "{\"bad\": 1}")
        try folder.write(decomposed, "{\"bad\": 2}")
        paths.insert(composed, at: 100)
        let result = runValidate(paths + [decomposed], checker: checker, in: folder.path)
        #expect(reportedPaths(result) == paths)
        #expect(result.outputLines.last == "checked 151 files: 151 errors, 0 warnings")
    }

    @Test func aFolderAmongManyFilesIsExpandedInItsPlaceWithoutRepeats() throws {
        let folder = try ScratchFolder(prefix: "contract-check-parallel")
        defer { folder.remove() }
        let paths = try writeFiles(130, in: folder)
        for index in 0..<70 { try folder.write(String(format: "devices/d%03d.json", index), "{\"bad\": \(index)}") }
        try folder.write("devices/d999.json", "{}")
        // `payloads` (no trailing slash) is read as a file, found to be a folder, and expanded
        // by a second run of the helpers; its files named before it are not repeated, and a
        // file named after it is dropped as a repeat.
        let arguments = Array(paths[..<80]) + ["payloads", "devices", paths[120], "devices/d001.json"]
        let result = runValidate(arguments, checker: checker, in: folder.path)
        let devices = (0..<70).map { String(format: "devices/d%03d.json", $0) }
        #expect(reportedPaths(result) == paths + devices)
        #expect(result.outputLines.last == "checked 201 files: 200 errors, 0 warnings")
    }

    @Test func oneCrewRunsBatchesOneAfterAnotherInChunkOrder() {
        let crew = ParallelChecker(helpers: 3)
        defer { crew.stop() }
        let state = ParallelChecker.WorkerState(resolver: ContractResolver(checker: checker, currentDirectory: "/"))
        let caller = pthread_self()
        for round in 0..<20 {
            let count = 64 * (round % 5 + 2) + round
            let chunks = crew.run(itemCount: count, state: state) { chunk, _ in
                // Helpers are slow here: the caller, out of chunks first, must wait for theirs.
                if pthread_equal(pthread_self(), caller) == 0 { usleep(3_000) }
                let start = chunk * ParallelChecker.chunkSize
                return (start..<min(start + ParallelChecker.chunkSize, count)).map {
                    ParallelChecker.Outcome.report(FileReport(path: "\(round)/\($0)", contract: nil, findings: []))
                }
            }
            let paths = chunks.joined().map { outcome -> String in
                if case .report(let report) = outcome { return report.path }
                return "folder"
            }
            #expect(paths == (0..<count).map { "\(round)/\($0)" })
        }
    }

    @Test func repeatsFoundByBytesAgreeWithStringComparison() {
        // Every length from 0 to 24 (whole words, tails), prefixes of one another, repeats
        // far apart, and one path that differs only in its last byte.
        var paths = (0...24).map { String(repeating: "a/b.json", count: 3).prefix($0) }.map(String.init)
        paths += paths.reversed() + ["a/b.jsoN", "", "a/b.json"]
        let items = paths.map { PathCollector.Item.argument(path: $0, location: $0) }
        var seen = Set<String>()
        let expected = paths.map { seen.insert($0).inserted }
        #expect(ASCIIPathSet.firstOccurrences(items) == expected)
        #expect(ValidateCommand.firstOccurrences(items) == expected)
        // Not ASCII: left to `Set<String>`.
        #expect(ASCIIPathSet.firstOccurrences(items + [.argument(path: "caf\u{E9}", location: "x")]) == nil)
    }
}
