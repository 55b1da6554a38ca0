import Foundation
import FakeAPNs

/// A provider-token key FakeAPNs verifies in `contract-check serve`: from
/// `--apns-key KEY_ID:TEAM_ID:FILE.p8`, or the development key serve makes when none is
/// given. With the private half (a `.p8` is one), serve can also mint tokens for it
/// (`GET /apns/provider-token` on the admin API).
struct ServeAPNsKey: Sendable {
    var keyID: String
    var teamID: String
    var publicKey: APNsPublicKey
    var signingKey: APNsSigningKey?

    /// The key id and team of the development key.
    static let developmentKeyID = "DEVKEY0001"
    static let developmentTeamID = "DEVTEAM001"

    /// A fresh development key (new each run; tokens from an earlier run do not verify).
    static func development() -> ServeAPNsKey {
        let key = APNsSigningKey.generate()
        return ServeAPNsKey(keyID: developmentKeyID, teamID: developmentTeamID, publicKey: key.publicKey, signingKey: key)
    }

    /// Parses `KEY_ID:TEAM_ID:FILE` (the file may itself contain colons) and reads the PEM:
    /// a private key (`.p8`, PKCS#8 or SEC1) or a public key.
    static func load(_ option: String) throws(ServeCommand.UsageProblem) -> ServeAPNsKey {
        let parts = option.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw .init(message: "--apns-key expects KEY_ID:TEAM_ID:FILE.p8, found '\(option)'.")
        }
        guard let data = FileManager.default.contents(atPath: parts[2]) else {
            throw .init(message: "--apns-key: cannot read '\(parts[2])'.")
        }
        let pem = String(decoding: data, as: UTF8.self)
        if let signing = try? APNsSigningKey(pemRepresentation: pem) {
            return ServeAPNsKey(keyID: parts[0], teamID: parts[1], publicKey: signing.publicKey, signingKey: signing)
        }
        do {
            return ServeAPNsKey(keyID: parts[0], teamID: parts[1], publicKey: try APNsPublicKey(pemRepresentation: pem))
        } catch {
            throw .init(message: "--apns-key: '\(parts[2])' is not an ES256 key in PEM: \(error).")
        }
    }

    /// A provider token for this key, issued now; nil without the private half.
    func mint(now: Date = Date()) -> String? {
        signingKey.map { ProviderToken.mint(keyID: keyID, teamID: teamID, issuedAt: now, signingKey: $0) }
    }
}
