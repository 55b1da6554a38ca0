import Foundation

/// What FakeBackend and FakeAPNs have in common, under one name and one shape: learn one
/// fake and you know these operations of the other.
///
/// A test helper can take either fake:
///
/// ```swift
/// func expectQuiet(_ fake: some PushFake) {
///     #expect(fake.journal.isEmpty && fake.droppedJournalEntries == 0)
/// }
/// ```
public protocol PushFake: AnyObject, Sendable {
    /// What the fake can do to a request (`BackendFault`, `APNsFault`).
    associatedtype Fault: Sendable & Hashable
    /// What a fault plan can be limited to (an endpoint, a device token).
    associatedtype FaultTarget: Sendable & Hashable
    /// One request as the journal keeps it.
    associatedtype JournalEntry: Sendable
    /// The fake's fault plan: `BackendFaultPlan` or `APNsFaultPlan`, one generic type.
    typealias Plan = FaultPlan<Fault, FaultTarget>

    /// The port it listens on (0 before it listens and after it stops).
    var port: UInt16 { get }
    /// `http://127.0.0.1:PORT` (or `https://` with TLS): where a client sends its requests.
    var baseURL: URL { get }
    /// Stops listening and fails pending waits; the port is free on return.
    func stop() async

    /// Puts a fault plan in force; plans are tried in the order added, the first that strikes wins.
    func addFault(_ plan: Plan)
    /// The plans still in force, in order; a `next(count:)` plan shows what it has left.
    var faults: [Plan] { get }
    /// Takes every plan out of force and comes back online.
    /// - Returns: nil, or why the fake could not listen again.
    @discardableResult func clearFaults() async -> PushFakeError?

    /// Refuses new connections (`true`) or listens again (`false`) on the same port.
    /// - Returns: nil, or `PushFakeError.cannotListen` when the port could not be taken again.
    @discardableResult func setOffline(_ offline: Bool) async -> PushFakeError?
    /// True while it refuses connections.
    var isOffline: Bool { get }

    /// Every request still in the journal, oldest first.
    var journal: [JournalEntry] { get }
    /// How many journal entries were dropped to keep the journal within its capacity.
    var droppedJournalEntries: Int { get }
    /// Waits until `count` requests matching `predicate` have arrived (those in the journal
    /// count) and returns them.
    /// - Throws: `PushFakeError.timedOut` after `timeout`; `PushFakeError.cancelled` when
    ///   the task is cancelled or the fake stops.
    @discardableResult
    func waitForRequests(count: Int, timeout: Duration, where predicate: @escaping @Sendable (JournalEntry) -> Bool)
        async throws -> [JournalEntry]

    /// Back to the state at start (journal, faults, what clients registered), online again.
    /// - Returns: nil, or why it could not listen again.
    @discardableResult func reset() async -> PushFakeError?
}
