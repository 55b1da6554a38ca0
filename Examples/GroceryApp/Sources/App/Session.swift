/// The session that says who is signed in (seed 000: "not drawn"). The open use case reads
/// it to keep taps on the right account; the inbox reads the bearer to report opens.
public actor Session {
    /// The signed-in account, or nil.
    public private(set) var current: Credentials?

    public init(_ credentials: Credentials? = nil) {
        current = credentials
    }

    /// The user signed in (or the session was restored at launch).
    public func signIn(_ credentials: Credentials) {
        current = credentials
    }

    /// The user signed out. Unregister the device first: its DELETE needs these credentials.
    public func signOut() {
        current = nil
    }
}
