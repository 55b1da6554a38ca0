// Arithmetic modulo a 256-bit odd modulus in Montgomery form (value · 2^256 mod m), with
// CIOS multiplication over four 64-bit limbs. P-256 uses it twice: for the field (mod p)
// and for scalars (mod n). Generic over the modulus so each gets a specialised copy.
//
// Not constant-time: branches depend on values (final subtraction, exponent bits). That is
// acceptable for a loopback test fake that signs with throwaway keys; do not reuse this
// code where timing side channels matter.

/// A 256-bit odd modulus greater than 2^255 and its Montgomery constants.
package protocol MontgomeryModulus {
    /// The modulus m.
    static var modulus: U256 { get }
    /// −m⁻¹ mod 2^64.
    static var negatedInverse: UInt64 { get }
    /// 2^512 mod m, to convert into Montgomery form.
    static var rSquared: U256 { get }
    /// 2^256 mod m: one in Montgomery form.
    static var rModulo: U256 { get }
}

/// An integer modulo `Modulus.modulus`, stored in Montgomery form.
package struct Residue<Modulus: MontgomeryModulus>: Hashable, Sendable {
    /// value · 2^256 mod m.
    package var montgomery: U256

    @inline(__always)
    package init(montgomery: U256) {
        self.montgomery = montgomery
    }

    /// The residue of `integer` mod m. Any 256-bit value is accepted: since m > 2^255, one
    /// conditional subtraction reduces it.
    @inline(__always)
    package init(_ integer: U256) {
        var reduced = integer
        if reduced >= Modulus.modulus {
            reduced = reduced.subtractingReportingBorrow(Modulus.modulus).difference
        }
        montgomery = Residue.multiply(reduced, Modulus.rSquared)
    }

    package static var zero: Residue { Residue(montgomery: .zero) }
    package static var one: Residue { Residue(montgomery: Modulus.rModulo) }

    /// The canonical integer in 0..<m.
    package var integer: U256 { Residue.multiply(montgomery, .one) }

    package var isZero: Bool { montgomery.isZero }

    @inline(__always)
    package static func + (lhs: Residue, rhs: Residue) -> Residue {
        let (sum, carry) = lhs.montgomery.addingReportingCarry(rhs.montgomery)
        if carry || sum >= Modulus.modulus {
            return Residue(montgomery: sum.subtractingReportingBorrow(Modulus.modulus).difference)
        }
        return Residue(montgomery: sum)
    }

    @inline(__always)
    package static func - (lhs: Residue, rhs: Residue) -> Residue {
        let (difference, borrow) = lhs.montgomery.subtractingReportingBorrow(rhs.montgomery)
        if borrow {
            return Residue(montgomery: difference.addingReportingCarry(Modulus.modulus).sum)
        }
        return Residue(montgomery: difference)
    }

    @inline(__always)
    static prefix func - (value: Residue) -> Residue {
        .zero - value
    }

    @inline(__always)
    package static func * (lhs: Residue, rhs: Residue) -> Residue {
        Residue(montgomery: multiply(lhs.montgomery, rhs.montgomery))
    }

    @inline(__always)
    package func squared() -> Residue { self * self }

    @inline(__always)
    package func doubled() -> Residue { self + self }

    /// self^exponent by left-to-right square and multiply.
    package func power(_ exponent: U256) -> Residue {
        var result = Residue.one
        var index = 255
        while index >= 0, !exponent.bit(index) {
            index -= 1
        }
        while index >= 0 {
            result = result.squared()
            if exponent.bit(index) {
                result = result * self
            }
            index -= 1
        }
        return result
    }

    /// The multiplicative inverse by Fermat (m is prime for both P-256 moduli); zero maps to
    /// zero, which callers rule out beforehand.
    package func inverse() -> Residue {
        power(Modulus.modulus.subtractingReportingBorrow(U256(l0: 2, l1: 0, l2: 0, l3: 0)).difference)
    }

    /// Montgomery product a · b · 2^-256 mod m.
    @inline(__always)
    package static func multiply(_ a: U256, _ b: U256) -> U256 {
        U256.montgomeryProduct(a, b, modulus: Modulus.modulus, negatedInverse: Modulus.negatedInverse)
    }
}

