extension FakeBackend {
    /// The opens a correct backend counts for one notification id: every report except a
    /// repeat of an earlier report's `Idempotency-Key` from the same account (a client's
    /// retry after a lost response). ``opens(for:)`` still lists every report.
    public func countedOpens(for notificationID: String) -> [RecordedOpen] {
        state.countedOpens(for: notificationID)
    }
}

extension FakeBackendState {
    /// The opens a correct backend counts for one notification id: repeats of an
    /// `Idempotency-Key` left out. See ``FakeBackend/countedOpens(for:)``.
    public func countedOpens(for notificationID: String) -> [RecordedOpen] {
        opens.filter { $0.notificationID == notificationID && !$0.isRepeat }
    }
}
