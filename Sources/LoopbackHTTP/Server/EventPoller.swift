#if canImport(Glibc)
import Glibc
import CLoopbackShim
#elseif canImport(Darwin)
import Darwin
#endif

/// Which readiness a descriptor is watched for.
package struct PollInterest: Hashable, Sendable {
    package var read: Bool
    package var write: Bool
    package static let none = PollInterest(read: false, write: false)
    package static let readable = PollInterest(read: true, write: false)
    package var isEmpty: Bool { !read && !write }
}

/// One readiness report from ``EventPoller/wait(timeoutMilliseconds:into:)``.
package struct PollEvent: Sendable {
    package var fd: Int32
    package var readable: Bool
    package var writable: Bool
    /// Error or hang-up: the descriptor should be read (to see EOF or the error) and closed.
    package var failed: Bool
}

/// The event loop's one small interface to the kernel: epoll on Linux, kqueue on Darwin.
///
/// Level-triggered. It is only descriptors, so it is `Sendable`; `wake()` is the one method
/// other threads call, everything else belongs to the loop thread.
package struct EventPoller: Sendable {
    private let pollFD: Int32
    /// Linux: an eventfd registered for reading. Darwin: unused (EVFILT_USER ident 1).
    private let wakeFD: Int32

    /// Creates the poller and its wake-up channel.
    /// - Throws: ``SystemError`` from `epoll_create1`/`eventfd`/`kqueue`.
    package init() throws(SystemError) {
        #if canImport(Glibc)
        let poll = try systemCall("epoll_create1") { cls_epoll_create() }
        do throws(SystemError) {
            let wake = try systemCall("eventfd") { cls_eventfd() }
            pollFD = poll
            wakeFD = wake
            try systemCall("epoll_ctl(add eventfd)") { cls_epoll_ctl(poll, 1, wake, cls_epollin()) }
        } catch {
            closeDescriptor(poll)
            throw error
        }
        #else
        let queue = try systemCall("kqueue") { kqueue() }
        pollFD = queue
        wakeFD = -1
        var change = kevent(ident: 1, filter: Int16(EVFILT_USER), flags: UInt16(EV_ADD | EV_CLEAR), fflags: 0, data: 0, udata: nil)
        do throws(SystemError) {
            try systemCall("kevent(add EVFILT_USER)") { Darwin.kevent(queue, &change, 1, nil, 0, nil) }
        } catch {
            closeDescriptor(queue)
            throw error
        }
        #endif
    }

    /// Releases the kernel objects. Call once, from the loop thread, after the loop ends.
    package func close() {
        closeDescriptor(pollFD)
        if wakeFD >= 0 { closeDescriptor(wakeFD) }
    }

    /// Makes a blocked or upcoming `wait` return. Safe from any thread.
    package func wake() {
        #if canImport(Glibc)
        var one: UInt64 = 1
        _ = Glibc.write(wakeFD, &one, MemoryLayout<UInt64>.size)
        #else
        var change = kevent(ident: 1, filter: Int16(EVFILT_USER), flags: 0, fflags: UInt32(NOTE_TRIGGER), data: 0, udata: nil)
        _ = Darwin.kevent(pollFD, &change, 1, nil, 0, nil)
        #endif
    }

    /// Changes what `fd` is watched for. `old` must be what was last set (`.none` for a new
    /// descriptor); an empty `new` stops watching it.
    package func update(_ fd: Int32, from old: PollInterest, to new: PollInterest) throws(SystemError) {
        guard old != new else { return }
        #if canImport(Glibc)
        var mask: UInt32 = 0
        if new.read { mask |= cls_epollin() | cls_epollrdhup() }
        if new.write { mask |= cls_epollout() }
        let op: Int32 = old.isEmpty ? 1 : (new.isEmpty ? 2 : 3)
        try systemCall("epoll_ctl(\(fd))") { cls_epoll_ctl(pollFD, op, fd, mask) }
        #else
        var changes: [kevent] = []
        if old.read != new.read {
            changes.append(kevent(ident: UInt(fd), filter: Int16(EVFILT_READ), flags: UInt16(new.read ? EV_ADD : EV_DELETE), fflags: 0, data: 0, udata: nil))
        }
        if old.write != new.write {
            changes.append(kevent(ident: UInt(fd), filter: Int16(EVFILT_WRITE), flags: UInt16(new.write ? EV_ADD : EV_DELETE), fflags: 0, data: 0, udata: nil))
        }
        let count = Int32(changes.count)
        try systemCall("kevent(\(fd))") { Darwin.kevent(pollFD, &changes, count, nil, 0, nil) }
        #endif
    }

    /// Waits for readiness (or a wake-up) at most `timeoutMilliseconds` (-1: forever) and
    /// replaces `events` with what is ready. Wake-ups are consumed and not reported.
    package func wait(timeoutMilliseconds: Int32, into events: inout [PollEvent]) throws(SystemError) {
        events.removeAll(keepingCapacity: true)
        let capacity = 256
        #if canImport(Glibc)
        let failure = withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { fds in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { masks in
                collect(fds: fds, masks: masks, timeout: timeoutMilliseconds, into: &events)
            }
        }
        if let failure { throw failure }
        #else
        var received = [kevent](repeating: kevent(), count: capacity)
        var timeout = timespec(tv_sec: Int(timeoutMilliseconds / 1000), tv_nsec: Int(timeoutMilliseconds % 1000) * 1_000_000)
        let count: Int32
        if timeoutMilliseconds < 0 {
            count = try systemCall("kevent(wait)") { Darwin.kevent(pollFD, nil, 0, &received, Int32(capacity), nil) }
        } else {
            count = try systemCall("kevent(wait)") { Darwin.kevent(pollFD, nil, 0, &received, Int32(capacity), &timeout) }
        }
        for index in 0..<min(Int(count), capacity) {
            let event = received[index]
            if event.filter == Int16(EVFILT_USER) { continue }
            let failed = event.flags & UInt16(EV_ERROR) != 0
            events.append(PollEvent(
                fd: Int32(truncatingIfNeeded: event.ident),
                readable: event.filter == Int16(EVFILT_READ),
                writable: event.filter == Int16(EVFILT_WRITE),
                failed: failed))
        }
        #endif
    }

    #if canImport(Glibc)
    /// The epoll half of `wait`, over stack-allocated scratch arrays; returns the failure.
    private func collect(
        fds: UnsafeMutableBufferPointer<Int32>,
        masks: UnsafeMutableBufferPointer<UInt32>,
        timeout: Int32,
        into events: inout [PollEvent]
    ) -> SystemError? {
        let count: Int32
        do throws(SystemError) {
            count = try systemCall("epoll_wait") {
                cls_epoll_wait(pollFD, fds.baseAddress, masks.baseAddress, Int32(fds.count), timeout)
            }
        } catch {
            return error
        }
        let failure = cls_epollerr() | cls_epollhup()
        for index in 0..<min(Int(count), fds.count, masks.count) {
            let fd = fds[index], mask = masks[index]
            if fd == wakeFD {
                var value: UInt64 = 0
                _ = Glibc.read(wakeFD, &value, MemoryLayout<UInt64>.size)
                continue
            }
            events.append(PollEvent(
                fd: fd,
                readable: mask & (cls_epollin() | cls_epollrdhup()) != 0,
                writable: mask & cls_epollout() != 0,
                failed: mask & failure != 0))
        }
        return nil
    }
    #endif
}
