import Foundation

/// Card 7: holds taps until the UI takes them, drops repeats by notification id, and
/// reports each open with `POST /v1/notifications/{id}/opened`.
///
/// Every attempt of one report carries the same `Idempotency-Key`, so a retry after a lost
/// response is counted as the same open by the backend.
public actor RemoteNotificationInboxRepository: NotificationInbox, NotificationOpens, TapSink {
    private let http: any HTTPClient
    private let session: Session
    private let retry: RetryPolicy
    private let makeIdempotencyKey: @Sendable () -> String

    private var presented = RecentIDs()
    private var tapped = RecentIDs()
    private var reported = RecentIDs()
    /// Taps no subscriber has taken yet (a cold-launch tap before the UI exists).
    private var waiting: [NotificationTap] = []
    private var subscribers: [UUID: AsyncStream<NotificationTap>.Continuation] = [:]
    private var reports: [UUID: Task<Void, Never>] = [:]

    /// An inbox reporting opens with the session's bearer.
    /// - Parameters:
    ///   - http: the backend.
    ///   - session: who is signed in; an open is reported with its bearer.
    ///   - retry: attempts, backoff and how waits are waited.
    ///   - makeIdempotencyKey: one key per report; a UUID by default.
    public init(http: any HTTPClient, session: Session, retry: RetryPolicy = RetryPolicy(),
                makeIdempotencyKey: @escaping @Sendable () -> String = { UUID().uuidString }) {
        self.http = http
        self.session = session
        self.retry = retry
        self.makeIdempotencyKey = makeIdempotencyKey
    }

    // MARK: TapSink

    public func willPresent(_ id: NotificationID) -> Bool {
        presented.insert(id)
    }

    public func deliver(_ tap: NotificationTap) -> Bool {
        guard tapped.insert(tap.id) else { return false }
        if subscribers.isEmpty {
            waiting.append(tap)
        } else {
            for continuation in subscribers.values { continuation.yield(tap) }
        }
        return true
    }

    // MARK: NotificationInbox

    public func taps() -> AsyncStream<NotificationTap> {
        let (stream, continuation) = AsyncStream.makeStream(of: NotificationTap.self)
        let id = UUID()
        for tap in waiting { continuation.yield(tap) }
        waiting = []
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    // MARK: NotificationOpens

    public func markOpened(_ tap: NotificationTap) async {
        guard let credentials = await session.current, reported.insert(tap.id) else { return }
        let request = HTTPRequest(
            method: "POST", path: "v1/notifications/\(tap.id.rawValue)/opened",
            headerFields: ["Authorization": credentials.authorization, "Content-Type": "application/json",
                           "Idempotency-Key": makeIdempotencyKey()],
            body: Data(#"{"action":"\#(tap.action.rawValue)"}"#.utf8))
        let id = UUID()
        let http = self.http, retry = self.retry
        // Its own task: the report outlives a caller that stops waiting.
        reports[id] = Task {
            _ = try? await http.send(request, retrying: retry)
            self.finishReport(id)
        }
    }

    private func finishReport(_ id: UUID) {
        reports[id] = nil
    }

    /// Returns once every report started so far has landed or been given up; an app calls
    /// it before it lets iOS suspend it, a test before it checks the backend.
    public func reportsSettled() async {
        while let report = reports.values.first {
            await report.value
        }
    }
}
