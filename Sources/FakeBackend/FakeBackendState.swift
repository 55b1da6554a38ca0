import Foundation
import FakeSupport

/// A snapshot of everything the backend holds, for assertions and `waitFor` conditions.
/// A value: it never changes after it is taken.
public struct FakeBackendState: Sendable {
    /// Registered tokens (lowercase) and who holds them.
    public var devices: [String: RegisteredDevice]
    /// Order id → the push token of its Live Activity (registered, not yet ended).
    public var liveActivities: [String: RegisteredLiveActivity]
    /// Device token (lowercase) → the app's push-to-start token on that device.
    public var pushToStartTokens: [String: RegisteredPushToStart]
    /// Every accepted "opened" report in arrival order, duplicates included.
    public var opens: [RecordedOpen]
    /// Requests per endpoint since start (or reset), whatever their outcome, including any
    /// the journal has since dropped.
    public var requestCounts: [FakeBackend.Endpoint: Int]
    /// How many journal entries were dropped because the journal was full.
    public var droppedJournalEntries: Int
    /// ``droppedJournalEntries`` under its former name.
    @available(*, deprecated, renamed: "droppedJournalEntries")
    public var journalDropped: Int {
        get { droppedJournalEntries }
        set { droppedJournalEntries = newValue }
    }
    /// True while the backend refuses connections.
    public var isOffline: Bool
    var journalBuffer: BoundedRing<BackendJournalEntry>

    /// Every request, oldest first (the newest `journalCapacity` of them).
    public var journal: [BackendJournalEntry] { journalBuffer.elements }

    /// The reports for one notification id, duplicates included.
    public func opens(for notificationID: String) -> [RecordedOpen] {
        opens.filter { $0.notificationID == notificationID }
    }

    /// How many requests reached `endpoint`.
    public func requestCount(_ endpoint: FakeBackend.Endpoint) -> Int {
        requestCounts[endpoint] ?? 0
    }

    /// The device record for a token, compared case-insensitively.
    public func device(token: String) -> RegisteredDevice? {
        devices[token.lowercased()]
    }

    /// The Live Activity registered for `orderId` (order ids are case-sensitive), if any.
    public func liveActivity(order orderId: String) -> RegisteredLiveActivity? {
        liveActivities[orderId]
    }

    /// The push-to-start token registered for a device token, compared case-insensitively.
    public func pushToStart(device token: String) -> RegisteredPushToStart? {
        pushToStartTokens[token.lowercased()]
    }

    /// One paragraph for error messages: counts and the last few requests.
    public var summary: String {
        let counts = FakeBackend.Endpoint.allCases.map { "\($0)=\(requestCount($0))" }.joined(separator: " ")
        let recent = journal.suffix(5).map { "  #\($0.sequence) \($0.logLine)" }
        var text = "\(devices.count) device(s), \(liveActivities.count) live activit\(liveActivities.count == 1 ? "y" : "ies"), "
            + "\(pushToStartTokens.count) push-to-start token(s), \(opens.count) open(s), requests: \(counts)"
        if isOffline { text += ", offline" }
        if !recent.isEmpty { text += "\nlast requests:\n" + recent.joined(separator: "\n") }
        return text
    }
}
