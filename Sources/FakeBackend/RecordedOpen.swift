import Foundation

/// One `POST /v1/notifications/{id}/opened` the backend accepted.
///
/// Every report is kept, duplicates included, so a test can assert that a client
/// reports each notification exactly once.
///
/// A report may carry an `Idempotency-Key` header: a correct backend counts a repeat of
/// the same key from the same account (a client's retry after a lost response) as the
/// same open. The fake keeps the repeat here with ``isRepeat`` set, and
/// ``FakeBackend/countedOpens(for:)`` leaves it out.
public struct RecordedOpen: Sendable, Hashable, Codable {
    /// The notification id from the path.
    public var notificationID: String
    /// The account that reported it.
    public var account: String
    /// `open`, `trackOrder` or `seeOffer`.
    public var action: String
    /// When the report arrived, on the backend's clock.
    public var time: Date
    /// The journal sequence number of the request that reported it.
    public var sequence: UInt64
    /// The request's `Idempotency-Key` header, if it had one.
    public var idempotencyKey: String?
    /// True when an earlier report from the same account had the same idempotency key:
    /// a retry, not a new open.
    public var isRepeat: Bool

    /// A recorded open from its parts.
    public init(notificationID: String, account: String, action: String, time: Date, sequence: UInt64,
                idempotencyKey: String? = nil, isRepeat: Bool = false) {
        self.notificationID = notificationID
        self.account = account
        self.action = action
        self.time = time
        self.sequence = sequence
        self.idempotencyKey = idempotencyKey
        self.isRepeat = isRepeat
    }
}
