#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Deadlines for the event loop: a binary min-heap ordered by deadline, then by insertion.
///
/// The loop sleeps in the poller until the earliest deadline and pops every entry that is
/// due. Entries are never removed early; an owner that no longer cares ignores the entry
/// when it fires (its connection is gone or its deadline moved), which keeps the heap simple.
package struct TimerQueue<Payload> {
    private struct Entry {
        var deadline: UInt64
        var sequence: UInt64
        var payload: Payload
        func fires(before other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    private var heap: [Entry] = []
    private var nextSequence: UInt64 = 0

    package init() {}

    package var count: Int { heap.count }

    /// Monotonic now, in nanoseconds: `clock_gettime(CLOCK_MONOTONIC)`, the same call on
    /// Linux and Darwin (which declares it since macOS 10.12 and iOS 10), so Darwin runs the
    /// line Linux CI runs. `DispatchTime.now().uptimeNanoseconds` read the same clock through
    /// libdispatch's `dispatch_time`, ~150 instructions more a read, and the loop reads it
    /// after every handler call. Only differences of its values mean anything (Darwin's also
    /// counts time asleep).
    package static var now: UInt64 {
        var time = timespec()
        _ = clock_gettime(CLOCK_MONOTONIC, &time)  // fails only for an unknown clock or a bad pointer
        return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
    }

    /// The earliest deadline, if any.
    package var nextDeadline: UInt64? { heap.isEmpty ? nil : heap[0].deadline }  // not `first`: that copies the payload

    /// Adds `payload` to fire at `deadline` (monotonic nanoseconds).
    package mutating func schedule(at deadline: UInt64, _ payload: Payload) {
        heap.append(Entry(deadline: deadline, sequence: nextSequence, payload: payload))
        nextSequence &+= 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].fires(before: heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    package mutating func popDue(now: UInt64) -> Payload? {
        guard !heap.isEmpty, heap[0].deadline <= now else { return nil }
        let first = heap[0]
        let last = heap.removeLast()
        if heap.isEmpty { return first.payload }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].fires(before: heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].fires(before: heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return first.payload
    }

    /// Milliseconds from `now` until the earliest deadline (rounded up), -1 when empty;
    /// capped so the poller wakes at least every `cap` milliseconds.
    package func pollTimeout(now: UInt64, cap: Int32 = 1_000) -> Int32 {
        guard let deadline = nextDeadline else { return -1 }
        guard deadline > now else { return 0 }
        let milliseconds = (deadline - now + 999_999) / 1_000_000
        return Int32(min(UInt64(cap), milliseconds))
    }
}
