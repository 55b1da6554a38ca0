/// Who is signed in: the account and the bearer token that proves it. The backend reads the
/// account from the bearer, never from a body.
public struct Credentials: Hashable, Sendable {
    public var account: AccountID
    public var bearer: String

    public init(account: AccountID, bearer: String) {
        self.account = account
        self.bearer = bearer
    }

    /// `Authorization: Bearer <bearer>`.
    var authorization: String { "Bearer \(bearer)" }
}
