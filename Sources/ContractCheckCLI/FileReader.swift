import LoopbackHTTP
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole files with POSIX `open`/`fstat`/`read`: one allocation and a few system calls
/// per file, which matters when `validate` reads 10,000 small payloads.
package enum FileReader {
    /// The largest file read (64 MiB): far above any contract's size limit, small enough
    /// that a stray disk image does not exhaust memory.
    package static let maximumSize = 64 * 1024 * 1024

    /// What a path is, following symbolic links.
    package enum Kind: Sendable, Hashable {
        case regularFile
        case folder
        case other(String)
        /// `stat` failed: the `strerror` text and whether it was `ENOENT`/`ENOTDIR`.
        case missing(String, notFound: Bool)
    }

    /// The kind of `path` (links followed), and its device/inode identity for folders.
    package static func kind(of path: String) -> (kind: Kind, identity: [UInt64]) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return (.missing(describe(code), notFound: code == ENOENT || code == ENOTDIR), [])
        }
        let identity = [UInt64(truncatingIfNeeded: info.st_dev), UInt64(truncatingIfNeeded: info.st_ino)]
        return (kind(mode: UInt32(truncatingIfNeeded: info.st_mode)), identity)
    }

    /// The kind a `st_mode` describes.
    static func kind(mode: UInt32) -> Kind {
        switch mode & 0o170000 {
        case 0o100000: return .regularFile
        case 0o040000: return .folder
        case 0o010000: return .other("a named pipe")
        case 0o140000: return .other("a socket")
        case 0o020000: return .other("a character device")
        case 0o060000: return .other("a block device")
        default: return .other("an unknown kind of file")
        }
    }

    /// What reading a path gave.
    package enum ReadResult: Sendable, Hashable {
        case bytes([UInt8])
        /// The path is a folder (to expand, not to read).
        case folder
        /// Why the file could not be read.
        case problem(Finding)
    }

    /// Reads the whole file at `path`.
    package static func read(_ path: String) -> ReadResult {
        var scratch: [UInt8] = []
        return read(path, scratch: &scratch)
    }

    /// Reads the whole file at `path` through `scratch`, a buffer the caller keeps from file
    /// to file: `open`, `read` until end of file, `close`, and one exact-size copy out. No
    /// `stat` for the common case; only an empty or unreadable result asks `fstat` what the
    /// path is (an empty file, a folder, a pipe).
    package static func read(_ path: String, scratch: inout [UInt8]) -> ReadResult {
        switch readInPlace(path, scratch: &scratch) {
        case .success(let count): return .bytes(Array(scratch[..<count]))
        case .failure(let other): return other.result
        }
    }

    /// A read that gave no bytes to check: a folder or a problem (an `Error` only to ride in a `Result`).
    package struct NotRead: Error {
        package let result: ReadResult
    }

    /// Reads the whole file at `path` into `scratch` (as ``read(_:scratch:)``, without the copy
    /// out): the file is `scratch[..<count]`, valid until the next read into `scratch`.
    /// - Parameter shortReadIsEnd: the file's folder is one where a read that gives fewer
    ///   bytes than asked ends a regular file (``WholeFileReads``): the file is read at
    ///   offsets (`pread`), and such a read ends it without another call. A file that cannot
    ///   be read at an offset (a pipe, a terminal: `ESPIPE`) is not a regular file, and is
    ///   reported as one, as a stream read would have ended.
    package static func readInPlace(_ path: String, scratch: inout [UInt8], shortReadIsEnd: Bool = false) -> Result<Int, NotRead> {
        var fd: Int32
        repeat {
            // O_NONBLOCK: a named pipe must not hang the run.
            fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .failure(NotRead(result: .problem(.notFound(describe(code))))) }
            return .failure(NotRead(result: .problem(.unreadable(describe(code)))))
        }
        defer { _ = close(fd) }
        if scratch.count < scratchSize { scratch = [UInt8](repeating: 0, count: scratchSize) }
        var count = 0
        while true {
            if count == scratch.count {
                // Full: ask the file its size once, refuse it unread when over the limit, else
                // grow to it in one allocation (appending zeros element by element costs
                // seconds in a debug build for a 50 MB file).
                let known = knownSize(fd)
                if known > maximumSize { return .failure(NotRead(result: .problem(.tooLarge(known, limit: maximumSize)))) }
                guard count < maximumSize else { return .failure(NotRead(result: .problem(.tooLarge(count, limit: maximumSize)))) }
                grow(&scratch, keeping: count, to: nextCapacity(filled: count, knownSize: known))
            }
            let result = scratch.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return shortReadIsEnd ? systemRead(fd, base + count, raw.count - count, at: count) : systemRead(fd, base + count, raw.count - count)
            }
            if result > 0 {
                count += result
                if shortReadIsEnd && count < scratch.count { break }
            } else if result == 0 {
                break
            } else if errno == EINTR {
                continue
            } else {
                let code = errno
                if code == EISDIR { return .failure(NotRead(result: .folder)) }
                if let special = specialKind(fd) { return .failure(NotRead(result: special)) }
                return .failure(NotRead(result: .problem(.unreadable(describe(code)))))
            }
        }
        if count == 0, let special = specialKind(fd) { return .failure(NotRead(result: special)) }
        return .success(count)
    }

    /// The buffer size after `filled` bytes filled it: the file's known size and one byte
    /// more (to see end of file without another growth), else double; never over
    /// ``maximumSize``.
    package static func nextCapacity(filled: Int, knownSize: Int) -> Int {
        min(max(filled * 2, knownSize + 1), maximumSize)
    }

    /// The size `fstat` reports for a regular file; 0 for a pipe or when it fails.
    private static func knownSize(_ fd: Int32) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0, case .regularFile = kind(mode: UInt32(truncatingIfNeeded: info.st_mode)) else { return 0 }
        return Int(truncatingIfNeeded: info.st_size)
    }

    /// Replaces `buffer` with one of `size` bytes holding its first `count`: one allocation
    /// and one copy, fast in a debug build too.
    private static func grow(_ buffer: inout [UInt8], keeping count: Int, to size: Int) {
        let bigger = [UInt8](unsafeUninitializedCapacity: size) { target, initialized in
            buffer.withUnsafeBytes { source in
                if let base = target.baseAddress, let from = source.baseAddress {
                    UnsafeMutableRawPointer(base).copyMemory(from: from, byteCount: count)
                    UnsafeMutableRawPointer(base + count).initializeMemory(as: UInt8.self, repeating: 0, count: size - count)
                }
            }
            initialized = size
        }
        buffer = bigger
    }

    /// For a descriptor that read nothing: `.folder` or a "not a regular file" problem,
    /// or `nil` for a regular (empty) file.
    private static func specialKind(_ fd: Int32) -> ReadResult? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        switch kind(mode: UInt32(truncatingIfNeeded: info.st_mode)) {
        case .regularFile, .missing: return nil
        case .folder: return .folder
        case .other(let description): return .problem(.notRegular(description))
        }
    }

    /// The reusable read buffer's starting size: above any payload APNs accepts (5 KiB);
    /// it doubles for larger files.
    static let scratchSize = 16 * 1024

    /// `strerror` text with the errno name's number, e.g. `Permission denied, errno 13`.
    package static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)), errno \(code)"
    }
}

@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int, at offset: Int) -> Int {
    pread(fd, buffer, count, off_t(offset))
}

@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}
