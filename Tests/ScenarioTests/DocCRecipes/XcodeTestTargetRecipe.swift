// The listings of FakeBackend.docc's "Add the fakes to an Xcode test target", compiled and
// run as tests. DocCListingTests checks that every ```swift block of the catalogs' articles
// is in one of these files, so an article cannot show code that does not compile.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux
#endif
import Testing
import XCTest
import FakeBackend
import LoopbackHTTP

/// A device registration body as the `device-registration` contract wants it.
let registrationBody = Data("""
    {"platform": "ios", "environment": "sandbox", "appVersion": "1.0.0",
     "publicKey": "BPhVRjEcONmeSRz8X2ugVwdMr7BxVOrc/d454co1VWFd43zfdtEnBusGPMoQR/dSNJdNhvBy6dT3g2ZhN+qoJNE="}
    """.utf8)

/// What your app's networking code does on sign-in: PUT the device token.
func registerDevice(token: String, baseURL: URL, bearer: String) async throws -> Int {
    var request = URLRequest(url: baseURL.appendingPathComponent("v1/devices/\(token)"))
    request.httpMethod = "PUT"
    request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = registrationBody
    let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
    return (response as? HTTPURLResponse)?.statusCode ?? 0
}

@Test func signInRegistersTheDevice() async throws {
    try await withFakeBackend(configuration: .init(sessions: ["test-bearer": "alice"])) { backend in
        let status = try await registerDevice(token: "00fa11ce", baseURL: backend.baseURL, bearer: "test-bearer")
        #expect(status == 204)
        let device = try await backend.waitForDevice(token: "00fa11ce", account: "alice")
        #expect(device.environment == "sandbox")
    }
}

final class DeviceRegistrationTests: XCTestCase {
    private var backend: FakeBackend!

    override func setUpWithError() throws {
        backend = try FakeBackend.startListening(configuration: .init(sessions: ["test-bearer": "alice"]))
    }

    override func tearDown() {
        backend.stopListening()
    }

    func testARegistrationWithoutABearerIsRefused() async throws {
        let status = try await registerDevice(token: "00fa11ce", baseURL: backend.baseURL, bearer: "")
        XCTAssertEqual(status, 401)
        XCTAssertNil(backend.devices["00fa11ce"])
    }
}

@Test func theBackendServesHTTPSWithACAToTrust() async throws {
    let caDirectory = ProcessInfo.processInfo.environment["PUSHCONTRACTS_CA_DIR"]
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("pushcontracts-ca").path
    var configuration = FakeBackend.Configuration(sessions: ["test-bearer": "alice"])
    configuration.tls = try LoopbackTLS.reusing(caDirectory: caDirectory)
    try await withFakeBackend(configuration: configuration) { backend in
        #expect(backend.baseURL.scheme == "https")
        let ca = try String(contentsOfFile: caDirectory + "/ca.pem", encoding: .utf8)
        #expect(ca.hasPrefix("-----BEGIN CERTIFICATE-----"))
    }
}
