import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking loopback TCP client for tests that need exact bytes on the wire.
/// Every read has a timeout, so a broken server fails a test instead of hanging it.
final class RawClient: Sendable {
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var errno: Int32
        var description: String { "\(operation): \(String(cString: strerror(errno))) (errno \(errno))" }
    }

    let fd: Int32

    /// Connects to 127.0.0.1:`port`.
    /// - Throws: ``Failure`` with the connect errno (e.g. ECONNREFUSED).
    init(port: UInt16, timeoutSeconds: Int = 5) throws {
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
    func send(_ bytes: [UInt8]) throws {
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

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// Closes our sending side (the server reads EOF).
    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))  // an enum constant on Glibc, an Int32 macro on Darwin
    }

    /// Reads until the server closes. Throws on a reset or timeout.
    func readToEnd() throws -> [UInt8] {
        var result: [UInt8] = []
        while true {
            let chunk = try readSome()
            if chunk.isEmpty { return result }
            result += chunk
        }
    }

    /// Reads until `result` contains `count` bytes or the server closes.
    func read(atLeast count: Int) throws -> [UInt8] {
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
    func read(until isComplete: ([UInt8]) -> Bool) throws -> [UInt8] {
        var result: [UInt8] = []
        while !isComplete(result) {
            let chunk = try readSome()
            if chunk.isEmpty { break }
            result += chunk
        }
        return result
    }

    /// One read: empty means EOF.
    func readSome() throws -> [UInt8] {
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

extension Array where Element == UInt8 {
    var text: String { String(decoding: self, as: UTF8.self) }
}

/// Counts how many times `needle` occurs in `haystack`.
func occurrences(of needle: String, in haystack: [UInt8]) -> Int {
    haystack.text.components(separatedBy: needle).count - 1
}
