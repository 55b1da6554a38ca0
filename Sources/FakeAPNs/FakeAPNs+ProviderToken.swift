import Foundation
import LoopbackHTTP

extension FakeAPNs {
    /// Step 5: the provider token, as APNs checks it per connection.
    ///
    /// A connection remembers its last verified token, so a repeated token costs a string
    /// comparison and an age check, not a signature verification (APNs caches it the same
    /// way). A new token is decoded (`alg` ES256, `kid`, `iss`, `iat`), its key looked up
    /// and its team matched (`InvalidProviderToken`), its signature verified
    /// (`InvalidProviderToken`), its key's environment matched
    /// (`BadEnvironmentKeyIdInToken`), its team matched with the team of the connection's
    /// first token (`UnrelatedKeyIdInToken`: open a new connection), its timing checked
    /// against the token it replaces (429 `TooManyProviderTokenUpdates` when the
    /// connection's current token is still valid and was installed under 20 minutes ago)
    /// and its age checked (`ExpiredProviderToken` past one hour).
    ///
    /// Choice where Apple is silent: a token that fails any check is not installed, so it
    /// never counts as an update; replacing an expired token is always allowed.
    func checkProviderToken(_ request: HTTPRequest, now: Int64, state s: inout FakeAPNsState) -> APNsReason? {
        guard let header = request.headers["authorization"] else { return .missingProviderToken }
        let token = Self.bearerToken(header)
        guard !token.isEmpty else { return .missingProviderToken }
        let lifetime = s.configuration.providerTokenLifetimeSeconds &* 1000
        var connection = s.connections[request.connectionID] ?? .init()

        if connection.token == token {
            return now &- connection.issuedAt > lifetime ? .expiredProviderToken : nil
        }
        guard let parts = decodeToken(token), parts.algorithm == "ES256",
              let key = s.keys[parts.keyID], key.teamID == parts.teamID,
              key.key.isValidSignature(parts.signature, for: parts.signingInput)
        else { return .invalidProviderToken }
        if let environment = key.environment, environment != s.configuration.environment {
            return .badEnvironmentKeyIdInToken
        }
        if let team = connection.teamID, team != parts.teamID { return .unrelatedKeyIdInToken }
        let issuedAt = parts.issuedAt &* 1000
        if connection.token != nil,
           now &- connection.issuedAt <= lifetime,
           now &- connection.installedAt < s.configuration.providerTokenMinimumRefreshSeconds &* 1000 {
            return .tooManyProviderTokenUpdates
        }
        if now &- issuedAt > lifetime { return .expiredProviderToken }

        connection.token = token
        connection.teamID = parts.teamID
        connection.issuedAt = issuedAt
        connection.installedAt = now
        if s.connections.count > 10_000 && s.connections[request.connectionID] == nil {
            s.connections.removeAll()   // bounded memory; connections re-verify on next use
        }
        s.connections[request.connectionID] = connection
        return nil
    }

    /// The token of `bearer <token>` (scheme case-insensitive), or "" when absent.
    static func bearerToken(_ header: String) -> String {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        let scheme = "bearer "
        guard trimmed.count > scheme.count,
              trimmed.prefix(scheme.count).lowercased() == scheme else { return "" }
        return String(trimmed.dropFirst(scheme.count)).trimmingCharacters(in: .whitespaces)
    }
}
