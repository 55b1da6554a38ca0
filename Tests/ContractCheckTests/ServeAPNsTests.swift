import Foundation
import Dispatch
import Testing
@testable import ContractCheckCLI
import FakeAPNs
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `contract-check serve` with FakeAPNs: a `.p8` key from the command line verifies the
/// sender's tokens, a token the app PUT to FakeBackend becomes a device, the admin API
/// reaches FakeAPNs.
@Suite struct ServeAPNsTests {
    @Test func servesFakeAPNsBesideTheBackend() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-apns-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = APNsSigningKey.generate()
        let keyFile = directory.appendingPathComponent("AuthKey_ABC123DEFG.p8")
        try Data(key.pemRepresentation.utf8).write(to: keyFile)
        let readyFile = directory.appendingPathComponent("ready.json").path

        let output = ServeCommandTests.Collected()
        let stop = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let status = ServeCommandTests.ExitStatus()
        let arguments = ["--session", "s1=a1", "--ready-file", readyFile, "--apns-topic", "com.example.app",
                         "--apns-key", "ABC123DEFG:DEF123GHIJ:\(keyFile.path)"]
        Thread.detachNewThread {
            status.set(ServeCommand.serve(arguments, output: output, until: stop))
            finished.signal()
        }
        var ready: [String: Any]?
        for _ in 0..<500 where ready == nil {
            if let data = FileManager.default.contents(atPath: readyFile) {
                ready = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        let backendURL = try #require(ready?["backend"] as? String)
        let apnsURL = try #require(ready?["apns"] as? String)
        let adminURL = try #require(ready?["admin"] as? String)
        #expect(output.output.prefix(3) == ["backend \(backendURL)", "apns \(apnsURL)", "admin \(adminURL)"])

        let token = String(repeating: "ab", count: 32)
        // One provider token for the whole run, as a real sender reuses it (a new token on the
        // same connection within 20 minutes is 429 TooManyProviderTokenUpdates).
        let providerToken = ProviderToken.mint(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signingKey: key)
        func push(_ token: String) async throws -> (Int, String) {
            var request = URLRequest(url: try #require(URL(string: apnsURL + "/3/device/" + token)))
            request.httpMethod = "POST"
            request.setValue("bearer " + providerToken, forHTTPHeaderField: "authorization")
            request.setValue("com.example.app", forHTTPHeaderField: "apns-topic")
            request.setValue("alert", forHTTPHeaderField: "apns-push-type")
            request.httpBody = Data(#"{"aps":{"alert":"hi"},"notificationId":"1"}"#.utf8)
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }
        // Unknown until the app registers it with the backend.
        let before = try await push(token)
        #expect(before.0 == 400 && before.1.contains("BadDeviceToken"))

        var put = URLRequest(url: try #require(URL(string: backendURL + "/v1/devices/" + token)))
        put.httpMethod = "PUT"
        put.setValue("Bearer s1", forHTTPHeaderField: "Authorization")
        put.httpBody = Data(#"{"platform":"ios","environment":"sandbox","appVersion":"1.0.0","publicKey":"\#(Data([4] + [UInt8](repeating: 7, count: 64)).base64EncodedString())"}"#.utf8)
        let (_, putResponse) = try await URLSession.shared.data(for: put)
        #expect((putResponse as? HTTPURLResponse)?.statusCode == 204)

        let after = try await push(token)
        #expect(after.0 == 200)
        let (deliveries, _) = try await URLSession.shared.data(from: try #require(URL(string: adminURL + "/apns/deliveries?token=" + token)))
        #expect(String(decoding: deliveries, as: UTF8.self).contains(#""apnsID""#))

        #expect(output.output.contains { $0.contains(" apns POST /3/device/abababab…abab 400 BadDeviceToken") })
        #expect(output.output.contains { $0.contains(" apns POST /3/device/abababab…abab 200 delivery=delivered") })

        stop.signal()
        finished.wait()
        #expect(status.value == 0)
    }
}
