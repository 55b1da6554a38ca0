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
        switch UInt32(truncatingIfNeeded: info.st_mode) & 0o170000 {
        case 0o100000: return (.regularFile, identity)
        case 0o040000: return (.folder, identity)
        case 0o010000: return (.other("a named pipe"), identity)
        case 0o140000: return (.other("a socket"), identity)
        case 0o020000: return (.other("a character device"), identity)
        case 0o060000: return (.other("a block device"), identity)
        default: return (.other("an unknown kind of file"), identity)
        }
    }

    /// Reads the whole file at `path` (the caller has seen it is a regular file).
    /// - Returns: the bytes, or the finding that says why they could not be read.
    package static func read(_ path: String) -> Result<[UInt8], FindingError> {
        var scratch: [UInt8] = []
        return read(path, scratch: &scratch)
    }

    /// Reads the whole file at `path` through `scratch`, a buffer the caller keeps from file
    /// to file: `open`, `read` until end of file, `close`, and one exact-size copy out, with
    /// no `fstat` and no zero-filling per file.
    /// - Returns: the bytes, or the finding that says why they could not be read.
    package static func read(_ path: String, scratch: inout [UInt8]) -> Result<[UInt8], FindingError> {
        var fd: Int32
        repeat {
            // O_NONBLOCK: a named pipe swapped in for a file must not hang the run.
            fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .failure(FindingError(.notFound(describe(code)))) }
            return .failure(FindingError(.unreadable(describe(code))))
        }
        defer { _ = close(fd) }
        if scratch.count < scratchSize { scratch = [UInt8](repeating: 0, count: scratchSize) }
        var count = 0
        while true {
            if count == scratch.count {
                guard scratch.count < maximumSize else { return .failure(FindingError(.tooLarge(count, limit: maximumSize))) }
                scratch.append(contentsOf: repeatElement(0, count: min(scratch.count, maximumSize)))
            }
            let result = scratch.withUnsafeMutableBytes { raw -> Int in
                guard let base = raw.baseAddress else { return 0 }
                return systemRead(fd, base + count, raw.count - count)
            }
            if result > 0 {
                count += result
            } else if result == 0 {
                break
            } else if errno == EINTR {
                continue
            } else {
                let code = errno
                return .failure(FindingError(code == EISDIR ? .notRegular("a folder") : .unreadable(describe(code))))
            }
        }
        return .success(Array(scratch[..<count]))
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

/// A ``Finding`` carried as an error, so reading can return `Result`.
package struct FindingError: Error, Sendable, Hashable {
    package var finding: Finding
    package init(_ finding: Finding) { self.finding = finding }
}

@inline(__always)
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(fd, buffer, count)
    #else
    return Darwin.read(fd, buffer, count)
    #endif
}
