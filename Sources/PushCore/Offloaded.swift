import Dispatch

/// Runs `body`, which may block (a socket command waited for, a join), on a Dispatch thread
/// while the calling task is suspended, so no thread of Swift's cooperative pool blocks.
package func offloaded<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
        DispatchQueue.global().async {
            continuation.resume(returning: body())
        }
    }
}
