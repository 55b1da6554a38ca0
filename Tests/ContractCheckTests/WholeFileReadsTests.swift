import Foundation
import Testing
@testable import ContractCheckCLI
#if canImport(Glibc)
import CLoopbackShim
#endif
import PushTestSupport

/// `validate` reads a file with one `pread` where a short read ends a regular file (issue 41):
/// never where it may not (procfs, network and FUSE file systems), and every size is read whole.
@Suite struct WholeFileReadsTests {
    @Test func onlyLocalDiskAndMemoryFileSystemsAreTrusted() {
        for magic in [0xEF53, 0x5846_5342, 0x9123_683E, 0xF2F5_2010, 0x0102_1994, 0x794C_7630] {
            #expect(WholeFileReads.readsWhole(filesystemType: magic))
        }
        // procfs, sysfs, NFS, FUSE, 9p, CIFS, and "could not be told".
        for magic in [0x9FA0, 0x6265_6572, 0x6969, 0x6573_5546, 0x0102_1997, 0xFF53_4D42, 0] {
            #expect(!WholeFileReads.readsWhole(filesystemType: magic))
        }
    }

    #if os(Linux)
    @Test func procfsFilesAreReadUntilAReadGivesNothing() {
        var reads = WholeFileReads()
        let status = reads.shortReadIsEnd(for: "/proc/self/status")
        let sysfs = reads.shortReadIsEnd(for: "/sys/kernel/mm/transparent_hugepage/enabled")
        // Asked again for the same folder: the kept answer, still no.
        let maps = reads.shortReadIsEnd(for: "/proc/self/maps")
        #expect(!status && !sysfs && !maps)
    }

    /// The answer kept for a folder is used only for that folder: a folder whose path has the
    /// same length as `/proc/self/` but other bytes (on the local disk) gets its own answer,
    /// and each is kept.
    @Test func theKeptAnswerIsTheSameFolderOnly() throws {
        let name = String(UUID().uuidString.prefix(5))
        let local = "/tmp/\(name)/"
        #expect(local.utf8.count == "/proc/self/".utf8.count)
        try FileManager.default.createDirectory(atPath: local, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: local) }
        guard WholeFileReads.readsWhole(filesystemType: Int(cls_filesystem_type(local))) else { return }  // /tmp not local here
        var reads = WholeFileReads()
        let answers = ["/proc/self/status", local + "a.json", local + "b.json", "/proc/self/maps", "/proc/self/limits"].map {
            reads.shortReadIsEnd(for: $0)
        }
        #expect(answers == [false, true, true, false, false])
    }
    #endif

    /// Sizes around the read buffer's (16 KiB) and past one growth, read at offsets and as a
    /// stream: the same bytes.
    @Test func everySizeIsReadWholeAtOffsets() throws {
        let folder = try ScratchFolder(prefix: "whole-file-reads")
        defer { folder.remove() }
        let chunk = FileReader.scratchSize
        var scratch: [UInt8] = []
        for size in [0, 1, 2, chunk - 1, chunk, chunk + 1, 2 * chunk, 2 * chunk + 7, 5 * chunk + 3] {
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
            let path = folder.path + "/f\(size).json"
            #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
            for atOffsets in [true, false] {
                guard case .success(let count) = FileReader.readInPlace(path, scratch: &scratch, shortReadIsEnd: atOffsets) else {
                    Issue.record("\(size) bytes: not read")
                    continue
                }
                #expect(count == size)
                #expect(Array(scratch[..<count]) == bytes, "\(size) bytes, at offsets: \(atOffsets)")
            }
        }
    }

    /// A named pipe cannot be read at an offset: it is read as a stream, and reported as
    /// not a regular file as before.
    @Test func aNamedPipeIsStillReportedNotRead() throws {
        let folder = try ScratchFolder(prefix: "whole-file-reads")
        defer { folder.remove() }
        let path = folder.path + "/pipe.json"
        #expect(mkfifo(path, 0o600) == 0)
        var scratch: [UInt8] = []
        guard case .failure(let notRead) = FileReader.readInPlace(path, scratch: &scratch, shortReadIsEnd: true) else {
            Issue.record("a pipe was read as a file")
            return
        }
        #expect(notRead.result == .problem(.notRegular("a named pipe")))
    }
}
