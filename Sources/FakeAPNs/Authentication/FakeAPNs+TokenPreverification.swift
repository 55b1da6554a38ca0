import LoopbackHTTP

extension FakeAPNs {
    /// A request's provider token as read before the critical section that answers it (a
    /// push reads it in the one before, or takes its connection's installed token there when
    /// the header is the same): the bearer token (read once per request) and, when it needed
    /// verifying, the outcome of
    /// ``verifyToken(_:keys:note:)`` and the version of the registered keys it was checked
    /// against (``ProviderAuthenticationState/keysVersion``).
    ///
    /// A class, read only: a push hands it through several calls and a closure, and each
    /// copy of the struct (an optional of a result of two structs) went through generic
    /// value witnesses, ~800 instructions a push; a reference is retained instead.
    final class PreverifiedToken {
        let token: String
        let keysVersion: UInt64
        /// nil: not verified before the lock (the connection knows the token, or tokens are not verified).
        let result: Result<DecodedProviderToken, Rejection>?
        let note: String?

        init(token: String, keysVersion: UInt64 = 0, result: Result<DecodedProviderToken, Rejection>? = nil, note: String? = nil) {
            self.token = token
            self.keysVersion = keysVersion
            self.result = result
            self.note = note
        }
    }

    /// Verifies a request's provider token (decoding, key, team, and the ES256 signature,
    /// the expensive part) outside the state lock, when the locked check would verify it.
    ///
    /// One short critical section reads what the verification needs: whether tokens are
    /// verified at all, whether the token is already the connection's verified token or one
    /// it refused (then nothing is verified: the locked check answers from the connection),
    /// and the registered keys with their version. The lock is released, the token verified,
    /// and ``checkProviderToken(_:authorization:environment:now:authentication:note:preverified:)``
    /// applies the outcome under the lock, in Apple's order.
    ///
    /// The rule for what changed meanwhile: a request's answer is the one it would get if it
    /// ran whole at its second critical section. Everything that depends on the connection
    /// (its token, a refused token, its team, `TooManyProviderTokenUpdates`, expiry) is read
    /// there, after the wait, as before; the verification's outcome depends only on the token
    /// and the keys, so it is used only when the keys did not change since they were read (any
    /// `registerSigningKey`/`removeSigningKey` in between: the token is verified again, under
    /// the lock, against the keys of that moment). Two requests of one connection carrying the
    /// same new token may both verify it; the first to apply its outcome installs (or refuses)
    /// it and the second answers from the connection, as it would have before.
    /// - Returns: nil for a certificate or no bearer token; no `result` when the locked check
    ///   needs no verification (tokens not verified, or a token the connection already knows).
    func preverifyProviderToken(_ request: HTTPRequest, authorization: String?) -> PreverifiedToken? {
        guard let presented = presentedProviderToken(request, authorization: authorization) else { return nil }
        let keys = state.withLock { s in keysToVerify(presented, connectionID: request.connectionID, in: s.authentication) }
        guard let keys else { return presented }
        return verified(presented, against: keys)
    }

    /// The registered keys and their version.
    typealias KeysToVerify = (keys: [String: ProviderAuthenticationState.SigningKey], version: UInt64)

    /// The bearer token a request presents, read before the lock and not yet verified: nil
    /// for a certificate or no bearer token.
    func presentedProviderToken(_ request: HTTPRequest, authorization: String?) -> PreverifiedToken? {
        guard request.tlsClientCertificate == nil, let authorization else { return nil }
        let token = Self.bearerToken(authorization)
        return token.isEmpty ? nil : PreverifiedToken(token: token)
    }

    /// Under the lock: the keys `presented` is to be verified against outside it, or nil when
    /// the locked check needs no verification (tokens are not verified, or the connection
    /// already knows the token: its verified token, or one it refused).
    func keysToVerify(_ presented: PreverifiedToken, connectionID: UInt64, in a: ProviderAuthenticationState) -> KeysToVerify? {
        guard settings.providerTokens == .verify else { return nil }
        if let connection = a.connections[connectionID], connection.knows(presented.token) { return nil }
        return (a.keys, a.keysVersion)
    }

    /// `presented`, verified (outside the lock) against `keys`.
    func verified(_ presented: PreverifiedToken, against keys: KeysToVerify) -> PreverifiedToken {
        var note: String?
        let result = verifyToken(presented.token, keys: keys.keys, note: &note)
        return PreverifiedToken(token: presented.token, keysVersion: keys.version, result: result, note: note)
    }
}
