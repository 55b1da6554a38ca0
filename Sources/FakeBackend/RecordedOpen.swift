import Foundation

/// One `POST /v1/notifications/{id}/opened` the backend accepted.
///
/// Every report is kept, duplicates included, so a test can assert that a client
/// reports each notification exactly once.
public struct RecordedOpen: Sendable, Hashable, Codable {
    /// The notification id from the path.
    public var notificationID: String
    /// The account that reported it.
    public var account: String
    /// `open`, `trackOrder` or `seeOffer`.
    public var action: String
    public var time: Date
    /// The journal sequence number of the request that reported it.
    public var sequence: UInt64

    public init(notificationID: String, account: String, action: String, time: Date, sequence: UInt64) {
        self.notificationID = notificationID
        self.account = account
        self.action = action
        self.time = time
        self.sequence = sequence
    }
}
