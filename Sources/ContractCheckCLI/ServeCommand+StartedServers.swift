import FakeAPNs
import FakeBackend
import FakeSupport

extension ServeCommand {
    /// What `serve` has started so far, stopped through one path: ``stop()`` stops the admin
    /// API first (no new admin call reaches a fake that is stopping), then FakeBackend, then
    /// FakeAPNs, each at most once, so the error paths and the signal path share it.
    final class StartedServers {
        var admin: AdminServer?
        var backend: FakeBackend?
        var apns: FakeAPNs?

        /// Stops what is running and forgets it; a second call does nothing.
        func stop() {
            admin?.stopNow()
            backend?.stopListening()
            apns?.stopListening()
            (admin, backend, apns) = (nil, nil, nil)
        }
    }
}
