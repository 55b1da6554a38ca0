/// The package's one seeded random number generator (Steele, Lea and Flood's SplitMix64):
/// small, and the same sequence on every platform, so a fault plan or duplicate injection
/// with a seed hits the same requests on every run and a fuzz failure replays.
///
/// `public` (its API is `package`, but for `next()`, which `RandomNumberGenerator` asks for)
/// so that the fakes' inlinable fault pick (`ActiveFaults`, on every request) can use it.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    @usableFromInline var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    @inlinable
    package init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniformly in `[0, 1)`, from the top 53 bits.
    @inlinable
    package mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
