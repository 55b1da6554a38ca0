#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX backend: `poll(2)` over a dense array of `pollfd`, woken through a self-pipe.
/// The same code on Linux and Darwin, and only POSIX flags (no `POLLRDHUP`, which Darwin lacks).
///
/// Level-triggered like epoll. Confined to the loop thread (only ``waker`` leaves it).
/// Registering, changing and forgetting a descriptor cost O(1): `slots` maps a descriptor
/// to its index in `entries`, and a removal moves the last entry into the hole. Each `wait`
/// is O(watched descriptors), which is what `poll` costs the kernel anyway.
final class PollSet: ReadinessSet {
    /// `entries[0]` is the wake pipe's read end; then one entry per watched descriptor.
    private var entries: [pollfd]
    /// `slots[fd]`: the index of `fd` in `entries`, or -1. Grows to the largest fd watched.
    private var slots: [Int32] = []
    private let wakeRead: Int32
    let waker: PollerWaker

    init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        try systemCall("pipe") { pipe(&ends) }
        do throws(SystemError) {
            try makeNonBlockingCloseOnExec(ends[0])
            try makeNonBlockingCloseOnExec(ends[1])
        } catch {
            closeDescriptor(ends[0])
            closeDescriptor(ends[1])
            throw error
        }
        wakeRead = ends[0]
        waker = PollerWaker(fd: ends[1])
        entries = [pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)]
    }

    func close() {
        closeDescriptor(wakeRead)
        closeDescriptor(waker.fd)
    }

    /// `old` is not needed: the registry knows what is watched.
    func update(_ fd: Int32, from old: PollInterest, to new: PollInterest, edgeTriggered: Bool) {
        guard fd >= 0, fd != wakeRead else { return }
        if new.isEmpty {
            forget(fd)
            return
        }
        var events: Int16 = 0
        if new.read { events |= Int16(POLLIN) }
        if new.write { events |= Int16(POLLOUT) }
        if let slot = slot(of: fd) {
            entries[slot].events = events
            return
        }
        let index = Int(fd)
        if index >= slots.count {
            slots.append(contentsOf: repeatElement(-1, count: max(index + 1, slots.count * 2) - slots.count))
        }
        slots[index] = Int32(entries.count)
        entries.append(pollfd(fd: fd, events: events, revents: 0))
    }

    func forget(_ fd: Int32) {
        guard let slot = slot(of: fd) else { return }
        let last = entries.count - 1
        if slot != last {
            entries[slot] = entries[last]
            slots[Int(entries[slot].fd)] = Int32(slot)
        }
        entries.removeLast()
        slots[Int(fd)] = -1
    }

    func wait(timeoutMilliseconds: Int32, into events: inout [PollEvent]) throws(SystemError) {
        var ready = Int(try systemCall("poll") { poll(&entries, nfds_t(entries.count), timeoutMilliseconds) })
        var invalid: [Int32] = []
        var index = 0
        while ready > 0 && index < entries.count {
            let entry = entries[index]
            index += 1
            guard entry.revents != 0 else { continue }
            ready -= 1
            if entry.fd == wakeRead {
                drainWakePipe()
                continue
            }
            let revents = Int32(entry.revents)
            // A descriptor closed without `forget`: stop watching it, or every poll returns at once.
            if revents & Int32(POLLNVAL) != 0 { invalid.append(entry.fd) }
            let hungUp = revents & Int32(POLLHUP | POLLERR | POLLNVAL) != 0
            events.append(PollEvent(
                fd: entry.fd,
                // POLLHUP is readable too: the loop reads the EOF (there is no POLLRDHUP to ask for).
                readable: revents & Int32(POLLIN | POLLHUP) != 0,
                writable: revents & Int32(POLLOUT) != 0,
                failed: hungUp,
                endReported: hungUp))
        }
        for fd in invalid { forget(fd) }
    }

    private func slot(of fd: Int32) -> Int? {
        let index = Int(fd)
        guard index >= 0, index < slots.count, slots[index] >= 0 else { return nil }
        return Int(slots[index])
    }

    /// Reads the wake pipe empty, so the next `poll` blocks again.
    private func drainWakePipe() {
        withUnsafeTemporaryAllocation(byteCount: 512, alignment: 8) { buffer in
            while let count = try? systemCall("read(wake pipe)", { read(wakeRead, buffer.baseAddress, buffer.count) }),
                  count == buffer.count {}
        }
    }
}
