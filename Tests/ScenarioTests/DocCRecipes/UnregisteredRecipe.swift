// The listing of FakeAPNs.docc's "Test a 410 Unregistered", compiled and run as a test.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux
#endif
import Testing
import Contracts
import FakeAPNs

/// What your sender does for one push: a POST with a provider token, topic and push type.
func sendAlert(to token: String, baseURL: URL, key: APNsSigningKey) async throws -> (status: Int, body: Data) {
    var request = URLRequest(url: baseURL.appendingPathComponent("3/device/\(token)"))
    request.httpMethod = "POST"
    let providerToken = ProviderToken.mint(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signingKey: key)
    request.setValue("bearer \(providerToken)", forHTTPHeaderField: "authorization")
    request.setValue("com.example.app", forHTTPHeaderField: "apns-topic")
    request.setValue("alert", forHTTPHeaderField: "apns-push-type")
    request.httpBody = Data(#"{"aps":{"alert":"Your order is on its way"},"notificationId":"91"}"#.utf8)
    let (body, response) = try await URLSession(configuration: .ephemeral).data(for: request)
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
}

@Test func anUninstalledAppsTokenGets410WithTheTimeItStopped() async throws {
    let token = String(repeating: "8f1d37aa", count: 8)  // 32 bytes, as hex
    let key = APNsSigningKey.generate()
    try await withFakeAPNs { apns in
        apns.registerSigningKey(key.publicKey, keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        apns.register(token: token, topic: "com.example.app")
        apns.unregister(token: token, at: Date(timeIntervalSince1970: 1_767_225_600))

        let (status, body) = try await sendAlert(to: token, baseURL: apns.baseURL, key: key)

        #expect(status == 410)
        let answer = try JSONDecoder().decode(APNsErrorResponse.self, from: body)
        #expect(answer.reason == .unregistered)
        #expect(answer.timestamp == 1_767_225_600_000)  // milliseconds since 1970
        #expect(apns.deliveredNotifications(for: token).isEmpty)
    }
}
