#if canImport(Glibc)
import Glibc
import CLoopbackShim
#elseif canImport(Darwin)
import Darwin
#endif

/// A joinable POSIX thread that runs a server's loop. `join` is how `stop()` knows that
/// no thread of the server is left.
///
/// `Sendable` because it holds the `pthread_t` as its bits: an integer on Glibc already, a
/// pointer on Darwin (not `Sendable` there). The handle never changes after ``spawn(_:)``,
/// and `pthread_join`, `pthread_detach` and `pthread_equal` may be called from any thread.
struct LoopThread: Sendable {
    /// The name every server loop thread carries (at most 15 bytes on Linux).
    static let threadName = "LoopbackHTTP"

    private let bits: UInt
    private var handle: pthread_t? { pthreadFromBits(bits) }

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
        return LoopThread(bits: pthreadBits(created))
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
    var isCurrent: Bool {
        guard let handle else { return false }
        return pthread_equal(pthread_self(), handle) != 0
    }

    /// Waits for the thread to end.
    func join() {
        guard let handle else { return }
        _ = pthread_join(handle, nil)
    }

    /// Lets the thread end on its own (used when it stops itself).
    func detach() {
        guard let handle else { return }
        _ = pthread_detach(handle)
    }
}

#if canImport(Darwin)
/// Darwin: `pthread_t` is `UnsafeMutablePointer<_opaque_pthread_t>`; kept as its address.
private func pthreadBits(_ thread: pthread_t) -> UInt { UInt(bitPattern: thread) }
private func pthreadFromBits(_ bits: UInt) -> pthread_t? { pthread_t(bitPattern: bits) }
#else
/// Glibc: `pthread_t` is `unsigned long`.
private func pthreadBits(_ thread: pthread_t) -> UInt { UInt(thread) }
private func pthreadFromBits(_ bits: UInt) -> pthread_t? { pthread_t(bits) }
#endif

private func loopThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    LoopThread.runBody(context)
    return nil
}
