import Dispatch
import Foundation
import Testing
@testable import PushCore

/// `Locked`, the box every fake's state lives in: its critical sections exclude each other
/// (no update is lost, no two run at once) and it works again after each one.
@Suite struct LockedTests {
    @Test func criticalSectionsNeverOverlapAndLoseNoUpdate() {
        struct Counts {
            var total = 0
            var inside = 0
            var overlaps = 0
        }
        let counts = Locked(Counts())
        let threads = 4, rounds = 100_000, steps = 10
        // Threads of their own (a global queue may run the blocks one after another) start
        // together and each spends nearly all its time in a section, so
        // sections would overlap (and updates be lost) at once without the lock.
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<threads {
            done.enter()
            Thread {
                defer { done.leave() }
                start.wait()
                for _ in 0..<rounds {
                    counts.withLock { counts in
                        counts.inside += 1
                        if counts.inside > 1 { counts.overlaps += 1 }
                        for _ in 0..<steps { counts.total += 1 }
                        counts.inside -= 1
                    }
                }
            }.start()
        }
        for _ in 0..<threads { start.signal() }
        #expect(done.wait(timeout: .now() + 120) == .success)
        let final = counts.snapshot
        #expect(final.total == threads * rounds * steps)
        #expect(final.overlaps == 0)
        #expect(final.inside == 0)
    }

    @Test func aSectionThatThrowsOrReturnsLeavesTheLockFree() {
        struct Refused: Error {}
        let value = Locked(1)
        #expect(throws: Refused.self) { try value.withLock { _ in throw Refused() } }
        // Free again: taken without waiting (a lock left held would refuse here, not block).
        #expect(pthread_mutex_trylock(value.mutex) == 0)
        pthread_mutex_unlock(value.mutex)
        #expect(value.withLock { value -> Int in
            value += 1
            return value
        } == 2)
        #expect(pthread_mutex_trylock(value.mutex) == 0)
        pthread_mutex_unlock(value.mutex)
    }
}
