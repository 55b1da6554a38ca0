import Contracts
import Foundation

/// Reads a compact JWS (`header.claims.signature`, base64url) into ``ProviderTokenParts``.
///
/// A provider token needs `alg` and `kid` in the header and `iss` (team id, string) and
/// `iat` (integer seconds) in the claims; anything else (a boolean `iat`, a duplicated
/// key) is not a provider token.
package enum ProviderTokenShape {
    package static func decode(_ token: String) -> ProviderTokenParts? {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3,
              let headerBytes = base64URLDecode(pieces[0]),
              let claimBytes = base64URLDecode(pieces[1]),
              let signature = base64URLDecode(pieces[2]),
              let header = try? JSONReader.parse(headerBytes, maxDepth: 8),
              let claims = try? JSONReader.parse(claimBytes, maxDepth: 8),
              header.duplicateKeys.isEmpty, claims.duplicateKeys.isEmpty,
              let alg = header.member("alg")?.value.stringValue,
              let kid = header.member("kid")?.value.stringValue,
              let iss = claims.member("iss")?.value.stringValue,
              let iat = claims.member("iat")?.value.integerValue
        else { return nil }
        let signingInput = Array(token.utf8.prefix(pieces[0].utf8.count + 1 + pieces[1].utf8.count))
        return ProviderTokenParts(keyID: kid, algorithm: alg, teamID: iss, issuedAt: iat,
                                  signingInput: signingInput, signature: signature)
    }

    package static func base64URLDecode<S: StringProtocol>(_ text: S) -> [UInt8]? {
        var table = [Int8](repeating: -1, count: 128)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(c)] = Int8(i)
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for c in text.utf8 {
            guard c < 128 else { return nil }
            let v = table[Int(c)]
            guard v >= 0 else { return nil }
            buffer = (buffer << 6) | UInt32(v)
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        // A single leftover character (6 bits) cannot encode a byte.
        guard bits < 6 else { return nil }
        return out
    }

    package static func base64URLEncode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
