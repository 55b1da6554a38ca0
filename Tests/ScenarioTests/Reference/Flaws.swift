/// Deliberate bugs the reference client and sender can be built with, one per bad day, to
/// show that the scenarios catch them.
struct Flaws: OptionSet, Sendable {
    let rawValue: Int

    /// The inbox and the opens reporter forget what they have seen: repeats are shown,
    /// routed and reported again.
    static let noDedupe = Flaws(rawValue: 1 << 0)
    /// A DELETE that fails at sign-out is forgotten instead of kept pending.
    static let noPendingDelete = Flaws(rawValue: 1 << 1)
    /// The sender treats 410 like a 5xx: it retries and keeps the token.
    static let retryOn410 = Flaws(rawValue: 1 << 2)
    /// The client and the sender retry a 429 at once, ignoring Retry-After.
    static let noBackoff = Flaws(rawValue: 1 << 3)
}
