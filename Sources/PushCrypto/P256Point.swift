// Points on P-256 (y² = x³ − 3x + b over the field mod p). Jacobian coordinates
// (x = X/Z², y = Y/Z³) avoid a field inversion per addition; infinity is Z = 0.
// Formulas: dbl-2001-b, add-2007-bl and madd-2007-bl from the Explicit-Formulas Database.

/// A P-256 point in affine coordinates (never infinity), field elements in Montgomery form.
package struct P256AffinePoint: Hashable, Sendable {
    package var x: P256FieldElement
    package var y: P256FieldElement

    /// The curve coefficient b.
    package static let b = P256FieldElement(
        U256(l0: 0x3bce_3c3e_27d2_604b, l1: 0x651d_06b0_cc53_b0f6, l2: 0xb3eb_bd55_7698_86bc, l3: 0x5ac6_35d8_aa3a_93e7))

    /// The standard base point G.
    package static let generator = P256AffinePoint(
        unchecked: P256FieldElement(U256(l0: 0xf4a1_3945_d898_c296, l1: 0x7703_7d81_2deb_33a0, l2: 0xf8bc_e6e5_63a4_40f2, l3: 0x6b17_d1f2_e12c_4247)),
        P256FieldElement(U256(l0: 0xcbb6_4068_37bf_51f5, l1: 0x2bce_3357_6b31_5ece, l2: 0x8ee7_eb4a_7c0f_9e16, l3: 0x4fe3_42e2_fe1a_7f9b)))

    /// Whether y² = x³ − 3x + b.
    package var isOnCurve: Bool {
        let right = x.squared() * x - (x + x + x) + P256AffinePoint.b
        return y.squared() == right
    }

    /// The point with affine integers x, y; `nil` unless both are below p and it is on the
    /// curve (which also rules out infinity, which has no affine form).
    package init?(x xInteger: U256, y yInteger: U256) {
        guard xInteger < P256Prime.modulus, yInteger < P256Prime.modulus else { return nil }
        self.init(unchecked: P256FieldElement(xInteger), P256FieldElement(yInteger))
        guard isOnCurve else { return nil }
    }

    package init(unchecked x: P256FieldElement, _ y: P256FieldElement) {
        self.x = x
        self.y = y
    }

    package var jacobian: P256JacobianPoint { P256JacobianPoint(x: x, y: y, z: .one) }

    /// −self: (x, −y).
    var negated: P256AffinePoint { P256AffinePoint(unchecked: x, -y) }
}

/// A P-256 point in Jacobian coordinates; Z = 0 is the point at infinity.
package struct P256JacobianPoint: Sendable {
    package var x: P256FieldElement
    package var y: P256FieldElement
    package var z: P256FieldElement

    package static let infinity = P256JacobianPoint(x: .one, y: .one, z: .zero)

    package var isInfinity: Bool { z.isZero }

    /// −self: (X, −Y, Z).
    var negated: P256JacobianPoint { P256JacobianPoint(x: x, y: -y, z: z) }

    /// The affine form, or `nil` for infinity. Costs one field inversion.
    package var affine: P256AffinePoint? {
        guard !isInfinity else { return nil }
        let zInverse = z.inverse()
        let zInverseSquared = zInverse.squared()
        return P256AffinePoint(unchecked: x * zInverseSquared, y * zInverseSquared * zInverse)
    }

    /// 2·self (a = −3 doubling; infinity stays infinity because Z3 comes out zero).
    @inline(__always)
    package func doubled() -> P256JacobianPoint {
        let delta = z.squared()
        let gamma = y.squared()
        let beta = x * gamma
        let t = (x - delta) * (x + delta)
        let alpha = t + t + t
        let beta4 = beta.doubled().doubled()
        let x3 = alpha.squared() - beta4.doubled()
        let z3 = (y + z).squared() - gamma - delta
        let gamma2 = gamma.squared()
        let gamma8 = gamma2.doubled().doubled().doubled()
        let y3 = alpha * (beta4 - x3) - gamma8
        return P256JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// self + other for two Jacobian points, handling infinity and equal inputs.
    package func adding(_ other: P256JacobianPoint) -> P256JacobianPoint {
        if isInfinity { return other }
        if other.isInfinity { return self }
        let z1z1 = z.squared()
        let z2z2 = other.z.squared()
        let u1 = x * z2z2
        let u2 = other.x * z1z1
        let s1 = y * other.z * z2z2
        let s2 = other.y * z * z1z1
        let h = u2 - u1
        let r = (s2 - s1).doubled()
        if h.isZero {
            return r.isZero ? doubled() : .infinity
        }
        let i = h.doubled().squared()
        let j = h * i
        let v = u1 * i
        let x3 = r.squared() - j - v.doubled()
        let y3 = r * (v - x3) - (s1 * j).doubled()
        let z3 = ((z + other.z).squared() - z1z1 - z2z2) * h
        return P256JacobianPoint(x: x3, y: y3, z: z3)
    }

    /// self + other for an affine `other` (mixed addition, cheaper: Z2 = 1).
    package func adding(_ other: P256AffinePoint) -> P256JacobianPoint {
        if isInfinity { return other.jacobian }
        let z1z1 = z.squared()
        let u2 = other.x * z1z1
        let s2 = other.y * z * z1z1
        let h = u2 - x
        let r = (s2 - y).doubled()
        if h.isZero {
            return r.isZero ? doubled() : .infinity
        }
        let hh = h.squared()
        let i = hh.doubled().doubled()
        let j = h * i
        let v = x * i
        let x3 = r.squared() - j - v.doubled()
        let y3 = r * (v - x3) - (y * j).doubled()
        let z3 = (z + h).squared() - z1z1 - hh
        return P256JacobianPoint(x: x3, y: y3, z: z3)
    }
}
