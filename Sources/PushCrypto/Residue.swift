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
}

extension MontgomeryModulus {
    /// 2^256 mod m, one in Montgomery form: 2^256 − m, as m > 2^255 (folds to a constant).
    @inline(__always)
    package static var rModulo: U256 { U256.zero.subtractingReportingBorrow(modulus).difference }
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
        let (reduced, borrow) = sum.subtractingReportingBorrow(Modulus.modulus)
        return Residue(montgomery: carry || !borrow ? reduced : sum)
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
    package func squared() -> Residue {
        if Modulus.self == P256Prime.self { return Residue(montgomery: U256.p256MontgomerySquare(montgomery)) }
        return self * self
    }

    @inline(__always)
    package func doubled() -> Residue { self + self }

    /// self^exponent with fixed 4-bit windows: self^0…self^15 once, then per hex digit of
    /// the exponent (most significant first) four squarings and at most one multiplication.
    package func power(_ exponent: U256) -> Residue {
        var powers = (Residue.one, self, Residue.one, Residue.one, Residue.one, Residue.one, Residue.one, Residue.one,
                      Residue.one, Residue.one, Residue.one, Residue.one, Residue.one, Residue.one, Residue.one, Residue.one)
        return withUnsafeMutableBytes(of: &powers) { raw in
            let table = raw.bindMemory(to: Residue.self)
            for index in 2..<16 { table[index] = table[index - 1] * self }
            var result = Residue.one
            var started = false
            for index in stride(from: 63, through: 0, by: -1) {
                if started { result = result.squared().squared().squared().squared() }
                let digit = exponent.nibble(index)
                if digit != 0 {
                    result = started ? result * table[digit] : table[digit]
                    started = true
                }
            }
            return result
        }
    }

    /// The multiplicative inverse by Fermat (m is prime for both P-256 moduli); zero maps to
    /// zero, which callers rule out beforehand. The field's own has a shorter chain
    /// (`P256FieldElement.inverse`).
    package func inverse() -> Residue {
        power(Modulus.modulus.subtractingReportingBorrow(U256(l0: 2, l1: 0, l2: 0, l3: 0)).difference)
    }

    /// Montgomery product a · b · 2^-256 mod m.
    @inline(__always)
    package static func multiply(_ a: U256, _ b: U256) -> U256 {
        if Modulus.self == P256Prime.self { return U256.p256MontgomeryProduct(a, b) }  // folded per specialisation
        return U256.montgomeryProduct(a, b, modulus: Modulus.modulus, negatedInverse: Modulus.negatedInverse)
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
        let (reduced, borrow) = value.subtractingReportingBorrow(m)
        return t4 != 0 || !borrow ? reduced : value
    }

    /// `montgomeryProduct` for the P-256 prime, whose shape makes the reduction cheap:
    /// −p⁻¹ ≡ 1 mod 2^64, so u is the low limb itself, and u·p adds up to u·2^32 and
    /// u·(2^64 − 2^32 + 1)·2^128 once divided by 2^64 — one multiplication per round, not four.
    @inline(__always)
    package static func p256MontgomeryProduct(_ a: U256, _ b: U256) -> U256 {
        var t: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
        t = p256Round(t, a, b.l0)
        t = p256Round(t, a, b.l1)
        t = p256Round(t, a, b.l2)
        t = p256Round(t, a, b.l3)
        let value = U256(l0: t.0, l1: t.1, l2: t.2, l3: t.3)
        let (reduced, borrow) = value.subtractingReportingBorrow(P256Prime.modulus)
        return t.4 != 0 || !borrow ? reduced : value
    }

