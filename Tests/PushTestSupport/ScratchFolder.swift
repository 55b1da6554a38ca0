import Foundation

/// A folder of its own under the temporary directory for one test's files, removed when the
/// value is released, so a run leaves nothing behind.
package final class ScratchFolder {
    /// The folder.
    package let url: URL

    /// Makes `<tmp>/<prefix>-<UUID>`.
    package init(prefix: String = "pushcontracts-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The path of `name` inside the folder.
    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// The folder's path.
    package var path: String { url.path }

    /// Writes `bytes` at `relativePath`, creating folders on the way; returns the file's path.
    @discardableResult
    package func write(_ relativePath: String, _ bytes: [UInt8]) throws -> String {
        let full = path(relativePath)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        // POSIX rather than Data.write(to:), which is slow here (milliseconds per file).
        guard let file = fopen(full, "wb") else { throw CocoaError(.fileWriteUnknown) }
        let written = bytes.isEmpty ? 0 : fwrite(bytes, 1, bytes.count, file)
        guard fclose(file) == 0, written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        return full
    }

    /// Writes `contents` (UTF-8) at `relativePath`, creating folders on the way; returns the file's path.
    @discardableResult
    package func write(_ relativePath: String, _ contents: String) throws -> String { try write(relativePath, Array(contents.utf8)) }

    /// Removes the folder now (the deinit would later); `defer { folder.remove() }` also keeps
    /// the folder alive to the end of the scope, whatever the optimizer does with the value.
    package func remove() { try? FileManager.default.removeItem(at: url) }

    /// Reads `name` whole.
    package func read(_ name: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: url.appendingPathComponent(name))) }
}

/// The `openssl` command line tool as a peer: the crypto and TLS suites check our bytes with it.
package enum OpenSSLTool {
    /// openssl did not exit 0.
    package struct Failure: Error, CustomStringConvertible {
        /// The command line and what openssl printed.
        package var description: String
    }

    /// openssl's path on PATH, or nil (the suites that need it are then skipped).
    package static var path: String? { ExternalPeer.find("openssl") }

    /// Runs openssl with `arguments` (60 s at most); its output, or ``Failure`` unless it exits 0.
    @discardableResult
    package static func run(_ arguments: [String]) throws -> String {
        let result = try ExternalPeer.run(path ?? "openssl", arguments, timeout: 60)
        guard result.status == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")): \(result.output)")
        }
        return result.output
    }

    /// ``run(_:)-([String])`` with the arguments written out.
    @discardableResult
    package static func run(_ arguments: String...) throws -> String { try run(arguments) }
}
