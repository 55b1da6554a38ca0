@testable import LoopbackHTTP
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bare TCP client on loopback, for sending what no HTTP client would.
struct RawClient {
    private(set) var descriptor: Int32

    /// Connects to 127.0.0.1:port with a 5 s receive timeout.
    init?(port: UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return nil }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1  // Darwin has no MSG_NOSIGNAL send flag: a write to a closed peer gives EPIPE, not SIGPIPE
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            _ = RawClient.closeDescriptor(fd)
            return nil
        }
        descriptor = fd
    }

    /// Writes all of `bytes`; false when the peer stopped reading (reset or closed).
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                send(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset, noSIGPIPEFlags)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Reads until the peer closes, the timeout passes, or `limit` bytes arrived.
    func readAll(limit: Int = 1 << 20) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while result.count < limit {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            result += buffer[0..<count]
        }
        return result
    }

    /// The status line's code of what `readAll` returned, if any.
    func readStatus() -> Int? {
        let text = String(decoding: readAll(), as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
        return Int(parts[1])
    }

    func close() { _ = RawClient.closeDescriptor(descriptor) }

    private static func closeDescriptor(_ fd: Int32) -> Int32 { closeSocket(fd) }
}

/// At file scope `close` is the C call (inside `RawClient` its `close()` method shadows it).
private func closeSocket(_ fd: Int32) -> Int32 { close(fd) }

#if canImport(Glibc)
private let noSIGPIPEFlags = Int32(MSG_NOSIGNAL)
#else
private let noSIGPIPEFlags: Int32 = 0  // SO_NOSIGPIPE is set on the socket instead
#endif
