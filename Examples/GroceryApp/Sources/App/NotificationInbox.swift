/// The root view model's promise (seed 000, card 7): the taps to route.
public protocol NotificationInbox: Sendable {
    /// Replays waiting taps on subscribe, then new ones. One stream per caller; it finishes
    /// when the caller's task is cancelled.
    func taps() async -> AsyncStream<NotificationTap>
}

/// The open use case's promise: opens reported to the backend.
public protocol NotificationOpens: Sendable {
    /// Reports the open of `tap` once per notification id. Returns once the report is under
    /// way; it is not cancelled with the caller: it lands or is dropped after a few
    /// retries. Never throws.
    func markOpened(_ tap: NotificationTap) async
}

/// The notification engine's side of the inbox: what iOS delivered and what the user tapped.
public protocol TapSink: Sendable {
    /// iOS is about to present the push with `id` while the app runs.
    /// - Returns: true the first time, false for a repeat (APNs may deliver twice).
    func willPresent(_ id: NotificationID) async -> Bool

    /// The user tapped a notification.
    /// - Returns: true when the tap is queued for the root, false for a repeat of an id
    ///   already tapped.
    func deliver(_ tap: NotificationTap) async -> Bool
}
