import Foundation
import Contracts
import FakeSupport

/// Everything mutable in a FakeBackend, kept in one lock-protected box.
struct BackendStore {
    var devices = DeviceTable()
    /// Order id → its Live Activity's token.
    var liveActivities: [String: RegisteredLiveActivity] = [:]
    /// Activity push token → the order holding it: a token moving to another order is found
    /// without a scan.
    var orderByActivityToken: [String: String] = [:]
    /// Device token (lowercase) → the app's push-to-start token on it.
    var pushToStartTokens: [String: RegisteredPushToStart] = [:]
    var opens: [RecordedOpen] = []
    var opensCapacity: Int
    var opensDropped = 0
    /// `account NUL idempotency-key` → how many kept opens carry it: a repeat is found in O(1).
    var openKeys: [String: Int] = [:]
    var journal: BoundedRing<BackendJournalEntry>
    /// Requests per endpoint, by ``FakeBackend/Endpoint/index``: counted by index, not by hash.
    private var countsByEndpoint = [Int](repeating: 0, count: FakeBackend.Endpoint.allCases.count)
    var sequence: UInt64 = 0
    /// The fault plans in force: changed only through ``addFault(_:)``, ``removeFaults()``
    /// and ``drawFault(for:)``.
    private(set) var faults: ActiveFaults<BackendFault, FakeBackend.Endpoint>
    var isOffline = false
    var sessions: SessionTable
    var acceptsAnyBearer: Bool
    /// The conditions of pending waits, by the id ``FakeWaiters`` gave them: checked against
    /// a fresh snapshot after each change.
    var waiters: [UInt64: @Sendable (FakeBackendState) -> Bool] = [:]

    init(configuration: FakeBackend.Configuration) {
        journal = BoundedRing(capacity: configuration.journalCapacity)
        opensCapacity = max(1, configuration.opensCapacity)
        sessions = SessionTable(configuration.sessions)
        acceptsAnyBearer = configuration.acceptsAnyBearer
        faults = ActiveFaults(configuration.faults)
        isOffline = configuration.faults.contains { $0.fault == .offline }
    }

    var snapshot: FakeBackendState {
        var requestCounts: [FakeBackend.Endpoint: Int] = [:]
        for endpoint in FakeBackend.Endpoint.allCases where countsByEndpoint[endpoint.index] > 0 {
            requestCounts[endpoint] = countsByEndpoint[endpoint.index]
        }
        return FakeBackendState(devices: devices.byToken, liveActivities: liveActivities, pushToStartTokens: pushToStartTokens,
                         opens: opens, requestCounts: requestCounts,
                         droppedJournalEntries: journal.dropped, isOffline: isOffline, journalBuffer: journal)
    }

    /// Whether an open with this idempotency key was already reported by this account.
    func isRepeatOpen(key: String?, account: String) -> Bool {
        guard let key else { return false }
        return openKeys[Self.openKey(key, account: account)] != nil
    }

    /// Keeps an accepted "opened" report; past `opensCapacity` the oldest go (in batches, so
    /// appending stays amortised O(1)) and are counted in `opensDropped`.
    mutating func recordOpen(_ open: RecordedOpen) {
        opens.append(open)
        if let key = open.idempotencyKey { openKeys[Self.openKey(key, account: open.account), default: 0] += 1 }
        let slack = max(1, opensCapacity / 16)
        guard opens.count > opensCapacity + slack else { return }
        let excess = opens.count - opensCapacity
        for dropped in opens[..<excess] {
            guard let key = dropped.idempotencyKey else { continue }
            let name = Self.openKey(key, account: dropped.account)
            if let count = openKeys[name], count > 1 { openKeys[name] = count - 1 } else { openKeys[name] = nil }
        }
        opens.removeFirst(excess)
        opensDropped &+= excess
    }

    /// Forgets every open.
    mutating func removeOpens() {
        opens.removeAll()
        openKeys.removeAll()
        opensDropped = 0
    }

    private static func openKey(_ key: String, account: String) -> String { account + "\u{0}" + key }

    /// The account a request's `Authorization` header names, or why there is none.
    /// `header` is the field's value as bytes (nil when absent): the same answer as for the
    /// value as a String (`headers["Authorization"]`), without making one on the way.
    func account(forAuthorization header: UnsafeBufferPointer<UInt8>?) -> Result<String, AuthFailure> {
        guard let header else { return .failure(.missing) }
        guard let range = Self.bearerTokenRange(header) else { return .failure(.notBearer) }
        guard !range.isEmpty else { return .failure(.missing) }
        let token = UnsafeBufferPointer(rebasing: header[range])
        if let account = sessions.account(forBearer: token) { return .success(account) }
        if acceptsAnyBearer { return .success(String(decoding: token, as: UTF8.self)) }
        return .failure(.unknown)
    }

