import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The one raw TCP client of the test targets (FakeBackendTests and LoopbackHTTPTests used
// to keep a copy each).

/// A blocking loopback TCP client for tests that need exact bytes on the wire.
/// Every read has a timeout, so a broken server fails a test instead of hanging it.
package final class RawClient: Sendable {
    /// A failed system call: the operation and its errno.
    package struct Failure: Error, CustomStringConvertible {
        package var operation: String
        package var errno: Int32
        /// A failure of `operation` with `errno`.
        package init(operation: String, errno: Int32) {
            self.operation = operation
            self.errno = errno
        }
        package var description: String { "\(operation): \(String(cString: strerror(errno))) (errno \(errno))" }
    }

    package let fd: Int32

    /// Connects to 127.0.0.1:`port`.
    /// - Throws: ``Failure`` with the connect errno (e.g. ECONNREFUSED).
    package init(port: UInt16, timeoutSeconds: Int = 5) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(operation: "socket", errno: errno) }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 {
            // No close here: every stored property is set, so `deinit` runs after the throw
            // and closes `fd`. Closing it here too closed it twice, and the second close hit
            // whatever descriptor another thread had just been given that number (a server
            // connection of a test running alongside, which then never answered).
            throw Failure(operation: "connect", errno: errno)
        }
    }

    deinit { close(fd) }

    /// Sends all of `bytes` (MSG_NOSIGNAL: a closed server gives EPIPE, not a signal).
    package func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { buffer -> Int in
                #if canImport(Glibc)
                return Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                #else
                return Darwin.send(fd, buffer.baseAddress, buffer.count, 0)
                #endif
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "send", errno: errno)
            }
            offset += count
        }
    }

    package func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Closes our sending side (the server reads EOF).
    package func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))  // an enum constant on Glibc, an Int32 macro on Darwin
    }

    /// Reads until the server closes. Throws on a reset or timeout.
    package func readToEnd() throws -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let chunk = try readSome()
            if chunk.isEmpty { return result }
            result += chunk
        }
    }

    /// Reads until `result` contains `count` bytes or the server closes.
    package func read(atLeast count: Int) throws -> [UInt8] {
        var result: [UInt8] = []
        while result.count < count {
            let chunk = try readSome()
            if chunk.isEmpty { break }
            result += chunk
        }
        return result
    }

    /// Reads until the data ends with `suffix`-terminated responses (e.g. `count` full
    /// responses) — here: until `isComplete` says so, or EOF.
    package func read(until isComplete: ([UInt8]) -> Bool) throws -> [UInt8] {
        var result: [UInt8] = []
        while !isComplete(result) {
            let chunk = try readSome()
            if chunk.isEmpty { break }
            result += chunk
        }
        return result
    }

    /// One read: empty means EOF.
    package func readSome() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(operation: "recv", errno: errno)
            }
            return Array(buffer[0..<count])
        }
    }
}

extension RawClient {
    /// Connects, or nil when the connection is refused (for tests that expect exactly that).
    package static func connecting(to port: UInt16) -> RawClient? { try? RawClient(port: port) }

    /// Shuts the connection down both ways (the server sees it end); the descriptor itself
    /// is closed once, when the client is released.
    package func disconnect() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Sends `bytes`; false when the peer stopped reading (reset or closed).
    @discardableResult
    package func write(_ bytes: [UInt8]) -> Bool { (try? send(bytes)) != nil }

    /// Sends `text` as UTF-8; false when the peer stopped reading.
    @discardableResult
    package func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Reads until the peer closes, the timeout passes, a reset, or `limit` bytes arrived.
    package func readAll(limit: Int = 1 << 20) -> [UInt8] {
        var result: [UInt8] = []
        while result.count < limit, let chunk = try? readSome(), !chunk.isEmpty { result += chunk }
        return result
    }

    /// The status code of the HTTP/1.1 status line `readAll` returns, if any.
    package func readStatus() -> Int? {
        let parts = readAll().text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
        return Int(parts[1])
    }
}

extension Array where Element == UInt8 {
    /// The bytes as UTF-8 text (invalid sequences replaced).
    package var text: String { String(decoding: self, as: UTF8.self) }
}

/// Counts how many times `needle` occurs in `haystack`.
package func occurrences(of needle: String, in haystack: [UInt8]) -> Int {
    haystack.text.components(separatedBy: needle).count - 1
}
