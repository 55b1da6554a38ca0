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

    /// Writes `bytes` to `name`.
    package func write(_ name: String, _ bytes: [UInt8]) throws { try Data(bytes).write(to: url.appendingPathComponent(name)) }

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
