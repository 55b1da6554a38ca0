// X25519 public keys, k·9, without the ladder: on the birationally equivalent twisted Edwards
// curve (edwards25519, RFC 7748 §4.1: −x² + y² = 1 + d·x²·y²) the base point has a one-time
// table of j·16^i·B, so k·B is at most 64 table additions; u = (1 + y)/(1 − y) maps it back
// (RFC 7748 §4.1), one inversion. About a third of the ladder's work: a TLS handshake makes
// one public key per connection.
//
// Not constant-time: the table index is the secret scalar's digit. A loopback test fake's
// handshake keys only; never for keys that matter.

extension X25519 {
    /// X25519(k, 9) by the fixed-base table; equal to `scalarMultiply(k, basePoint)`.
    static func fixedBasePublicKey(_ scalar: [UInt8]) -> [UInt8] {
        let k = clamped(scalar)
        var sum = EdwardsPoint.identity
        EdwardsPoint.baseTable.withUnsafeBufferPointer { table in
            for index in 0..<64 {
                let digit = Int(k[index >> 1] >> UInt8((index & 1) * 4)) & 0xf
                if digit != 0 {
                    sum = sum.adding(table[index &* 15 &+ digit &- 1])
                }
            }
        }
        // y = Y/Z, so u = (Z + Y)/(Z − Y); Z ≠ Y as k·B is never the identity for a clamped k.
        return ((sum.z + sum.y) * (sum.z - sum.y).inverse()).littleEndianBytes
    }

    /// k with RFC 7748's clamping: the low three bits cleared, bit 254 set, bit 255 cleared.
    static func clamped(_ scalar: [UInt8]) -> [UInt8] {
        var k = Array(scalar.prefix(32)) + [UInt8](repeating: 0, count: max(0, 32 - scalar.count))
        k[0] &= 248
        k[31] &= 127
        k[31] |= 64
        return k
    }
}

/// A point of edwards25519 in extended coordinates (x = X/Z, y = Y/Z, x·y = T/Z).
struct EdwardsPoint {
    var x: Curve25519Field, y: Curve25519Field, z: Curve25519Field, t: Curve25519Field

    static let identity = EdwardsPoint(x: .zero, y: .one, z: .one, t: .zero)

    /// An affine point as the addition formula wants it: y + x, y − x and 2d·x·y.
    struct Precomputed {
        var yPlusX: Curve25519Field, yMinusX: Curve25519Field, xy2d: Curve25519Field
    }

    /// self + q (Hisil–Wong–Carter–Dawson, a = −1, q affine): complete, no special cases.
    @inline(__always)
    func adding(_ q: Precomputed) -> EdwardsPoint {
        let a = (y - x) * q.yMinusX
        let b = (y + x) * q.yPlusX
        let c = t * q.xy2d
        let d = z + z
        let e = b - a, f = d - c, g = d + c, h = b + a
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// d = −121665/121666 (RFC 7748 §4.1), and 2d.
    static let d = field(hex: "52036cee2b6ffe738cc740797779e89800700a4d4141d8ab75eb4dca135978a3")
    static let d2 = d * Curve25519Field(l0: 2, l1: 0, l2: 0, l3: 0, l4: 0)

    /// The base point B (RFC 7748 §4.1: y = 4/5, the u = 9 point), affine.
    static let base = (x: field(hex: "216936d3cd6e53fec0a4e231fdd6dc5c692cc7609525a7b2c9562d608f25d51a"),
                       y: field(hex: "6666666666666666666666666666666666666666666666666666666666666658"))

    /// baseTable[15·i + j − 1] = j·16^i·B for i in 0..<64, j in 1...15 (960 points, ~115 KiB),
    /// built on first use: per row, the multiples by mixed addition and one shared inversion.
    static let baseTable: [Precomputed] = {
        var table: [Precomputed] = []
        table.reserveCapacity(64 * 15)
        var row = precomputed(x: base.x, y: base.y)  // 16^i·B
        for _ in 0..<64 {
            // 1…16 times the row's point, in extended coordinates, then all made affine.
            var multiples: [EdwardsPoint] = [EdwardsPoint.identity.adding(row)]
            for _ in 2...16 { multiples.append(multiples[multiples.count - 1].adding(row)) }
            let affine = affinePoints(multiples)
            table.append(contentsOf: affine.prefix(15))
            row = affine[15]
        }
        return table
    }()

    /// The precomputed forms of points (Z ≠ 0), with one inversion (Montgomery's trick).
    private static func affinePoints(_ points: [EdwardsPoint]) -> [Precomputed] {
        var prefixes: [Curve25519Field] = []
        var running = Curve25519Field.one
        for point in points {
            running = running * point.z
            prefixes.append(running)
        }
        var inverse = running.inverse()
        var result = [Precomputed](repeating: Precomputed(yPlusX: .one, yMinusX: .one, xy2d: .zero), count: points.count)
        for index in stride(from: points.count - 1, through: 0, by: -1) {
            let zInverse = index > 0 ? inverse * prefixes[index - 1] : inverse
            inverse = inverse * points[index].z
            result[index] = precomputed(x: points[index].x * zInverse, y: points[index].y * zInverse)
        }
        return result
    }

    private static func precomputed(x: Curve25519Field, y: Curve25519Field) -> Precomputed {
        Precomputed(yPlusX: y + x, yMinusX: y - x, xy2d: x * y * d2)
    }

    /// A field element from 64 big-endian hex digits (constants only).
    private static func field(hex: String) -> Curve25519Field {
        var bytes: [UInt8] = []
        var digits = Array(hex.utf8)
        while digits.count >= 2 {
            let pair = String(decoding: digits.suffix(2), as: UTF8.self)
            bytes.append(UInt8(pair, radix: 16) ?? 0)
            digits.removeLast(2)
        }
        return Curve25519Field(littleEndian: bytes)
    }
}
