#if canImport(Glibc)
import Glibc
import CLoopbackShim
#elseif canImport(Darwin)
import Darwin
#endif

/// A joinable POSIX thread that runs a server's loop. `join` is how `stop()` knows that
/// no thread of the server is left.
struct LoopThread {
    /// The name every server loop thread carries (at most 15 bytes on Linux).
    static let threadName = "LoopbackHTTP"

    private let handle: pthread_t

    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts a thread running `body`.
    /// - Throws: ``SystemError`` with pthread_create's error code.
    /// `body` is `sending`: what it captures (the loop's poller) moves to the new thread
    /// and is not touched by the caller again.
    static func spawn(_ body: sending @escaping () -> Void) throws(SystemError) -> LoopThread {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t? = nil  // Darwin: pthread_t is a pointer; pthread_create fills a `pthread_t?`
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, { loopThreadEntry($0) }, context)
        let created: pthread_t? = thread
        guard result == 0, let created else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw SystemError(operation: "pthread_create", errno: result)
        }
        return LoopThread(handle: created)
    }

    fileprivate static func runBody(_ context: UnsafeMutableRawPointer?) {
        guard let context else { return }
        let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
        // Named, so a debugger or /proc/self/task/*/comm shows which threads are servers.
        #if canImport(Glibc)
        _ = cls_set_thread_name(LoopThread.threadName)
        #else
        _ = pthread_setname_np(LoopThread.threadName)
        #endif
        body.run()
    }

    /// True when called on this thread.
    var isCurrent: Bool { pthread_equal(pthread_self(), handle) != 0 }

    /// Waits for the thread to end.
    func join() { _ = pthread_join(handle, nil) }

    /// Lets the thread end on its own (used when it stops itself).
    func detach() { _ = pthread_detach(handle) }
}

private func loopThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    LoopThread.runBody(context)
    return nil
}
