import Dispatch
import PushCore

/// A request from another thread to a server's loop thread.
package enum ServerCommand: Sendable {
    /// Close the listening socket and every connection; signal `done` when finished.
    case refuse(done: DispatchSemaphore)
    /// Bind and listen again on `port`; store a failure in `outcome`, then signal `done`.
    /// The loop binds (not the caller), so it happens strictly after an earlier `.refuse`
    /// has released the port.
    case listen(port: UInt16, outcome: Locked<SystemError?>, done: DispatchSemaphore)
    /// Finish in-flight responses, close everything and end the loop.
    case stop
    /// A ``ResponseStream`` of connection `fd` (accepted as `id`) has chunks or its finish.
    case pumpStream(fd: Int32, id: UInt64)
}

/// What the loop thread and the threads that own an ``HTTPServer`` share: a command
/// queue, the poller's waker, and counters for tests. One lock-protected box, no other locking.
package final class ServerControl: Sendable {
    package struct Counters: Sendable, Hashable {
        /// Connections open right now.
        package var openConnections = 0
        /// Connections accepted since the server started.
        package var acceptedConnections = 0
    }

    private struct State {
        var commands: [ServerCommand] = []
        var loopExited = false
        var counters = Counters()
    }

    /// The loop's poller belongs to the loop thread; other threads only wake it.
    private let waker: PollerWaker
    private let state = Locked(State())

    init(waker: PollerWaker) { self.waker = waker }

    /// Queues `command` and wakes the loop. Returns false when the loop has already ended.
    /// The wake happens under the lock so it can never reach a poller the loop has closed.
    @discardableResult
    func send(_ command: ServerCommand) -> Bool {
        state.withLock { state in
            guard !state.loopExited else { return false }
            state.commands.append(command)
            waker.wake()
            return true
        }
    }

    func takeCommands() -> [ServerCommand] {
        state.withLock { state in
            defer { state.commands.removeAll() }
            return state.commands
        }
    }

    /// The loop is ending: refuse further commands and hand back any still queued.
    func markLoopExited() -> [ServerCommand] {
        state.withLock { state in
            state.loopExited = true
            defer { state.commands.removeAll() }
            return state.commands
        }
    }

    var counters: Counters { state.withLock { $0.counters } }

    func updateCounters(_ body: (inout Counters) -> Void) {
        state.withLock { body(&$0.counters) }
    }
}
