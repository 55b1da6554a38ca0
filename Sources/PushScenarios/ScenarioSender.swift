import Contracts

/// The backend's side of a scenario: an adapter over your APNs client (the code that sends
/// pushes), pointed at ``ScenarioEnvironment/apnsURL`` with the environment's key.
///
/// The scenario tells it which device tokens the backend knows and asks it to send; it then
/// reads FakeAPNs' journal and the simulated device to see what the sender did.
public protocol ScenarioSender: Sendable {
    /// The backend learnt (again) that `token` (lowercase hex) belongs to a signed-in
    /// device: from now on a push for it should be sent.
    func tokenRegistered(_ token: String) async

    /// Sends `payload` to `token` with push type `alert` and topic
    /// ``ScenarioEnvironment/topic``, and returns once the sender is done with it: accepted,
    /// dropped (an unregistered token), or given up after its retries.
    func send(_ payload: PushPayload, to token: String) async
}
