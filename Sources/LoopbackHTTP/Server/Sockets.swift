#if canImport(Glibc)
import Glibc
import CLoopbackShim
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls the server makes, each through ``systemCall(_:_:)``.
///
/// Every socket is non-blocking and close-on-exec. Writes never raise `SIGPIPE`
/// (`MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE` on Darwin), so a client that vanishes
/// mid-response cannot kill the host process.
package enum Sockets {
    /// A listening socket bound to `host:port` (port 0 picks a free port). `host` is a
    /// numeric IPv4 or IPv6 address (`"localhost"` means `127.0.0.1`); no name lookup.
    ///
    /// - Returns: the descriptor and the port actually bound.
    /// - Throws: ``SystemError`` naming the failing call (e.g. `bind` with `EADDRINUSE`).
    package static func listen(host: String, port: UInt16, backlog: Int32 = 1024) throws(SystemError) -> (fd: Int32, port: UInt16) {
        let host = host == "localhost" ? "127.0.0.1" : host
        let isIPv6 = host.contains(":")
        let family = isIPv6 ? AF_INET6 : AF_INET
        let fd = try makeSocket(family: family)
        do throws(SystemError) {
            var one: Int32 = 1
            try systemCall("setsockopt(SO_REUSEADDR)") {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            if isIPv6 {
                var address = sockaddr_in6()
                address.sin6_family = sa_family_t(AF_INET6)
                #if canImport(Darwin)
                address.sin6_len = UInt8(MemoryLayout<sockaddr_in6>.size)
                #endif
                address.sin6_port = port.bigEndian
                guard inet_pton(AF_INET6, host, &address.sin6_addr) == 1 else {
                    throw SystemError(operation: "inet_pton(\(host))", errno: EINVAL)
                }
                let bound = address
                try systemCall("bind([\(host)]:\(port))") {
                    withUnsafePointer(to: bound) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
                    }
                }
            } else {
                var address = sockaddr_in()
                address.sin_family = sa_family_t(AF_INET)
                #if canImport(Darwin)
                address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
                #endif
                address.sin_port = port.bigEndian
                guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
                    throw SystemError(operation: "inet_pton(\(host))", errno: EINVAL)
                }
                let bound = address
                try systemCall("bind(\(host):\(port))") {
                    withUnsafePointer(to: bound) {
                        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                    }
                }
            }
            try systemCall("listen(\(host):\(port))") { systemListen(fd, backlog) }
            return (fd, try boundPort(fd))
        } catch {
            closeDescriptor(fd)
            throw error
        }
    }

    /// The local port a socket is bound to.
    package static func boundPort(_ fd: Int32) throws(SystemError) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        try systemCall("getsockname") {
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
        }
        if Int32(storage.ss_family) == AF_INET6 {
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
        }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
        }
    }

    /// Accepts one pending connection, configured (non-blocking, `TCP_NODELAY`, no `SIGPIPE`).
    ///
    /// - Returns: the new descriptor, or nil when no connection is pending.
    /// - Throws: ``SystemError`` for real failures (e.g. `EMFILE`); `ECONNABORTED` is
    ///   reported as nil because the peer is already gone.
    package static func accept(_ listener: Int32) throws(SystemError) -> Int32? {
        let fd: Int32
        do throws(SystemError) {
            #if canImport(Glibc)
            fd = try systemCall("accept") { cls_accept_nonblocking(listener) }
            #else
            let accepted = try systemCall("accept") { Darwin.accept(listener, nil, nil) }
            do throws(SystemError) {
                try setNonBlocking(accepted)
            } catch {
                closeDescriptor(accepted)
                return nil
            }
            fd = accepted
            #endif
        } catch {
            if error.wouldBlock || error.errno == ECONNABORTED { return nil }
            throw error
        }
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return fd
    }

    /// Reads into `buffer`. Returns the byte count (0 = the peer closed), or nil when the
    /// read would block.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        do throws(SystemError) {
            return try systemCall("read") { systemRead(fd, buffer.baseAddress, buffer.count) }
        } catch {
            if error.wouldBlock { return nil }
            throw error
        }
    }

    /// Writes as much of `bytes` as the socket takes now. Returns the count written
    /// (0 when it would block).
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemError) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        do throws(SystemError) {
            #if canImport(Glibc)
            return try systemCall("send") { send(fd, base, bytes.count, Int32(MSG_NOSIGNAL)) }
            #else
            return try systemCall("send") { send(fd, base, bytes.count, 0) }
            #endif
        } catch {
            if error.wouldBlock { return 0 }
            throw error
        }
    }

    /// Half-closes: the peer reads EOF after everything already written.
    package static func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
        _ = shutdown(fd, Int32(SHUT_WR))
        #else
        _ = shutdown(fd, SHUT_WR)
        #endif
    }

    /// Aborts the connection: `SO_LINGER` with a zero timeout makes `close` send a TCP reset,
    /// which the peer sees as `ECONNRESET`.
    package static func resetAndClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        closeDescriptor(fd)
    }

    private static func makeSocket(family: Int32) throws(SystemError) -> Int32 {
        #if canImport(Glibc)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        return try systemCall("socket") { socket(family, type, 0) }
        #else
        let fd = try systemCall("socket") { socket(family, SOCK_STREAM, 0) }
        do throws(SystemError) {
            try setNonBlocking(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        } catch {
            closeDescriptor(fd)
            throw error
        }
        return fd
        #endif
    }

    #if canImport(Darwin)
    private static func setNonBlocking(_ fd: Int32) throws(SystemError) {
        let flags = try systemCall("fcntl(F_GETFL)") { fcntl(fd, F_GETFL, 0) }
        try systemCall("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }
    #endif
}

// `listen` and `read` are shadowed by the static methods above; these reach the C calls.
#if canImport(Glibc)
@inline(__always) private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(fd, backlog) }
@inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
#else
@inline(__always) private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { Darwin.listen(fd, backlog) }
@inline(__always) private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
#endif
