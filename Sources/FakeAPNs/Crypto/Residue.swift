// Arithmetic modulo a 256-bit odd modulus in Montgomery form (value · 2^256 mod m), with
// CIOS multiplication over four 64-bit limbs. P-256 uses it twice: for the field (mod p)
// and for scalars (mod n). Generic over the modulus so each gets a specialised copy.
//
// Not constant-time: branches depend on values (final subtraction, exponent bits). That is
// acceptable for a loopback test fake that signs with throwaway keys; do not reuse this
// code where timing side channels matter.

/// A 256-bit odd modulus greater than 2^255 and its Montgomery constants.
protocol MontgomeryModulus {
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
struct Residue<Modulus: MontgomeryModulus>: Hashable, Sendable {
    /// value · 2^256 mod m.
    var montgomery: U256

    @inline(__always)
    init(montgomery: U256) {
        self.montgomery = montgomery
    }

    /// The residue of `integer` mod m. Any 256-bit value is accepted: since m > 2^255, one
    /// conditional subtraction reduces it.
    @inline(__always)
    init(_ integer: U256) {
        var reduced = integer
        if reduced >= Modulus.modulus {
            reduced = reduced.subtractingReportingBorrow(Modulus.modulus).difference
        }
        montgomery = Residue.multiply(reduced, Modulus.rSquared)
    }

    static var zero: Residue { Residue(montgomery: .zero) }
    static var one: Residue { Residue(montgomery: Modulus.rModulo) }

    /// The canonical integer in 0..<m.
    var integer: U256 { Residue.multiply(montgomery, .one) }

    var isZero: Bool { montgomery.isZero }

    @inline(__always)
    static func + (lhs: Residue, rhs: Residue) -> Residue {
        let (sum, carry) = lhs.montgomery.addingReportingCarry(rhs.montgomery)
        if carry || sum >= Modulus.modulus {
            return Residue(montgomery: sum.subtractingReportingBorrow(Modulus.modulus).difference)
        }
        return Residue(montgomery: sum)
    }

    @inline(__always)
    static func - (lhs: Residue, rhs: Residue) -> Residue {
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
    static func * (lhs: Residue, rhs: Residue) -> Residue {
        Residue(montgomery: multiply(lhs.montgomery, rhs.montgomery))
    }

    @inline(__always)
    func squared() -> Residue { self * self }

    @inline(__always)
    func doubled() -> Residue { self + self }

    /// self^exponent by left-to-right square and multiply.
    func power(_ exponent: U256) -> Residue {
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
    func inverse() -> Residue {
        power(Modulus.modulus.subtractingReportingBorrow(U256(l0: 2, l1: 0, l2: 0, l3: 0)).difference)
    }

    /// Montgomery product a · b · 2^-256 mod m (CIOS, four rounds).
    @inline(__always)
    static func multiply(_ a: U256, _ b: U256) -> U256 {
        var t: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        round(&t, a, b.l0)
        round(&t, a, b.l1)
        round(&t, a, b.l2)
        round(&t, a, b.l3)
        let value = U256(l0: t.0, l1: t.1, l2: t.2, l3: t.3)
        if t.4 != 0 || value >= Modulus.modulus {
            return value.subtractingReportingBorrow(Modulus.modulus).difference
        }
        return value
    }

    /// t = (t + a·word + u·m) / 2^64 with u chosen so the division is exact; t stays < 2m.
    @inline(__always)
    private static func round(_ t: inout (UInt64, UInt64, UInt64, UInt64, UInt64), _ a: U256, _ word: UInt64) {
        let m = Modulus.modulus
        var carry: UInt64
        let r0: UInt64, r1: UInt64, r2: UInt64, r3: UInt64
        (r0, carry) = U256.multiplyAccumulate(t.0, a.l0, word, 0)
        (r1, carry) = U256.multiplyAccumulate(t.1, a.l1, word, carry)
        (r2, carry) = U256.multiplyAccumulate(t.2, a.l2, word, carry)
        (r3, carry) = U256.multiplyAccumulate(t.3, a.l3, word, carry)
        let (r4, top) = t.4.addingReportingOverflow(carry)
        let u = r0 &* Modulus.negatedInverse
        (_, carry) = U256.multiplyAccumulate(r0, u, m.l0, 0)
        (t.0, carry) = U256.multiplyAccumulate(r1, u, m.l1, carry)
        (t.1, carry) = U256.multiplyAccumulate(r2, u, m.l2, carry)
        (t.2, carry) = U256.multiplyAccumulate(r3, u, m.l3, carry)
        let (s, overflow) = r4.addingReportingOverflow(carry)
        t.3 = s
        t.4 = (top ? 1 : 0) &+ (overflow ? 1 : 0)
    }
}

/// The P-256 field prime p = 2^256 − 2^224 + 2^192 + 2^96 − 1.
enum P256Prime: MontgomeryModulus {
    static var modulus: U256 {
        U256(l0: 0xffff_ffff_ffff_ffff, l1: 0x0000_0000_ffff_ffff, l2: 0, l3: 0xffff_ffff_0000_0001)
    }
    static var negatedInverse: UInt64 { 1 }
    static var rSquared: U256 {
        U256(l0: 0x3, l1: 0xffff_fffb_ffff_ffff, l2: 0xffff_ffff_ffff_fffe, l3: 0x0000_0004_ffff_fffd)
    }
    static var rModulo: U256 {
        U256(l0: 0x1, l1: 0xffff_ffff_0000_0000, l2: 0xffff_ffff_ffff_ffff, l3: 0x0000_0000_ffff_fffe)
    }
}

/// The order n of the P-256 base point.
enum P256Order: MontgomeryModulus {
    static var modulus: U256 {
        U256(l0: 0xf3b9_cac2_fc63_2551, l1: 0xbce6_faad_a717_9e84, l2: 0xffff_ffff_ffff_ffff, l3: 0xffff_ffff_0000_0000)
    }
    static var negatedInverse: UInt64 { 0xccd1_c8aa_ee00_bc4f }
    static var rSquared: U256 {
        U256(l0: 0x8324_4c95_be79_eea2, l1: 0x4699_799c_49bd_6fa6, l2: 0x2845_b239_2b6b_ec59, l3: 0x66e1_2d94_f3d9_5620)
    }
    static var rModulo: U256 {
        U256(l0: 0x0c46_353d_039c_daaf, l1: 0x4319_0552_58e8_617b, l2: 0, l3: 0x0000_0000_ffff_ffff)
    }
}

/// An element of the P-256 base field.
typealias P256FieldElement = Residue<P256Prime>
/// A scalar modulo the P-256 group order.
typealias P256Scalar = Residue<P256Order>
