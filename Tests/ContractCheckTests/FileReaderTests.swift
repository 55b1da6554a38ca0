import Foundation
import Testing
@testable import ContractCheckCLI

/// `FileReader` on large files: refused unread past its limit, grown once to a file's size
/// below it (the debug build spent 10 s appending zeros for a 50 MB file).
@Suite struct FileReaderTests {
    /// A sparse file of `size` bytes starting with `{"a":1}`, removed by the caller.
    static func sparseFile(size: Int) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString).json").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(#"{"a":1}"#.utf8)))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(size))
        try handle.close()
        return path
    }

    /// Over the limit: refused with the file's own size, known before reading (a reader
    /// that reads up to the limit first reports the limit's size instead).
    @Test func aFileOverTheLimitIsRefusedWithItsSizeUnread() throws {
        let size = FileReader.maximumSize + 1
        let path = try Self.sparseFile(size: size)
        defer { unlink(path) }
        #expect(FileReader.read(path) == .problem(.tooLarge(size, limit: FileReader.maximumSize)))
    }

    /// Below the limit: read whole, the buffer grown once to the file's size and a byte.
    @Test func aFiftyMegabyteFileIsReadWithOneGrowth() throws {
        #expect(FileReader.nextCapacity(filled: FileReader.scratchSize, knownSize: 50_000_000) == 50_000_001)
        #expect(FileReader.nextCapacity(filled: FileReader.scratchSize, knownSize: 0) == 2 * FileReader.scratchSize)
        #expect(FileReader.nextCapacity(filled: FileReader.maximumSize / 2 + 1, knownSize: 0) == FileReader.maximumSize)
        let path = try Self.sparseFile(size: 50_000_000)
        defer { unlink(path) }
        var scratch: [UInt8] = []
        guard case .bytes(let bytes) = FileReader.read(path, scratch: &scratch) else {
            Issue.record("not read")
            return
        }
        #expect(bytes.count == 50_000_000 && bytes.starts(with: Array(#"{"a":1}"#.utf8)))
        #expect(scratch.count == 50_000_001, "one growth to the known size")
    }

    /// The README's promise, in the debug build too: a 50 MB payload is a size finding, not parsed.
    @Test func validateReportsAFiftyMegabytePayloadAsTooLarge() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("large-\(UUID().uuidString)/payloads").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: TextFiles.folder(of: folder)) }
        let text = #"{"aps":{"alert":"x"},"pad":""# + String(repeating: "a", count: 50_000_000) + "\"}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/big.json"))
        let result = runTool(["validate", folder + "/big.json"])
        #expect(result.status == 1)
        #expect(result.output.contains("payload.size") && result.output.contains("so it was not parsed"), "\(result.output)")
    }
}
