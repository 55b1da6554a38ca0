// Random bytes for keys, TLS randoms and certificate serial numbers.

/// `count` bytes from the system's cryptographically secure generator
/// (`SystemRandomNumberGenerator`: getrandom on Linux, arc4random on Apple platforms).
/// A negative count gives no bytes.
package func secureRandomBytes(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(max(count, 0) + 8)
    while bytes.count < count {
        let word = generator.next() as UInt64
        for shift in stride(from: 0, to: 64, by: 8) {
            bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
        }
    }
    return Array(bytes.prefix(max(count, 0)))
}
