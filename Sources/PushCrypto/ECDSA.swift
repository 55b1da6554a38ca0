// ECDSA over P-256 with SHA-256 (FIPS 186-4 §6.4), the ES256 of JWS (RFC 7518 §3.4).
//
// High-S: verification accepts any s in 1..<n, including s > n/2. ECDSA signatures are
// malleable ((r, s) and (r, n − s) both verify) and neither JWS ES256 nor APNs requires the
// low-S form that Bitcoin imposes, so a verifier that rejected high-S would refuse tokens
// real APNs accepts. Signing does not normalise s either, so RFC 6979's vectors reproduce.

/// P-256 ECDSA signing and verification on 32-byte digests.
package enum ECDSA {
    /// Whether (r, s) is a valid signature of `digest` under `publicKey`.
    /// Rejects r or s equal to 0 or ≥ n before doing any curve arithmetic.
    package static func verify(r: U256, s: U256, digest: [UInt8], publicKey: P256AffinePoint) -> Bool {
        let n = P256Order.modulus
        guard !r.isZero, !s.isZero, r < n, s < n, digest.count == SHA256.digestByteCount,
              let digestInteger = U256(bigEndian: digest) else { return false }
        let e = P256Scalar(digestInteger)
        let w = P256Scalar(s).inverse()
        let u1 = (e * w).integer
        let u2 = (P256Scalar(r) * w).integer
        let point = P256.multiplyGeneratorAndAdd(u1, u2, publicKey)
        guard let affine = point.affine else { return false }
        // x is below p; reducing mod n is one conditional subtraction (P256Scalar's init).
        return P256Scalar(affine.x.integer).integer == r
    }

    /// The deterministic (RFC 6979) signature of `digest` under the private scalar `d`,
    /// which must be in 1..<n.
    package static func sign(digest: [UInt8], privateKey d: U256) -> (r: U256, s: U256) {
        let e = P256Scalar(U256(bigEndian: digest.prefix(32)) ?? .zero)
        let x = P256Scalar(d)
        var nonces = RFC6979Nonce(privateKey: d.bigEndianBytes, digest: digest)
        while true {
            guard let k = U256(bigEndian: nonces.next()),
                  let kG = P256.multiplyGenerator(k).affine else { continue }
            let r = P256Scalar(kG.x.integer)
            if r.isZero { continue }
            let s = P256Scalar(k).inverse() * (e + r * x)
            if s.isZero { continue }
            return (r.integer, s.integer)
        }
    }
}
