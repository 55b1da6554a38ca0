import Foundation
import Dispatch
import Contracts
import PushCore

/// `ServeOption.forwardToSimulator BUNDLE_ID`: writes each push FakeAPNs accepted as a `.apns` file
/// (the payload plus "Simulator Target Bundle", so it passes the `apns-file` contract) and
/// runs `xcrun simctl push booted BUNDLE_ID FILE`, so the app in the booted Simulator shows
/// it. Runs one push at a time off the request path; each result is logged. Without `xcrun`
/// on `PATH` (Linux, or macOS without Xcode) serve says so once at start-up and only writes
/// the files.
final class SimulatorForwarder: Sendable {
    let bundleID: String
    /// Where the `.apns` files go (a fresh temporary folder).
    let directory: URL
    /// `xcrun`'s path, or nil when `PATH` has none.
    let xcrun: String?
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
        xcrun = ChildProcess.find("xcrun", environment: environment)
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
                try Data(Self.simulatorFile(payload: payload, bundleID: bundleID)).write(to: file)
            } catch {
                report("cannot write \(file.path): \(error.localizedDescription)")
                return
            }
            guard let xcrun else {
                report("wrote \(file.lastPathComponent) (apns-id \(apnsID)); not pushed: no xcrun on PATH")
                return
            }
            let outcome = ChildProcess.run([xcrun, "simctl", "push", "booted", bundleID, file.path], environment: environment)
            let detail = outcome.error.trimmingCharacters(in: .whitespacesAndNewlines)
            report("xcrun simctl push booted \(bundleID) \(file.lastPathComponent) (apns-id \(apnsID))"
                   + (outcome.status == 0 ? "" : ": exit \(outcome.status)" + (detail.isEmpty ? "" : ": \(detail)")))
        }
    }

    /// The member the Simulator reads to pick the app (the `apns-file` contract requires it;
    /// `ServeDevelopmentTests` checks a forwarded file against that contract).
    static let targetBundleKey = "Simulator Target Bundle"

    /// The `.apns` file for `payload`: the payload's members plus "Simulator Target Bundle"
    /// (unless the payload names one), added before the closing brace so the rest stays
    /// byte for byte as sent.
    static func simulatorFile(payload: [UInt8], bundleID: String) -> [UInt8] {
        let key = targetBundleKey
        guard let document = try? JSONReader.parse(payload), case .object(let members) = document.value,
              !members.contains(where: { $0.key == key }),
              let close = payload.lastIndex(of: UInt8(ascii: "}")) else { return payload }
        let member = Array("\(JSONTreeWriter.quoted(key)):\(JSONTreeWriter.quoted(bundleID))".utf8)
        return Array(payload[..<close]) + (members.isEmpty ? member : Array(",".utf8) + member) + Array(payload[close...])
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
