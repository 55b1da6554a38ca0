import Foundation
import Contracts
import FakeSupport

/// One request the backend received, whatever became of it.
///
/// Its values are the members of ``Fields``, read and set as the entry's own
/// (`entry.status`, `entry.path`). They are kept in one box, so a copy (for every reader of
/// the journal) is one retain; setting one puts the changed values in a new box.
///
/// In JSON (`GET /journal`) it has the members FakeAPNs' journal entries share: `sequence`,
/// `time` (millisecond ISO 8601, UTC), `method`, `path`, `status`, `detail`, `fault`,
/// `violations` (`pointer`, `rule`, `severity`, `message`, `line`, `column`) and, over TLS,
/// `serverName`.
@dynamicMemberLookup
public struct BackendJournalEntry: Sendable, Hashable, Codable {
    /// The values of a journal entry (equality and hashing are theirs, member by member).
    public struct Fields: Sendable, Hashable {
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
        /// Why, in words, when the status alone does not say (which bearer check failed, why a
        /// content type or body was refused).
        public var detail: String?
        /// The host name the client put in TLS SNI, as sent; nil on a plain port and for a TLS
        /// client that sent none.
        public var serverName: String?
    }

    /// The entry's values, in one box (an entry is copied for every reader of the journal).
    @usableFromInline var storage: ValueBox<Fields>

    /// Where the path's token starts, when the handler found the token to end the path and to
    /// be 1 to 64 hex digits: the log line then shortens it without looking for it again. Not
    /// a value of the entry (equality, hashing and JSON ignore it).
    package var hexTokenStart: Int?

    /// One of the entry's values, e.g. `entry.status`.
    @inlinable
    public subscript<Value>(dynamicMember member: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.value[keyPath: member] }
        set { storage = storage.setting(member, to: newValue) }
    }

    /// An entry from its parts (for tests and tools that build journals).
    public init(sequence: UInt64, time: Date, endpoint: FakeBackend.Endpoint?, method: String, path: String,
                account: String?, status: Int?, violations: [Violation], fault: BackendFault?, detail: String? = nil,
                serverName: String? = nil) {
        storage = ValueBox(Fields(sequence: sequence, time: time, endpoint: endpoint, method: method, path: path,
                                 account: account, status: status, violations: violations, fault: fault, detail: detail,
                                 serverName: serverName))
    }

    public static func == (lhs: BackendJournalEntry, rhs: BackendJournalEntry) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.value == rhs.storage.value
    }

    public func hash(into hasher: inout Hasher) {
        storage.value.hash(into: &hasher)
    }

    private enum CodingKeys: String, CodingKey {
        case sequence, time, endpoint, method, path, account, status, violations, fault, detail, serverName
    }

    /// Reads an entry as `GET /journal` writes it (violations as `ViolationRecord`s).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(sequence: try container.decode(UInt64.self, forKey: .sequence),
                  time: try container.decode(Date.self, forKey: .time),
                  endpoint: try container.decodeIfPresent(FakeBackend.Endpoint.self, forKey: .endpoint),
                  method: try container.decode(String.self, forKey: .method),
                  path: try container.decode(String.self, forKey: .path),
                  account: try container.decodeIfPresent(String.self, forKey: .account),
                  status: try container.decodeIfPresent(Int.self, forKey: .status),
                  violations: try container.decode([ViolationRecord].self, forKey: .violations).map(\.violation),
                  fault: try container.decodeIfPresent(BackendFault.self, forKey: .fault),
                  detail: try container.decodeIfPresent(String.self, forKey: .detail),
                  serverName: try container.decodeIfPresent(String.self, forKey: .serverName))
    }

    /// Violations are written as `ViolationRecord`s, the one shape of both fakes' JSON.
    public func encode(to encoder: any Encoder) throws {
        let fields = storage.value
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(fields.sequence, forKey: .sequence)
        try container.encode(fields.time, forKey: .time)
        try container.encodeIfPresent(fields.endpoint, forKey: .endpoint)
        try container.encode(fields.method, forKey: .method)
        try container.encode(fields.path, forKey: .path)
        try container.encodeIfPresent(fields.account, forKey: .account)
        try container.encodeIfPresent(fields.status, forKey: .status)
        try container.encode(fields.violations.map(ViolationRecord.init(journaling:)), forKey: .violations)
        try container.encodeIfPresent(fields.fault, forKey: .fault)
        try container.encodeIfPresent(fields.detail, forKey: .detail)
        try container.encodeIfPresent(fields.serverName, forKey: .serverName)
    }

    /// `PUT /v1/devices/0a1b2c3d…e8f9 204 account=a1 violations=0`: the `serve` log line. The
    /// path is the one requested (device tokens shortened and lowercased as FakeAPNs' lines
    /// do them), then the status, account, violation count, fault and the ``Fields/detail``.
    public var logLine: String {
        var line: [UInt8] = []
        appendLogLine(to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// ``logLine``, appended to a line being built (`serve` writes one per request).
    package func appendLogLine(to line: inout [UInt8]) {
        LineCursor.append(to: &line, capacity: logLineCapacity) { writeLogLine(to: &$0) }
    }

    /// ``logLine``, written through a cursor (`serve`'s line, with its time before it).
    package func writeLogLine(to line: inout LineCursor) {
        // Each value read where it lies, not the whole of them copied (a retain and a
        // release of each String and array the entry holds, for every line).
        let fields = storage
        line.write(method: fields.value.method, path: fields.value.path, hexFrom: hexTokenStart,
                   status: fields.value.status)
        line.write(literal: " account=")
        line.write(utf8: fields.value.account ?? "-")
        line.write(literal: " violations=")
        line.write(decimal: fields.value.violations.count)
        if let fault = fields.value.fault { line.write(utf8: " fault=\(fault)") }
        line.write(detail: fields.value.detail)
    }

    /// Room enough for ``writeLogLine(to:)`` unless a fault is named (then it measures again).
    package var logLineCapacity: Int {
        let fields = storage
        return LineCursor.capacity(method: fields.value.method, path: fields.value.path) + 42
            + (fields.value.account?.utf8.count ?? 1) + (fields.value.detail?.utf8.count ?? 0)
    }
}

extension BackendJournalEntry: CustomReflectable {
    /// The values, as a struct with these stored properties would show them (`print`,
    /// `dump`, test failure messages), not the box they are kept in.
    public var customMirror: Mirror {
        Mirror(self, children: Mirror(reflecting: storage.value).children, displayStyle: .struct)
    }
}