    /// The token of `Bearer <token>` (scheme case-insensitive, spaces trimmed), "" for a bare
    /// `Bearer`, nil for another scheme.
    static func bearerToken(_ header: String) -> String? {
        var header = header
        return header.withUTF8 { bytes in
            bearerTokenRange(bytes).map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
        }
    }

    /// Where the token of `Bearer <token>` sits in the header's bytes (empty for a bare
    /// `Bearer`), nil for another scheme. This runs for every request.
    static func bearerTokenRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let space = UInt8(ascii: " ")
        var start = 0
        while start < bytes.count, bytes[start] == space { start += 1 }
        var end = bytes.count
        while end > start, bytes[end - 1] == space { end -= 1 }
        let scheme: StaticString = "bearer"
        let schemeBytes = scheme.utf8Start
        var cursor = start
        for offset in 0..<scheme.utf8CodeUnitCount {
            guard cursor < end, bytes[cursor] | 0x20 == schemeBytes[offset] else { return nil }
            cursor += 1
        }
        if cursor == end { return end..<end }
        guard bytes[cursor] == space else { return nil }
        while cursor < end, bytes[cursor] == space { cursor += 1 }
        return cursor..<end
    }

    enum AuthFailure: Error {
        case missing, notBearer, unknown

        /// The journal's detail for a 401: which bearer check failed.
        var journalDetail: String {
            switch self {
            case .missing: return "no Authorization header"
            case .notBearer: return "Authorization is not a bearer token"
            case .unknown: return "the bearer token names no session"
            }
        }
    }

    /// Forgets every request count.
    mutating func removeRequestCounts() {
        for index in countsByEndpoint.indices { countsByEndpoint[index] = 0 }
    }

    /// Picks the fault for a request to `endpoint`: the first plan that strikes. Spent plans go.
    mutating func drawFault(for endpoint: FakeBackend.Endpoint) -> BackendFault? {
        faults.take(for: endpoint) { $0 == .offline }  // offline is server-wide: setOffline(_:)
    }

    /// Puts `plan` in force, after those already in force.
    mutating func addFault(_ plan: BackendFaultPlan) {
        faults.add(plan)
    }

    /// Takes every fault plan out of force.
    mutating func removeFaults() {
        faults.removeAll()
    }

    /// Appends to the journal and counts the request; returns the entry.
    mutating func record(time: Date, endpoint: FakeBackend.Endpoint?, method: String, path: String,
                         account: String?, status: Int?, violations: [Violation], fault: BackendFault?,
                         detail: String? = nil, serverName: String? = nil, hexTokenStart: Int? = nil) -> BackendJournalEntry {
        sequence &+= 1
        var entry = BackendJournalEntry(sequence: sequence, time: time, endpoint: endpoint, method: method, path: path,
                                 account: account, status: status, violations: violations, fault: fault, detail: detail,
                                 serverName: serverName)
        entry.hexTokenStart = hexTokenStart
        if let endpoint { countsByEndpoint[endpoint.index] &+= 1 }
        journal.append(entry)
        return entry
    }
}

/// Bearer → account, as configured and changed since, with what the handler looks a bearer
/// up in on every request: the pairs as bytes, compared without making or hashing a String.
struct SessionTable {
    /// Bearer → account.
    private(set) var accounts: [String: String]
    /// Every pair, the bearer as bytes: while there are at most ``maxScanned`` and every
    /// bearer is ASCII (nil otherwise; then `accounts` answers). A non-ASCII bearer can equal
    /// an ASCII token as a String (U+212A KELVIN SIGN is "K"), which bytes would not see.
    private var scanned: [(bearer: [UInt8], account: String)]?

    /// The most pairs compared one by one.
    static let maxScanned = 16

    init(_ accounts: [String: String]) {
        self.accounts = accounts
        index()
    }

    /// The account of `bearer`; setting it adds, changes or (nil) removes the session.
    subscript(bearer bearer: String) -> String? {
        get { accounts[bearer] }
        set {
            accounts[bearer] = newValue
            index()
        }
    }

    /// `accounts[String(decoding: token, as: UTF8.self)]`, without the String for an ASCII
    /// token while the pairs are ``scanned``.
    func account(forBearer token: UnsafeBufferPointer<UInt8>) -> String? {
        if let scanned {
            var ascii: UInt8 = 0
            for byte in token { ascii |= byte }
            if ascii < 0x80 {
                for index in scanned.indices where scanned[index].bearer.count == token.count {
                    let equal = scanned[index].bearer.withUnsafeBufferPointer { bearer in
                        guard let bearerBytes = bearer.baseAddress, let tokenBytes = token.baseAddress else { return true }
                        return memcmp(bearerBytes, tokenBytes, token.count) == 0
                    }
                    if equal { return scanned[index].account }
                }
                return nil
            }
        }
        return accounts[String(decoding: token, as: UTF8.self)]
    }

    private mutating func index() {
        guard accounts.count <= Self.maxScanned,
              accounts.keys.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else {
            scanned = nil
            return
        }
        scanned = accounts.map { (Array($0.key.utf8), $0.value) }
    }
}
