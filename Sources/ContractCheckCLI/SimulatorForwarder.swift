import Foundation
import Dispatch
import LoopbackHTTP

/// `--forward-to-simulator BUNDLE_ID`: writes each push FakeAPNs accepted as a `.apns` file
/// and runs `xcrun simctl push booted BUNDLE_ID FILE`, so the app in the booted Simulator
/// shows it. Runs one push at a time off the request path; each result is logged.
final class SimulatorForwarder: Sendable {
    let bundleID: String
    /// Where the `.apns` files go (a fresh temporary folder).
    let directory: URL
    private let environment: [String: String]
    private let queue = DispatchQueue(label: "contract-check.serve.simulator")
    private let report: @Sendable (String) -> Void
    private let counter = Locked(0)

    /// - Parameters:
    ///   - environment: the process environment; `xcrun` is looked up on its `PATH`.
    ///   - report: called with one line per forwarded push.
    init(bundleID: String, environment: [String: String], report: @escaping @Sendable (String) -> Void) throws {
        self.bundleID = bundleID
        self.environment = environment
        self.report = report
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("contract-check-simulator-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Forwards one accepted push's payload (the request body, a JSON object).
    func forward(payload: [UInt8], apnsID: String) {
        let number = counter.withLock { count -> Int in
            count += 1
            return count
        }
        queue.async { [self] in
            let file = directory.appendingPathComponent("push-\(number).apns")
            do {
                try Data(payload).write(to: file)
            } catch {
                report("cannot write \(file.path): \(error)")
                return
            }
            let outcome = ChildProcess.run(["xcrun", "simctl", "push", "booted", bundleID, file.path], environment: environment)
            if outcome.status == 127 {
                report(outcome.error.isEmpty ? "cannot run xcrun" : outcome.error.trimmingCharacters(in: .whitespacesAndNewlines))
            } else {
                report("xcrun simctl push booted \(bundleID) \(file.lastPathComponent) (apns-id \(apnsID))"
                       + (outcome.status == 0 ? "" : ": exit \(outcome.status)"))
            }
        }
    }

    /// Waits for the pushes handed over so far.
    func drain() {
        queue.sync {}
    }

    /// Removes the `.apns` files.
    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }
}
