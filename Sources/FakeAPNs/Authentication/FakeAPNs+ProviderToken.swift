import LoopbackHTTP

extension FakeAPNs {
    /// Step 5: the provider token, as APNs checks it per connection.
    ///
    /// A connection remembers its last verified token, so a repeated token costs a string
    /// comparison and an age check, not a signature verification (APNs caches it the same
    /// way). A new token is decoded (`alg` ES256, `kid`, `iss`, `iat`), its key looked up
    /// and its team matched (`InvalidProviderToken`), its signature verified
    /// (`InvalidProviderToken`), its key's environment matched
    /// (`BadEnvironmentKeyInToken`), its team matched with the team of the connection's
    /// first token (`UnrelatedKeyIdInToken`: open a new connection), its timing checked
    /// against the token it replaces (429 `TooManyProviderTokenUpdates` when the
    /// connection's current token is still valid and was installed under 20 minutes ago)
    /// and its age checked (`ExpiredProviderToken` past one hour; `InvalidProviderToken`
    /// more than an hour ahead: Apple says `iat` "must be no more than one hour from the
    /// current time").
    ///
    /// Choice where Apple is silent: a token that fails any check is not installed, so it
    /// never counts as an update; replacing an expired token is always allowed.
    /// - Parameters:
    ///   - authorization: the request's `authorization` header (``APNsRequestHeaders``).
    ///   - note: set to how a non-integer `iat` was read, for the journal.
    ///   - preverified: the token's verification, done outside the lock
    ///     (``preverifyProviderToken(_:authorization:)``); used when the keys are unchanged since.
    func checkProviderToken(_ request: HTTPRequest, authorization: String?, environment: APNsEnvironment, now: Int64,
                            authentication a: inout ProviderAuthenticationState, note: inout String?, preverified: PreverifiedToken? = nil) -> Rejection? {
        guard let header = authorization else {
            return Rejection(.missingProviderToken, "no authorization header")
        }
        let token = preverified?.token ?? Self.bearerToken(header)
        guard !token.isEmpty else {
            return Rejection(.missingProviderToken, "the authorization header is not `bearer <token>`")
        }
        let lifetime = settings.providerTokenLifetimeSeconds &* 1000
        var connection = a.connection(request.connectionID)

        if connection.token == token {
            guard now &- connection.issuedAt <= lifetime else {
                return Rejection(.expiredProviderToken, "the connection's token was issued \((now &- connection.issuedAt) / 1000) s ago; mint a new one at least every hour")
            }
            return nil
        }
        if let failed = connection.failedTokens.last(where: { $0.token == token }) {
            note = failed.note
            return failed.rejection  // already verified and refused: no second verification
        }
        let parts: DecodedProviderToken
        let verified: Result<DecodedProviderToken, Rejection>
        if let preverified, let result = preverified.result, preverified.keysVersion == a.keysVersion {
            (verified, note) = (result, preverified.note)
        } else {  // not verified before the lock, or the keys changed since: verified here
            verified = verifyToken(token, keys: a.keys, note: &note)
        }
        switch verified {
        case .failure(let rejection):
            connection.failedTokens.append((token, rejection, note))
            if connection.failedTokens.count > Self.failedTokensRemembered { connection.failedTokens.removeFirst() }
            a.store(connection, for: request.connectionID)
            return rejection
        case .success(let decoded):
            parts = decoded
        }
        note = parts.issuedAtReading
        guard let key = a.keys[parts.keyID] else { return Rejection(.invalidProviderToken, "no signing key is registered with kid \(parts.keyID)") }
        if let keyEnvironment = key.environment, keyEnvironment != environment {
            return Rejection(.badEnvironmentKeyInToken, "key \(parts.keyID) is for \(keyEnvironment.displayName); this request is for \(environment.displayName)")
        }
        if let team = connection.teamID, team != parts.teamID {
            return Rejection(.unrelatedKeyIdInToken, "this connection's first token was team \(team)'s; open a new connection for team \(parts.teamID)")
        }
        let issuedAt = parts.issuedAt &* 1000
        if connection.token != nil,
           now &- connection.issuedAt <= lifetime,
           now &- connection.installedAt < settings.providerTokenMinimumRefreshSeconds &* 1000 {
            return Rejection(.tooManyProviderTokenUpdates, "a new token \((now &- connection.installedAt) / 1000) s after the last on this connection; reuse a token for 20 to 60 minutes")
        }
        if now &- issuedAt > lifetime {
            return Rejection(.expiredProviderToken, "iat is \((now &- issuedAt) / 1000) s ago; a token is valid for an hour")
        }
        if issuedAt &- now > lifetime {
            return Rejection(.invalidProviderToken, "iat is \((issuedAt &- now) / 1000) s ahead of the clock; it must be no more than an hour from the current time")
        }

        connection.token = token
        connection.tokenFingerprint = Self.fingerprint(of: token)
        connection.authorization = header
        connection.teamID = parts.teamID
        connection.issuedAt = issuedAt
        connection.installedAt = now
        a.store(connection, for: request.connectionID)
        return nil
    }

