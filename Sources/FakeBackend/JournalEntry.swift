import Foundation
import Contracts

/// One request the backend received, whatever became of it.
public struct JournalEntry: Sendable, Hashable, Codable {
    /// 1, 2, 3… in arrival order; never reused, even after entries are dropped.
    public var sequence: UInt64
    public var time: Date
    /// The endpoint, or nil for a path the backend does not serve (404/405).
    public var endpoint: FakeBackend.Endpoint?
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

/// A bounded journal: a ring buffer that drops the oldest entry when full and counts drops.
struct JournalBuffer: Sendable {
    private var storage: [JournalEntry] = []
    private var head = 0
    private(set) var capacity: Int
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func append(_ entry: JournalEntry) {
        if storage.count < capacity {
            storage.append(entry)
        } else {
            storage[head] = entry
            head = (head + 1) % capacity
            dropped &+= 1
        }
    }

    /// Oldest first.
    var entries: [JournalEntry] {
        if head == 0 { return storage }
        return Array(storage[head...] + storage[..<head])
    }

    var count: Int { storage.count }

    mutating func removeAll() {
        storage.removeAll()
        head = 0
        dropped = 0
    }
}