    /// a² · 2^-256 mod p: the six cross products once, doubled, and the four squares (ten
    /// multiplications, not sixteen), then the 512-bit square's low half reduced by four
    /// `p256Round`s (with nothing to multiply in) and its high half added.
    @inline(__always)
    package static func p256MontgomerySquare(_ a: U256) -> U256 {
        var carry: UInt64
        var t1: UInt64, t2: UInt64, t3: UInt64, t4: UInt64, t5: UInt64, t6: UInt64
        (t1, carry) = multiplyAccumulate(0, a.l0, a.l1, 0)
        (t2, carry) = multiplyAccumulate(0, a.l0, a.l2, carry)
        (t3, carry) = multiplyAccumulate(0, a.l0, a.l3, carry)
        (t3, t4) = multiplyAccumulate(t3, a.l1, a.l2, 0)
        (t4, t5) = multiplyAccumulate(carry, a.l1, a.l3, t4)
        (t5, t6) = multiplyAccumulate(t5, a.l2, a.l3, 0)
        let t7 = t6 >> 63  // the cross products doubled
        t6 = t6 << 1 | t5 >> 63
        t5 = t5 << 1 | t4 >> 63
        t4 = t4 << 1 | t3 >> 63
        t3 = t3 << 1 | t2 >> 63
        t2 = t2 << 1 | t1 >> 63
        t1 <<= 1
        let (h0, t0) = a.l0.multipliedFullWidth(by: a.l0)
        let (h1, s1) = a.l1.multipliedFullWidth(by: a.l1)
        let (h2, s2) = a.l2.multipliedFullWidth(by: a.l2)
        let (h3, s3) = a.l3.multipliedFullWidth(by: a.l3)
        var c: Bool
        (t1, c) = t1.addingReportingOverflow(h0)
        (t2, c) = addWithCarry(t2, s1, c)
        (t3, c) = addWithCarry(t3, h1, c)
        (t4, c) = addWithCarry(t4, s2, c)
        (t5, c) = addWithCarry(t5, h2, c)
        (t6, c) = addWithCarry(t6, s3, c)
        let (top, _) = addWithCarry(t7, h3, c)  // a² < 2^512: no carry out
        var r: (UInt64, UInt64, UInt64, UInt64, UInt64) = (t0, t1, t2, t3, 0)
        r = p256Round(r, .zero, 0)
        r = p256Round(r, .zero, 0)
        r = p256Round(r, .zero, 0)
        r = p256Round(r, .zero, 0)
        let (v0, d0) = r.0.addingReportingOverflow(t4)
        let (v1, d1) = addWithCarry(r.1, t5, d0)
        let (v2, d2) = addWithCarry(r.2, t6, d1)
        let (v3, d3) = addWithCarry(r.3, top, d2)
        let value = U256(l0: v0, l1: v1, l2: v2, l3: v3)
        let (reduced, borrow) = value.subtractingReportingBorrow(P256Prime.modulus)
        return r.4 != 0 || d3 || !borrow ? reduced : value
    }

    /// (t + a·word + u·p) / 2^64 for the P-256 prime, u the low limb of t + a·word.
    @inline(__always)
    private static func p256Round(
        _ t: (UInt64, UInt64, UInt64, UInt64, UInt64), _ a: U256, _ word: UInt64
    ) -> (UInt64, UInt64, UInt64, UInt64, UInt64) {
        let (r0, r1, r2, r3, r4, top) = accumulate(t, a, word)
        // r0 + u·(2^64 − 1) = u·2^64 (u = r0) joins u·(2^32 − 1)·2^64 as u·2^96; p's top limb
        // contributes u·(2^64 − 2^32 + 1)·2^192. Shifted down a limb: u·2^32 and that ·2^128.
        let u = r0
        let (yHigh, yLow) = u.multipliedFullWidth(by: 0xffff_ffff_0000_0001)
        let (n0, c0) = r1.addingReportingOverflow(u << 32)
        let (n1, c1) = addWithCarry(r2, u >> 32, c0)
        let (n2, c2) = addWithCarry(r3, yLow, c1)
        let (n3, c3) = addWithCarry(r4, yHigh, c2)
        return (n0, n1, n2, n3, (top ? 1 : 0) &+ (c3 ? 1 : 0))
    }