    /// Notes which provider token a request carried (``APNsJournalEntry/providerTokenFingerprint``
    /// and, when the connection installed it, its `iat`). A scripted `ExpiredProviderToken`
    /// expires the connection's token as APNs would: the same token is refused again, a new
    /// one is installed without counting as a too-early update.
    /// `presented` is the bearer token when it was parsed already.
    func noteProviderToken(_ authorization: String?, presented: String? = nil, connectionID: UInt64, fault: APNsFault?, now: Int64,
                           entry: inout APNsJournalEntry, authentication a: inout ProviderAuthenticationState) {
        guard let authorization else { return }
        let token = presented ?? Self.bearerToken(authorization)
        guard !token.isEmpty else { return }
        guard var connection = a.connections[connectionID], connection.token == token else {
            entry.providerTokenFingerprint = Self.fingerprint(of: token)
            return
        }
        entry.providerTokenFingerprint = connection.tokenFingerprint  // the connection's token: taken at install
        entry.providerTokenIssuedAt = connection.issuedAt / 1000
        if case .reason(let reason)? = fault, reason == .expiredProviderToken {
            connection.issuedAt = now &- settings.providerTokenLifetimeSeconds &* 1000 &- 1000
            a.store(connection, for: connectionID)
        }
    }

    /// The token's last 16 characters. A JWT's are printable ASCII, each its own character:
    /// then they are its last 16 bytes, taken without walking grapheme clusters.
    static func fingerprint(of token: String) -> String {
        let fromBytes = token.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            for index in max(0, bytes.count &- 17)..<bytes.count where bytes[index] < 0x20 || bytes[index] >= 0x7F { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[max(0, bytes.count &- 16)...]), as: UTF8.self)
        }
        return (fromBytes ?? nil) ?? String(token.suffix(16))
    }

    /// Failed tokens remembered per connection (against floods of forged tokens): a client
    /// repeating one costs a string comparison, not a P-256 verification.
    static let failedTokensRemembered = 8

    /// The checks that depend only on the token and the registered keys: decoding, the key
    /// for `kid`, its team, and the signature (the expensive part).
    func verifyToken(_ token: String, keys: [String: ProviderAuthenticationState.SigningKey], note: inout String?) -> Result<DecodedProviderToken, Rejection> {
        let parts: DecodedProviderToken
        switch decodeToken(token) {
        case .failure(let error): return .failure(Rejection(.invalidProviderToken, error.description))
        case .success(let decoded): parts = decoded
        }
        note = parts.issuedAtReading
        guard let key = keys[parts.keyID] else {
            return .failure(Rejection(.invalidProviderToken, "no signing key is registered with kid \(parts.keyID)"))
        }
        guard key.teamID == parts.teamID else {
            return .failure(Rejection(.invalidProviderToken, "iss \(parts.teamID) is not the team of key \(parts.keyID) (\(key.teamID))"))
        }
        guard key.key.isValidSignature(parts.signature, for: parts.signingInput) else {
            return .failure(Rejection(.invalidProviderToken, "the signature does not verify under key \(parts.keyID)"))
        }
        return .success(parts)
    }

    /// Counts one more error of a kind on a connection (`errors` toward `goAwayAfterErrors`,
    /// `tokenFailures` toward `goAwayAfterProviderTokenFailures`); at `limit` the answer
    /// becomes GOAWAY with its body as debug data, as APNs closes connections that keep
    /// failing (a flood of forged tokens, say), and the count starts again.
    func countTowardGoAway(_ counter: WritableKeyPath<ProviderAuthenticationState.Connection, Int>, limit: Int, what: String,
                           _ connectionID: UInt64, response: inout HTTPResponse, entry: inout APNsJournalEntry,
                           authentication a: inout ProviderAuthenticationState) {
        var connection = a.connection(connectionID)
        connection[keyPath: counter] += 1
        if connection[keyPath: counter] >= limit {
            connection[keyPath: counter] = 0
            if response.disposition == .send {
                response.disposition = .goAway(debugData: response.body)
                entry.detail = [entry.detail, "answered with GOAWAY: \(limit) \(what) on this connection"]
                    .compactMap { $0 }.joined(separator: "; ")
            }
        }
        a.store(connection, for: connectionID)
    }

    /// A reason and, for the journal, why in words.
    struct Rejection: Error {
        var reason: APNsReason
        var detail: String
        init(_ reason: APNsReason, _ detail: String) {
            self.reason = reason
            self.detail = detail
        }
    }

    /// The token of `bearer <token>` (scheme case-insensitive, spaces and tabs around it
    /// ignored), or "" when absent. Byte-wise: this runs on every request.
    static func bearerToken(_ header: String) -> String {
        var header = header
        return header.withUTF8 { bytes -> String in
            var start = 0
            var end = bytes.count
            while start < end && (bytes[start] == 32 || bytes[start] == 9) { start += 1 }
            while end > start && (bytes[end - 1] == 32 || bytes[end - 1] == 9) { end -= 1 }
            let scheme = "bearer".utf8
            guard end - start > scheme.count + 1 else { return "" }
            for (i, letter) in scheme.enumerated() where bytes[start + i] | 0x20 != letter { return "" }
            var tokenStart = start + scheme.count
            guard bytes[tokenStart] == 32 || bytes[tokenStart] == 9 else { return "" }
            while tokenStart < end && (bytes[tokenStart] == 32 || bytes[tokenStart] == 9) { tokenStart += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[tokenStart..<end]), as: UTF8.self)
        }
    }
}
