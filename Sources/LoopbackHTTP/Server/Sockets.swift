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
    /// - Parameters:
    ///   - backlog: pending connections the kernel queues. Darwin silently caps it at
    ///     `kern.ipc.somaxconn` (128 by default); Linux at `net.core.somaxconn` (4096).
    ///   - portable: only POSIX calls (`socket` + `fcntl`), as on Darwin; false lets Linux
    ///     create it non-blocking in one call (`SOCK_NONBLOCK | SOCK_CLOEXEC`).
    /// - Returns: the descriptor and the port actually bound.
    /// - Throws: ``SystemError`` naming the failing call (e.g. `bind` with `EADDRINUSE`).
    package static func listen(host: String, port: UInt16, backlog: Int32 = 1024, portable: Bool) throws(SystemError) -> (fd: Int32, port: UInt16) {
        let fd = try reserve(host: host, port: port, portable: portable)
        do throws(SystemError) {
            try startListening(fd, host: host, port: port, backlog: backlog)
            return (fd, try boundPort(fd))
        } catch {
            closeDescriptor(fd)
            throw error
        }
    }

    /// A socket bound to `host:port` (`SO_REUSEADDR`) that does not listen: it holds the port
    /// while connections to it are refused (the system answers them with a reset). A port
    /// held so is never handed out by the system (a client's `connect`, another `bind` to
    /// port 0); only an explicit bind with `SO_REUSEADDR` can share it.
    package static func reserve(host: String, port: UInt16, portable: Bool) throws(SystemError) -> Int32 {
        let host = host == "localhost" ? "127.0.0.1" : host
        let isIPv6 = host.contains(":")
        let fd = try makeSocket(family: isIPv6 ? AF_INET6 : AF_INET, portable: portable)
        do throws(SystemError) {
            var one: Int32 = 1
            try systemCall("setsockopt(SO_REUSEADDR)") {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            if isIPv6 {
                try bind(fd, to: host, port: port, fields: ipv6, named: "[\(host)]:\(port)")
            } else {
                try bind(fd, to: host, port: port, fields: ipv4, named: "\(host):\(port)")
            }
            return fd
        } catch {
            closeDescriptor(fd)
            throw error
        }
    }

    /// Makes a socket from ``reserve(host:port:portable:)`` listen; `host` and `port` name
    /// it in the error.
    package static func startListening(_ fd: Int32, host: String, port: UInt16, backlog: Int32 = 1024) throws(SystemError) {
        let host = host == "localhost" ? "127.0.0.1" : host
        try systemCall("listen(\(host):\(port))") { systemListen(fd, backlog) }
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
        return Int32(storage.ss_family) == AF_INET6 ? port(in: storage, ipv6) : port(in: storage, ipv4)
    }

    /// The port of the `sockaddr_in` or `sockaddr_in6` that `storage` holds.
    private static func port<Address, Host>(in storage: sockaddr_storage, _ fields: AddressFields<Address, Host>) -> UInt16 {
        withUnsafePointer(to: storage) {
            $0.withMemoryRebound(to: Address.self, capacity: 1) { UInt16(bigEndian: $0.pointee[keyPath: fields.port]) }
        }
    }

    /// Accepts one pending connection, configured (non-blocking, close-on-exec,
    /// `TCP_NODELAY`, no `SIGPIPE`).
    ///
    /// - Parameter portable: `accept` + `fcntl` (POSIX, as on Darwin); false lets Linux use
    ///   `accept4` with `SOCK_NONBLOCK | SOCK_CLOEXEC` (one call instead of four).
    /// - Returns: the new descriptor, or nil when no connection is pending (or the one
    ///   pending is already gone: `ECONNABORTED`, or it could not be configured).
    /// - Throws: ``SystemError`` for real failures (e.g. `EMFILE`).
    package static func accept(_ listener: Int32, portable: Bool) throws(SystemError) -> Int32? {
        let fd: Int32
        do throws(SystemError) {
            fd = try systemCall("accept") { systemAccept(listener, portable: portable) }
        } catch {
            if error.wouldBlock || error.errno == ECONNABORTED { return nil }
            throw error
        }
        if portable {
            do throws(SystemError) {
                try makeNonBlockingCloseOnExec(fd)
            } catch {
                closeDescriptor(fd)
                return nil
            }
        }
        var one: Int32 = 1
        _ = try? systemCall("setsockopt(TCP_NODELAY)") {
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        preventSIGPIPE(fd)
        return fd
    }

    /// Reads into `buffer`. Returns the byte count (0 = the peer closed), or nil when the
    /// read would block. `recv(2)`, not `read(2)`: on Linux it goes to the socket straight,
    /// where `read` passes through the file layer first (`vfs_read`, `sock_read_iter`,
    /// `fdget_pos`; 65–95 ns a request in `perf` profiles of `serve` under wrk).
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemError) -> Int? {
        do throws(SystemError) {
            return try systemCall("recv") { recv(fd, buffer.baseAddress, buffer.count, 0) }
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
            return try systemCall("send") { send(fd, base, bytes.count, noSIGPIPESendFlags) }
        } catch {
            if error.wouldBlock { return 0 }
            throw error
        }
    }

    /// Ends a listening socket's listening now, on Linux, even while another copy of its
    /// descriptor is open: a child process being started (`posix_spawn`, `fork`) holds copies
    /// of every descriptor until its `exec` closes them, and a closed listener whose copy a
    /// child holds still completes connections (a test saw a stopped server's port accept
    /// one). `shutdown` acts on the socket, not the descriptor. Darwin refuses it on a
    /// listener (`ENOTCONN`), which is ignored; the `close` that follows does the rest.
    package static func stopListening(_ fd: Int32) {
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Half-closes: the peer reads EOF after everything already written. (`SHUT_WR` is an
    /// `Int32` macro on Darwin and an enum constant on Glibc; `Int32(_:)` takes both.)
    package static func shutdownWrite(_ fd: Int32) {
        _ = try? systemCall("shutdown(SHUT_WR)") { shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Aborts the connection: `SO_LINGER` with a zero timeout makes `close` send a TCP reset,
    /// which the peer sees as `ECONNRESET`.
    package static func resetAndClose(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = try? systemCall("setsockopt(SO_LINGER)") {
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        closeDescriptor(fd)
    }

    private static func makeSocket(family: Int32, portable: Bool) throws(SystemError) -> Int32 {
        #if canImport(Glibc)
        if !portable {
            let type = streamSocketType | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            return try systemCall("socket") { socket(family, type, 0) }
        }
        #endif
        let fd = try systemCall("socket") { socket(family, streamSocketType, 0) }
        do throws(SystemError) {
            try makeNonBlockingCloseOnExec(fd)
        } catch {
            closeDescriptor(fd)
            throw error
        }
        preventSIGPIPE(fd)
        return fd
    }

    /// Binds `fd` to the numeric `host` and `port`, filled into a `sockaddr_in` or a
    /// `sockaddr_in6` as `fields` says.
    private static func bind<Address: ZeroInitialized, Host>(_ fd: Int32, to host: String, port: UInt16,
                                                             fields: AddressFields<Address, Host>,
                                                             named name: String) throws(SystemError) {
        var address = Address()
        address[keyPath: fields.family] = sa_family_t(fields.familyValue)
        if let length = fields.length { address[keyPath: length] = UInt8(MemoryLayout<Address>.size) }
        address[keyPath: fields.port] = port.bigEndian
        let parsed = withUnsafeMutableBytes(of: &address[keyPath: fields.host]) { inet_pton(fields.familyValue, host, $0.baseAddress) }
        guard parsed == 1 else {
            throw SystemError(operation: "inet_pton(\(host))", errno: EINVAL)
        }
        try systemCall("bind(\(name))") {
            withUnsafePointer(to: address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    systemBind(fd, $0, socklen_t(MemoryLayout<Address>.size))
                }
            }
        }
    }

    /// IPv4's fields, for ``bind(_:to:port:fields:named:)`` and ``port(in:_:)``.
    private static var ipv4: AddressFields<sockaddr_in, in_addr> {
        AddressFields(familyValue: AF_INET, family: \.sin_family, length: ipv4Length, port: \.sin_port, host: \.sin_addr)
    }

    /// IPv6's fields.
    private static var ipv6: AddressFields<sockaddr_in6, in6_addr> {
        AddressFields(familyValue: AF_INET6, family: \.sin6_family, length: ipv6Length, port: \.sin6_port, host: \.sin6_addr)
    }

    /// Darwin: `SO_NOSIGPIPE`, because it has no `MSG_NOSIGNAL` send flag. Linux: nothing.
    private static func preventSIGPIPE(_ fd: Int32) {
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = try? systemCall("setsockopt(SO_NOSIGPIPE)") { setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size)) }
        #endif
    }
}

/// Where a `sockaddr_in` or a `sockaddr_in6` keeps its family, length, port and address:
/// the two families go through one generic path (``Sockets``' `bind` and `port(in:_:)`).
private struct AddressFields<Address, Host> {
    /// `AF_INET` or `AF_INET6`.
    var familyValue: Int32
    var family: WritableKeyPath<Address, sa_family_t>
    /// Darwin's `sin_len`/`sin6_len`; nil on Linux, whose structs have no length field.
    var length: WritableKeyPath<Address, UInt8>?
    var port: WritableKeyPath<Address, in_port_t>
    var host: WritableKeyPath<Address, Host>
}

/// The C address structs, which Swift imports with a zeroing `init()`.
private protocol ZeroInitialized { init() }
extension sockaddr_in: ZeroInitialized {}
extension sockaddr_in6: ZeroInitialized {}

// Platform spellings, one line each.
#if canImport(Glibc)
/// Glibc imports `SOCK_STREAM` as a case of the enum `__socket_type`.
private let streamSocketType = Int32(SOCK_STREAM.rawValue)
/// Linux: no `SIGPIPE` for this send.
private let noSIGPIPESendFlags = Int32(MSG_NOSIGNAL)
#else
private let streamSocketType = SOCK_STREAM
private let noSIGPIPESendFlags: Int32 = 0
#endif
#if canImport(Darwin)
private var ipv4Length: WritableKeyPath<sockaddr_in, UInt8>? { \sockaddr_in.sin_len }
private var ipv6Length: WritableKeyPath<sockaddr_in6, UInt8>? { \sockaddr_in6.sin6_len }
#else
private var ipv4Length: WritableKeyPath<sockaddr_in, UInt8>? { nil }
private var ipv6Length: WritableKeyPath<sockaddr_in6, UInt8>? { nil }
#endif

// `listen`, `accept` and `bind` are shadowed inside `Sockets` by its static methods;
// at file scope the names reach the C calls, with no module prefix.
@inline(__always) private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 { listen(fd, backlog) }
@inline(__always) private func systemBind(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { bind(fd, address, length) }
@inline(__always) private func systemAccept(_ listener: Int32, portable: Bool) -> Int32 {
    #if canImport(Glibc)
    if !portable { return cls_accept_nonblocking(listener) }
    #endif
    return accept(listener, nil, nil)
}
