import Foundation

/// A signing key named on a command line: `KEY_ID:TEAM_ID:FILE.p8`, as `contract-check serve
/// --apns-key` takes it. The file is Apple's PKCS#8 `.p8` (a P-256 private key in PEM) or a
/// PEM public key; only the public half is kept.
public struct APNsKeySpec: Sendable, Hashable {
    /// The key id: the provider token's `kid`.
    public var keyID: String
    /// The team id: the provider token's `iss`.
    public var teamID: String
    /// The key file (`.p8` or public-key PEM).
    public var path: String

    /// Reads `KEY_ID:TEAM_ID:FILE` (the file path may itself contain colons).
    /// - Throws: `FakeAPNsError.badKeySpec` naming what is missing.
    public init(parsing spec: String) throws {
        let parts = spec.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw FakeAPNsError.badKeySpec("--apns-key \(spec): expected KEY_ID:TEAM_ID:FILE.p8, e.g. ABC123DEFG:DEF123GHIJ:AuthKey_ABC123DEFG.p8")
        }
        keyID = parts[0]
        teamID = parts[1]
        path = parts[2]
    }

    /// The public key from the file.
    /// - Throws: `FakeAPNsError.badKeySpec` when the file cannot be read or is not a P-256 key.
    public func loadPublicKey() throws -> APNsPublicKey {
        // Said in words: Foundation's own error for a folder is "NSCocoaErrorDomain error 256".
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw FakeAPNsError.badKeySpec("\(path) does not exist; give the path of the key file (Apple's .p8)")
        }
        guard !isFolder.boolValue else {
            throw FakeAPNsError.badKeySpec("\(path) is a folder; give the path of the key file in it (Apple's .p8)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw FakeAPNsError.badKeySpec("\(path) cannot be read; check its permissions")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw FakeAPNsError.badKeySpec("\(path) is not text; give Apple's .p8 (PEM) key file")
        }
        do {
            return try APNsPublicKey(pemRepresentation: text)
        } catch {
            throw FakeAPNsError.badKeySpec("\(path): \(error)")
        }
    }
}

extension FakeAPNs {
    /// Registers the key a spec names (see ``APNsKeySpec``), for both environments.
    /// - Throws: `FakeAPNsError.badKeySpec`.
    public func registerSigningKey(_ spec: APNsKeySpec, environment: APNsEnvironment? = nil) throws {
        registerSigningKey(try spec.loadPublicKey(), keyID: spec.keyID, teamID: spec.teamID, environment: environment)
    }
}
