import Foundation

/// One lock-protected box for shared mutable state, instead of ad-hoc locking.
///
/// `Synchronization.Mutex` needs iOS 18 / macOS 15; the library products must work from
/// an iOS 17 test target, so this wraps a `pthread_mutex_t` instead (called directly: an
/// `NSLock` adds a dynamically dispatched method call and its own checks to each lock and
/// unlock, ~20 instructions a critical section). The box is `Sendable` only when
/// its value is: the lock makes access exclusive, but it cannot make a non-`Sendable` value
/// safe to hand to another thread.
///
/// The class is `public` (its API is `package`) so that `withLock` is inlined and specialised
/// in its callers: the compiler does not serialise an `@inlinable` body for a `package` type,
/// and unspecialised, every critical section went through a generic call with its closure
/// and result reabstracted (a fake takes one or two per request).
///
/// The value lives in memory of its own, reached through a pointer: a stored `var` of a
/// class is checked for exclusive access at run time on every `inout` use
/// (`swift_beginAccess`/`swift_endAccess`, ~120 instructions a critical section, and a
/// request takes several), a check the lock already makes unneeded.
public final class Locked<Value> {
    /// A default (non-recursive) mutex, in memory of its own: a mutex must not move.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The value: read and changed only while `mutex` is held.
    @usableFromInline let value: UnsafeMutablePointer<Value>

    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    @discardableResult @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// A copy of the current value.
    package var snapshot: Value { withLock { $0 } }
}

// Unchecked because the compiler cannot see that `lock` guards `value`; every access to
// `value` goes through `withLock`.
extension Locked: @unchecked Sendable where Value: Sendable {}