extension U256 {
    /// a · b · 2^-256 mod m for a, b < m (CIOS: four rounds of multiply-and-reduce).
    ///
    /// Non-generic with plain locals so the optimiser keeps everything in registers; each
    /// round adds a · word and a multiple u·m chosen to clear the low limb, then shifts down
    /// one limb. The running value stays below 2m, so one final subtraction reduces it.
    @inline(__always)
    package static func montgomeryProduct(_ a: U256, _ b: U256, modulus m: U256, negatedInverse k: UInt64) -> U256 {
        var t: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        t = montgomeryRound(t, a, b.l0, m, k)
        t = montgomeryRound(t, a, b.l1, m, k)
        t = montgomeryRound(t, a, b.l2, m, k)
        t = montgomeryRound(t, a, b.l3, m, k)
        let (t0, t1, t2, t3, t4) = t
        let value = U256(l0: t0, l1: t1, l2: t2, l3: t3)
        if t4 != 0 || value >= m {
            return value.subtractingReportingBorrow(m).difference
        }
        return value
    }

    /// (t + a·word + u·m) / 2^64, with u = t0'·k making the division exact.
    @inline(__always)
    private static func montgomeryRound(
        _ t: (UInt64, UInt64, UInt64, UInt64, UInt64), _ a: U256, _ word: UInt64, _ m: U256, _ k: UInt64
    ) -> (UInt64, UInt64, UInt64, UInt64, UInt64) {
        var carry: UInt64
        let r0: UInt64, r1: UInt64, r2: UInt64, r3: UInt64
        (r0, carry) = multiplyAccumulate(t.0, a.l0, word, 0)
        (r1, carry) = multiplyAccumulate(t.1, a.l1, word, carry)
        (r2, carry) = multiplyAccumulate(t.2, a.l2, word, carry)
        (r3, carry) = multiplyAccumulate(t.3, a.l3, word, carry)
        let (r4, top) = t.4.addingReportingOverflow(carry)
        let u = r0 &* k
        let n0: UInt64, n1: UInt64, n2: UInt64
        (_, carry) = multiplyAccumulate(r0, u, m.l0, 0)
        (n0, carry) = multiplyAccumulate(r1, u, m.l1, carry)
        (n1, carry) = multiplyAccumulate(r2, u, m.l2, carry)
        (n2, carry) = multiplyAccumulate(r3, u, m.l3, carry)
        let (n3, overflow) = r4.addingReportingOverflow(carry)
        return (n0, n1, n2, n3, (top ? 1 : 0) &+ (overflow ? 1 : 0))
    }
}

/// The P-256 field prime p = 2^256 − 2^224 + 2^192 + 2^96 − 1.
package enum P256Prime: MontgomeryModulus {
    package static var modulus: U256 {
        U256(l0: 0xffff_ffff_ffff_ffff, l1: 0x0000_0000_ffff_ffff, l2: 0, l3: 0xffff_ffff_0000_0001)
    }
    package static var negatedInverse: UInt64 { 1 }
    package static var rSquared: U256 {
        U256(l0: 0x3, l1: 0xffff_fffb_ffff_ffff, l2: 0xffff_ffff_ffff_fffe, l3: 0x0000_0004_ffff_fffd)
    }
    package static var rModulo: U256 {
        U256(l0: 0x1, l1: 0xffff_ffff_0000_0000, l2: 0xffff_ffff_ffff_ffff, l3: 0x0000_0000_ffff_fffe)
    }
}

/// The order n of the P-256 base point.
package enum P256Order: MontgomeryModulus {
    package static var modulus: U256 {
        U256(l0: 0xf3b9_cac2_fc63_2551, l1: 0xbce6_faad_a717_9e84, l2: 0xffff_ffff_ffff_ffff, l3: 0xffff_ffff_0000_0000)
    }
    package static var negatedInverse: UInt64 { 0xccd1_c8aa_ee00_bc4f }
    package static var rSquared: U256 {
        U256(l0: 0x8324_4c95_be79_eea2, l1: 0x4699_799c_49bd_6fa6, l2: 0x2845_b239_2b6b_ec59, l3: 0x66e1_2d94_f3d9_5620)
    }
    package static var rModulo: U256 {
        U256(l0: 0x0c46_353d_039c_daaf, l1: 0x4319_0552_58e8_617b, l2: 0, l3: 0x0000_0000_ffff_ffff)
    }
}

/// An element of the P-256 base field.
package typealias P256FieldElement = Residue<P256Prime>
/// A scalar modulo the P-256 group order.
package typealias P256Scalar = Residue<P256Order>
