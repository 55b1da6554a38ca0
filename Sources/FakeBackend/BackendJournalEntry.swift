import Foundation
import Contracts

/// One request the backend received, whatever became of it.
public struct BackendJournalEntry: Sendable, Hashable, Codable {
    /// 1, 2, 3… in arrival order; never reused, even after entries are dropped.
    public var sequence: UInt64
    /// When the request arrived, on the backend's clock.
    public var time: Date
    /// The endpoint, or nil for a path the backend does not serve (404/405).
    public var endpoint: FakeBackend.Endpoint?
    /// The request's method.
    public var method: String
    /// The request target as sent.
    public var path: String
    /// The account named by the bearer, or nil when it was missing or unknown.
    public var account: String?
    /// The status of the response the backend produced, or nil when it produced none
    /// (offline, hang, reset faults).
    public var status: Int?
    /// Contract violations found in the request (the reason for a 400).
    public var violations: [Violation]
    /// The fault applied to this request, if any.
    public var fault: BackendFault?

    /// An entry from its parts (for tests and tools that build journals).
    public init(sequence: UInt64, time: Date, endpoint: FakeBackend.Endpoint?, method: String, path: String,
                account: String?, status: Int?, violations: [Violation], fault: BackendFault?) {
        self.sequence = sequence
        self.time = time
        self.endpoint = endpoint
        self.method = method
        self.path = path
        self.account = account
        self.status = status
        self.violations = violations
        self.fault = fault
    }

    /// `PUT /v1/devices/ab12 204 account=a1 violations=0 fault=-`: the `serve` log line.
    public var logLine: String {
        let statusText = status.map(String.init) ?? "---"
        let faultText = fault.map { " fault=\($0)" } ?? ""
        return "\(method) \(path) \(statusText) account=\(account ?? "-") violations=\(violations.count)\(faultText)"
    }
}
