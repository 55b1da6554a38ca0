// X25519 Diffie-Hellman (RFC 7748 §5): the Montgomery ladder on Curve25519's u-coordinate.
// The ladder does the same work for every scalar bit and swaps with masks, but the field
// code is not audited for constant time: this is for a TLS server used in tests.

/// X25519 key agreement on 32-byte keys.
package enum X25519 {
    /// The u-coordinate of the base point, 9.
    static let basePoint: [UInt8] = [9] + [UInt8](repeating: 0, count: 31)

    /// The public key for a 32-byte private key: X25519(k, 9).
    ///
    /// A private key of another length is used as its first 32 bytes, zero-padded; callers
    /// make keys with `secureRandomBytes(32)`.
    package static func publicKey(privateKey: [UInt8]) -> [UInt8] {
        fixedBasePublicKey(privateKey)  // = scalarMultiply(privateKey, basePoint), faster
    }

    /// The shared secret X25519(k, peer's u).
    /// - Returns: 32 bytes, or `nil` if the peer key is not 32 bytes or the result is all
    ///   zeros (a low-order peer point, which RFC 7748 §6.1 and RFC 8446 §7.4.2 reject).
    package static func sharedSecret(privateKey: [UInt8], peerPublicKey: [UInt8]) -> [UInt8]? {
        guard peerPublicKey.count == 32 else { return nil }
        let secret = scalarMultiply(privateKey, peerPublicKey)
        guard secret.reduce(0, |) != 0 else { return nil }
        return secret
    }

    /// The function X25519(k, u) of RFC 7748 §5, on byte strings.
    package static func scalarMultiply(_ scalar: [UInt8], _ u: [UInt8]) -> [UInt8] {
        let k = clamped(scalar)
        let x1 = Curve25519Field(littleEndian: u)
        var x2 = Curve25519Field.one, z2 = Curve25519Field.zero
        var x3 = x1, z3 = Curve25519Field.one
        var swap: UInt64 = 0
        let a24 = Curve25519Field(l0: 121_665, l1: 0, l2: 0, l3: 0, l4: 0)
        for bit in stride(from: 254, through: 0, by: -1) {
            let kBit = UInt64((k[bit >> 3] >> UInt8(bit & 7)) & 1)
            swap ^= kBit
            Curve25519Field.conditionalSwap(&x2, &x3, swap)
            Curve25519Field.conditionalSwap(&z2, &z3, swap)
            swap = kBit
            let a = x2 + z2
            let aa = a.squared()
            let b = x2 - z2
            let bb = b.squared()
            let e = aa - bb
            let c = x3 + z3
            let d = x3 - z3
            let da = d * a
            let cb = c * b
            x3 = (da + cb).squared()
            z3 = x1 * (da - cb).squared()
            x2 = aa * bb
            z2 = e * (aa + a24 * e)
        }
        Curve25519Field.conditionalSwap(&x2, &x3, swap)
        Curve25519Field.conditionalSwap(&z2, &z3, swap)
        return (x2 * z2.inverse()).littleEndianBytes
    }
}
