#if canImport(Glibc)
import Glibc
import CLoopbackShim

/// Linux's default backend: an epoll set with an eventfd for wake-ups. Level-triggered, or
/// edge-triggered (`EPOLLET`) for the descriptors updated so.
/// Confined to the loop thread (only ``waker`` leaves it).
final class EpollSet: ReadinessSet {
    private let epollFD: Int32
    /// Registered for reading; ``waker`` writes to it.
    private let wakeFD: Int32
    let waker: PollerWaker

    init() throws(SystemError) {
        let epoll = try systemCall("epoll_create1") { cls_epoll_create() }
        do throws(SystemError) {
            let wake = try systemCall("eventfd") { cls_eventfd() }
            epollFD = epoll
            wakeFD = wake
            waker = PollerWaker(fd: wake)
            do throws(SystemError) {
                try systemCall("epoll_ctl(add eventfd)") { cls_epoll_ctl(epoll, 1, wake, cls_epollin()) }
            } catch {
                closeDescriptor(wake)
                throw error
            }
        } catch {
            closeDescriptor(epoll)
            throw error
        }
    }

    func close() {
        closeDescriptor(epollFD)
        closeDescriptor(wakeFD)
    }

    func update(_ fd: Int32, from old: PollInterest, to new: PollInterest, edgeTriggered: Bool) throws(SystemError) {
        var mask: UInt32 = edgeTriggered ? cls_epollet() : 0
        if new.read { mask |= cls_epollin() | cls_epollrdhup() }
        if new.write { mask |= cls_epollout() }
        let op: Int32 = old.isEmpty ? 1 : (new.isEmpty ? 2 : 3)
        try systemCall("epoll_ctl(\(fd))") { cls_epoll_ctl(epollFD, op, fd, mask) }
    }

    /// Closing a descriptor removes it from the epoll set: nothing to do.
    func forget(_ fd: Int32) {}

    func wait(timeoutMilliseconds: Int32, into events: inout [PollEvent]) throws(SystemError) {
        let capacity = 256
        let failure = withUnsafeTemporaryAllocation(of: Int32.self, capacity: capacity) { fds in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { masks in
                collect(fds: fds, masks: masks, timeout: timeoutMilliseconds, into: &events)
            }
        }
        if let failure { throw failure }
    }

    /// `wait` over stack-allocated scratch arrays; returns the failure.
    private func collect(
        fds: UnsafeMutableBufferPointer<Int32>,
        masks: UnsafeMutableBufferPointer<UInt32>,
        timeout: Int32,
        into events: inout [PollEvent]
    ) -> SystemError? {
        let count: Int32
        do throws(SystemError) {
            count = try systemCall("epoll_wait") {
                cls_epoll_wait(epollFD, fds.baseAddress, masks.baseAddress, Int32(fds.count), timeout)
            }
        } catch {
            return error
        }
        let failure = cls_epollerr() | cls_epollhup()
        for index in 0..<min(Int(count), fds.count, masks.count) {
            let fd = fds[index], mask = masks[index]
            if fd == wakeFD {
                var value: UInt64 = 0
                _ = try? systemCall("read(eventfd)") { read(wakeFD, &value, MemoryLayout<UInt64>.size) }
                continue
            }
            events.append(PollEvent(
                fd: fd,
                readable: mask & (cls_epollin() | cls_epollrdhup()) != 0,
                writable: mask & cls_epollout() != 0,
                failed: mask & failure != 0,
                endReported: mask & (failure | cls_epollrdhup()) != 0))
        }
        return nil
    }
}
#endif
