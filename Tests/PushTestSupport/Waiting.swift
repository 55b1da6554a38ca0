import Foundation

/// Waits for `condition` to hold, checking every millisecond, up to `timeout` seconds.
/// Returns whether it held: tests wait on conditions, never on fixed sleeps.
package func eventually(timeout: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { return false }
        usleep(1_000)
    }
    return true
}

/// Runs blocking socket work on a thread of its own and awaits the result, so a test
/// waiting seconds for a slow client's timeout does not hold one of the cooperative
/// pool's few threads (two on a two-core machine) that other suites' `await`s need.
package func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            do {
                continuation.resume(returning: try work())
            } catch {
                continuation.resume(throwing: error)
            }
        }.start()
    }
}

package func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