    /// t + a·word as five limbs and a carry out of the fifth.
    @inline(__always)
    private static func accumulate(
        _ t: (UInt64, UInt64, UInt64, UInt64, UInt64), _ a: U256, _ word: UInt64
    ) -> (UInt64, UInt64, UInt64, UInt64, UInt64, Bool) {
        var carry: UInt64
        let r0: UInt64, r1: UInt64, r2: UInt64, r3: UInt64
        (r0, carry) = multiplyAccumulate(t.0, a.l0, word, 0)
        (r1, carry) = multiplyAccumulate(t.1, a.l1, word, carry)
        (r2, carry) = multiplyAccumulate(t.2, a.l2, word, carry)
        (r3, carry) = multiplyAccumulate(t.3, a.l3, word, carry)
        let (r4, top) = t.4.addingReportingOverflow(carry)
        return (r0, r1, r2, r3, r4, top)
    }

    /// (t + a·word + u·m) / 2^64, with u = t0'·k making the division exact.
    @inline(__always)
    private static func montgomeryRound(
        _ t: (UInt64, UInt64, UInt64, UInt64, UInt64), _ a: U256, _ word: UInt64, _ m: U256, _ k: UInt64
    ) -> (UInt64, UInt64, UInt64, UInt64, UInt64) {
        let (r0, r1, r2, r3, r4, top) = accumulate(t, a, word)
        let u = r0 &* k
        var carry: UInt64
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
    package static var modulus: U256 { U256(l0: ~0, l1: 0xffff_ffff, l2: 0, l3: 0xffff_ffff_0000_0001) }
    package static var negatedInverse: UInt64 { 1 }
    package static var rSquared: U256 { U256(l0: 3, l1: 0xffff_fffb_ffff_ffff, l2: 0xffff_ffff_ffff_fffe, l3: 0x4_ffff_fffd) }
}

/// The order n of the P-256 base point.
package enum P256Order: MontgomeryModulus {
    package static var modulus: U256 { U256(l0: 0xf3b9_cac2_fc63_2551, l1: 0xbce6_faad_a717_9e84, l2: ~0, l3: 0xffff_ffff_0000_0000) }
    package static var negatedInverse: UInt64 { 0xccd1_c8aa_ee00_bc4f }
    package static var rSquared: U256 {
        U256(l0: 0x8324_4c95_be79_eea2, l1: 0x4699_799c_49bd_6fa6, l2: 0x2845_b239_2b6b_ec59, l3: 0x66e1_2d94_f3d9_5620)
    }
}

/// An element of the P-256 base field.
package typealias P256FieldElement = Residue<P256Prime>
/// A scalar modulo the P-256 group order.
package typealias P256Scalar = Residue<P256Order>

extension Residue where Modulus == P256Prime {
    /// self^(p − 2) = self⁻¹ with an addition chain: 255 squarings and 12 multiplications
    /// instead of the windowed power's ~78. p − 2, from the top bit: 32 ones, 31 zeros, a one,
    /// 96 zeros, 94 ones, 0, 1. Zero maps to zero.
    package func inverse() -> Residue {
        let x2 = squared() * self                       // self^(2^2 − 1)
        let x3 = x2.squared() * self                    // 2^3 − 1
        let x6 = x3.squaring(3) * x3
        let x12 = x6.squaring(6) * x6
        let x15 = x12.squaring(3) * x3
        let x30 = x15.squaring(15) * x15
        let x32 = x30.squaring(2) * x2
        var result = x32.squaring(32) * self            // 32 ones, 31 zeros, 1
        result = result.squaring(128) * x32             // 96 zeros, 32 ones
        result = result.squaring(32) * x32              // 32 more ones
        result = result.squaring(30) * x30              // 30 more: 94
        return result.squaring(2) * self                // 0, 1
    }

    /// self^(2^count): `count` squarings.
    @inline(__always)
    private func squaring(_ count: Int) -> Residue {
        var result = self
        for _ in 0..<count { result = result.squared() }
        return result
    }
}
