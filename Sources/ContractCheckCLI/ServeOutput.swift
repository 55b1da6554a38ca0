import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where `serve` writes: a line per server and per request, and errors.
protocol ServeOutput: Sendable {
    func line(_ text: String)
    func error(_ text: String)
}

/// The process's standard output and error, flushed after every line so a script that
/// reads the log sees each request as it happens.
struct StandardOutput: ServeOutput {
    private static let lock = NSLock()

    func line(_ text: String) { write(text + "\n", to: STDOUT_FILENO) }
    func error(_ text: String) { write(text + "\n", to: STDERR_FILENO) }

    private func write(_ text: String, to descriptor: Int32) {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                Glibc.write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                #else
                Darwin.write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                #endif
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
