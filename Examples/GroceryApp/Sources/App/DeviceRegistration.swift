/// The notification engine's promise about this phone's token (seed 000, card 8).
public protocol DeviceRegistration: Sendable {
    /// Registers `token` for the signed-in account; sends only if the token or the account
    /// differ from the last success. Signed out (`nil`), it remembers the token and sends
    /// nothing: the backend needs a bearer.
    /// - Throws: ``BackendError`` on failure; the engine tries again at the next launch.
    func register(token: DeviceToken, for credentials: Credentials?) async throws

    /// Removes the token from the backend; call before the session drops the credentials.
    /// - Throws: ``BackendError/unreachable`` when the backend could not be reached: the
    ///   removal is kept and sent by ``resume()`` or the next ``register(token:for:)``.
    func unregister() async throws

    /// The app is back in the foreground or the network is back: sends what is pending.
    func resume() async
}
