import PushCore

/// The waiter engine both fakes wait with: each pending wait's continuation, its timeout and
/// its cancellation, in one place. A fake keeps what each wait waits *for* (a condition on its
/// state, a count of journal entries) under its own lock, next to the state it watches, so a
/// change and the waits it satisfies are seen together; it calls ``resume(_:returning:)`` once
/// a wait's condition holds. The engine ends every other way a wait can end: its timeout, its
/// task's cancellation, and the fake's stop (``failAll()``), each exactly once, and tells the
/// fake through `forget` so it drops the condition it kept.
///
/// Nothing here polls or sleeps a thread: a timeout is a `Task.sleep` that is cancelled as
/// soon as the wait ends.
package final class FakeWaiters<Value: Sendable>: Sendable {
    private struct Pending {
        var what: String
        var continuation: CheckedContinuation<Value, any Error>
        var timeout: Task<Void, Never>?
    }

    private struct State {
        var nextID: UInt64 = 0
        var pending: [UInt64: Pending] = [:]
        var isStopped = false
    }

    private let state = Locked(State())
    /// The fake's name in messages ("FakeAPNs").
    private let fake: String
    /// Where a timed-out wait tells the reader to look.
    private let hint: @Sendable () -> String
    /// Drops the condition the fake kept for a wait that ended without being resumed.
    private let forget: @Sendable (UInt64) -> Void

    /// - Parameters:
    ///   - fake: the fake's name, for messages.
    ///   - hint: what a timeout message adds (the state's summary, where to look).
    ///   - forget: called with a wait's id when it ends by timeout, cancellation or stop, to
    ///     drop the condition the fake kept for it (not called for ``resume(_:returning:)``).
    package init(fake: String, hint: @escaping @Sendable () -> String,
                 forget: @escaping @Sendable (UInt64) -> Void = { _ in }) {
        self.fake = fake
        self.hint = hint
        self.forget = forget
    }

    /// Waits for `what`: `register` runs once with the wait's id, and either returns the
    /// value at once (the condition holds already) or keeps the id with its condition under
    /// the fake's lock and returns nil, to be resumed later with ``resume(_:returning:)``.
    /// - Throws: `PushFakeError.timedOut` after `timeout`, `PushFakeError.cancelled` when
    ///   the task is cancelled or the fake stops (also when it had stopped before the call).
    package func wait(_ what: String, timeout: Duration, register: (UInt64) -> Value?) async throws -> Value {
        let id = state.withLock { state -> UInt64 in
            state.nextID &+= 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let accepted = state.withLock { state -> Bool in
                    guard !state.isStopped else { return false }
                    state.pending[id] = Pending(what: what, continuation: continuation, timeout: nil)
                    return true
                }
                guard accepted else {
                    continuation.resume(throwing: PushFakeError.stopped(fake, waitingFor: what))
                    return
                }
                if let ready = register(id) {
                    resume(id, returning: ready)
                    return
                }
                let fake = self.fake, hint = self.hint
                let timer = Task { [weak self] in
                    do { try await Task.sleep(for: timeout) } catch { return }
                    self?.end(id) { what in PushFakeError.timedOut(fake, waitingFor: what, after: timeout, hint: hint()) }
                }
                let kept = state.withLock { state -> Bool in
                    guard state.pending[id] != nil else { return false }
                    state.pending[id]?.timeout = timer
                    return true
                }
                if !kept { timer.cancel() }
                if Task.isCancelled { end(id) { what in PushFakeError.cancelled(fake, waitingFor: what) } }
            }
        } onCancel: {
            let fake = self.fake
            end(id) { what in PushFakeError.cancelled(fake, waitingFor: what) }
        }
    }

    /// Ends wait `id` with `value`; a no-op when it has ended already (first outcome wins).
    /// Call it after releasing the fake's lock: the waiting task resumes from here.
    package func resume(_ id: UInt64, returning value: Value) {
        guard let pending = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
        pending.timeout?.cancel()
        pending.continuation.resume(returning: value)
    }

    /// Fails every pending wait and every later one (the fake stopped).
    package func failAll() {
        let ended = state.withLock { state -> [(UInt64, Pending)] in
            state.isStopped = true
            defer { state.pending.removeAll() }
            return Array(state.pending)
        }
        for (id, pending) in ended {
            pending.timeout?.cancel()
            forget(id)
            pending.continuation.resume(throwing: PushFakeError.stopped(fake, waitingFor: pending.what))
        }
    }

    /// How many waits are pending.
    package var count: Int { state.withLock { $0.pending.count } }

    /// Ends wait `id` with the error `error` makes from its description, if it is pending.
    private func end(_ id: UInt64, _ error: (String) -> PushFakeError) {
        guard let pending = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return }
        pending.timeout?.cancel()
        forget(id)
        pending.continuation.resume(throwing: error(pending.what))
    }
}
