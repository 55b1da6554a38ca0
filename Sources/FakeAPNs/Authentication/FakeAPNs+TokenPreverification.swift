import LoopbackHTTP

extension FakeAPNs {
    /// A request's provider token as read before its request took the state lock: the bearer
    /// token (parsed once per request) and, when it needed verifying, the outcome of
    /// ``verifyToken(_:keys:note:)`` and the version of the registered keys it was checked
    /// against (``ProviderAuthenticationState/keysVersion``).
    struct PreverifiedToken {
        var token: String
        var keysVersion: UInt64 = 0
        /// nil: not verified before the lock (the connection knows the token, or tokens are not verified).
        var result: Result<DecodedProviderToken, Rejection>?
        var note: String?
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
        guard request.tlsClientCertificate == nil, let authorization else { return nil }
        let token = Self.bearerToken(authorization)
        guard !token.isEmpty else { return nil }
        guard settings.providerTokens == .verify else { return PreverifiedToken(token: token) }
        let keys = state.withLock { s -> (keys: [String: ProviderAuthenticationState.SigningKey], version: UInt64)? in
            if let connection = s.authentication.connections[request.connectionID], connection.knows(token) { return nil }
            return (s.authentication.keys, s.authentication.keysVersion)
        }
        guard let keys else { return PreverifiedToken(token: token) }
        var note: String?
        let result = verifyToken(token, keys: keys.keys, note: &note)
        return PreverifiedToken(token: token, keysVersion: keys.version, result: result, note: note)
    }
}
