/// FakeAPNs' authentication room: the registered provider-token signing keys and what each
/// connection's tokens left behind. Part of ``FakeAPNsState``, behind the fake's one lock;
/// changed only through its methods.
struct ProviderAuthenticationState {
    struct SigningKey {
        var key: any ProviderTokenVerificationKey
        var teamID: String
        /// nil: valid in both environments.
        var environment: APNsEnvironment?
    }

    /// What APNs keeps per connection: the verified token (so verification is off the hot
    /// path), its team (later tokens must be related) and the error count.
    struct Connection {
        var token: String?
        /// `token`'s ``FakeAPNs/fingerprint(of:)``, taken when it was installed: every request
        /// carrying it journals it.
        var tokenFingerprint = ""
        /// The `authorization` header `token` was installed from: the same header again
        /// carries the same token, read without parsing it (``installedToken(sentAs:on:)``).
        var authorization: String?
        var teamID: String?
        var issuedAt: Int64 = 0
        var installedAt: Int64 = 0
        var errors: Int = 0
        /// Provider tokens refused on this connection since the last GOAWAY for them.
        var tokenFailures: Int = 0
        /// Tokens that failed verification on this connection (decoding, key, team or
        /// signature: what depends only on the token and the registered keys), newest last,
        /// at most ``FakeAPNs/failedTokensRemembered``: the same forged token is rejected
        /// again without another signature verification. Cleared when a key is registered.
        var failedTokens: [(token: String, rejection: FakeAPNs.Rejection, note: String?)] = []
        /// The HTTP/2 stream this connection was ended at (a `goAway` fault, too many
        /// errors): later streams on it are journaled unanswered, never delivered.
        var goneAwayAt: UInt32? = nil

        /// Whether `token` is this connection's verified token or one it refused: the locked
        /// check answers it without a verification.
        func knows(_ token: String) -> Bool {
            self.token == token || failedTokens.contains(where: { $0.token == token })
        }
    }

    private(set) var keys: [String: SigningKey] = [:]
    /// Changed whenever `keys` is: a token verified outside the lock against older keys is
    /// verified again (``FakeAPNs/preverifyProviderToken(_:authorization:)``).
    private(set) var keysVersion: UInt64 = 0
    private(set) var connections: [UInt64: Connection] = [:]

    /// Registers (or replaces) a key; tokens refused before may verify now.
    mutating func register(_ key: SigningKey, keyID: String) {
        keys[keyID] = key
        keysVersion &+= 1
        for id in Array(connections.keys) { connections[id]?.failedTokens = [] }
    }

    mutating func removeKey(keyID: String) {
        _ = keys.removeValue(forKey: keyID)
        keysVersion &+= 1
    }

    /// Connection `id`'s verified token when `header` is, byte for byte, the `authorization`
    /// header it was installed from (every push but a connection's first): nil otherwise.
    func installedToken(sentAs header: String, on id: UInt64) -> String? {
        guard let connection = connections[id], let token = connection.token, connection.authorization == header else { return nil }
        return token
    }

    /// A connection's record, or a fresh one.
    func connection(_ id: UInt64) -> Connection {
        connections[id] ?? Connection()
    }

    /// Stores a connection's record. Records are never told their connection closed, so past
    /// 10 000 they are all forgotten (connections re-verify their token on next use).
    mutating func store(_ connection: Connection, for id: UInt64) {
        if connections.count >= 10_000 && connections[id] == nil {
            connections.removeAll()
        }
        connections[id] = connection
    }

    /// Forgets every connection's record (``FakeAPNs/reset()``); the keys stay.
    mutating func forgetConnections() {
        connections.removeAll()
    }
}
