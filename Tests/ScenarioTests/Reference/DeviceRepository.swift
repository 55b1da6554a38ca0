import Foundation
import Contracts

/// Card 8: keeps the backend's record of this phone's token right.
///
/// PUT /v1/devices/{token} only when the token or the account differ from the last success;
/// DELETE at sign-out with the signed-out account's credentials. A DELETE that fails stays
/// pending, with those credentials, and is sent again when the app resumes or registers.
/// A 429 is retried after its Retry-After, never before.
actor DeviceRepository {
    private let backend: URL
    private let http: HTTPExchange
    private let backoff: Backoff
    private let flaws: Flaws
    private let maxAttempts = 4

    private struct Registration: Equatable {
        var token: String
        var account: String
        var bearer: String
    }
    /// The last registration the backend confirmed.
    private var registered: Registration?
    /// A DELETE the backend has not confirmed yet: the token and the old account's bearer.
    private(set) var pendingDelete: (token: String, bearer: String)?

    init(backend: URL, http: HTTPExchange, backoff: Backoff, flaws: Flaws) {
        self.backend = backend
        self.http = http
        self.backoff = backoff
        self.flaws = flaws
    }

    /// Registers `token` for `account` unless that is what the backend already has.
    /// - Returns: true when the backend has it.
    @discardableResult
    func register(token: String, account: String, bearer: String) async -> Bool {
        await sendPendingDelete()
        let wanted = Registration(token: token, account: account, bearer: bearer)
        if registered == wanted { return true }
        let registration = DeviceRegistration(environment: .sandbox, appVersion: "4.2.0", publicKey: Self.devicePublicKey)
        let body = try? JSONEncoder().encode(registration)
        for attempt in 1...maxAttempts {
            do {
                let answer = try await http.send("PUT", url(token), headers: [
                    "Authorization": "Bearer \(bearer)", "Content-Type": "application/json"], body: body)
                switch answer.status {
                case 200, 204:
                    registered = wanted
                    return true
                case 429:
                    // Retry-After is in seconds; without it, the usual backoff.
                    let seconds = answer.header("Retry-After").flatMap(Int.init)
                    if flaws.contains(.noBackoff) { continue }
                    if let seconds { await backoff.sleep(.seconds(seconds)) } else { await backoff.wait(attempt: attempt) }
                case 500...:
                    await backoff.wait(attempt: attempt)
                default:
                    return false  // a 4xx is a bug in this request: sending it again will not help
                }
            } catch {
                await backoff.wait(attempt: attempt)
            }
        }
        return false
    }

    /// Removes the token at sign-out; call before the session drops the credentials. A
    /// failure leaves the DELETE pending.
    func unregister() async {
        guard let registration = registered else { return }
        registered = nil
        pendingDelete = (registration.token, registration.bearer)
        await sendPendingDelete()
        if flaws.contains(.noPendingDelete) { pendingDelete = nil }
    }

    /// Sends the pending DELETE, if any; it stays pending when the backend cannot be reached.
    func sendPendingDelete() async {
        guard let pending = pendingDelete else { return }
        guard let answer = try? await http.send("DELETE", url(pending.token),
                                                headers: ["Authorization": "Bearer \(pending.bearer)"]) else { return }
        // 204: gone. 404: another account holds the token now; nothing of ours is left.
        if answer.status == 204 || answer.status == 404 { pendingDelete = nil }
    }

    private func url(_ token: String) -> URL {
        backend.appendingPathComponent("v1/devices/\(token)")
    }

    /// Base64 of a 65-byte uncompressed P-256 point (what the keychain's key would export).
    static let devicePublicKey = Data([4] + [UInt8](repeating: 7, count: 64)).base64EncodedString()
}
