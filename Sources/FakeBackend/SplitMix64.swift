/// A tiny deterministic random number generator (Steele, Lea and Flood's SplitMix64), so a
/// fault plan with a seed fails the same requests on every run.
struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniformly in `[0, 1)`, from the top 53 bits.
    mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
