import Foundation

/// One lock-protected box for shared mutable state, instead of ad-hoc locking.
///
/// `Synchronization.Mutex` needs iOS 18 / macOS 15; the library products must work from
/// an iOS 17 test target, so this wraps `NSLock` instead. The box is `Sendable` only when
/// its value is: the lock makes access exclusive, but it cannot make a non-`Sendable` value
/// safe to hand to another thread.
///
/// The class is `public` (its API is `package`) so that `withLock` is inlined and specialised
/// in its callers: the compiler does not serialise an `@inlinable` body for a `package` type,
/// and unspecialised, every critical section went through a generic call with its closure
/// and result reabstracted (a fake takes one or two per request).
public final class Locked<Value> {
    @usableFromInline let lock = NSLock()
    @usableFromInline var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    @discardableResult @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    package var snapshot: Value { withLock { $0 } }
}

// Unchecked because the compiler cannot see that `lock` guards `value`; every access to
// `value` goes through `withLock`.
extension Locked: @unchecked Sendable where Value: Sendable {}
