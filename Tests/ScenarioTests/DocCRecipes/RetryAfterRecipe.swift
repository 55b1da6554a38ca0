// The listing of FakeBackend.docc's "Test throttling with Retry-After on the test clock",
// compiled and run as a test.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession on Linux
#endif
import Testing
import FakeBackend

/// Your client's retry: on 429 it sleeps `Retry-After` seconds on the clock it is given
/// (the wall clock in the app, the test clock in tests), then tries again, three times at most.
func registerDeviceRetrying(token: String, baseURL: URL, bearer: String, clock: PushClock) async throws -> Int {
    var request = URLRequest(url: baseURL.appendingPathComponent("v1/devices/\(token)"))
    request.httpMethod = "PUT"
    request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = registrationBody
    for _ in 1...3 {
        let (_, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        guard let http = response as? HTTPURLResponse else { return 0 }
        guard http.statusCode == 429 else { return http.statusCode }
        let seconds = Int(http.value(forHTTPHeaderField: "Retry-After") ?? "") ?? 1
        await clock.sleep(for: .seconds(seconds))
    }
    return 429
}

@Test func theClientWaitsRetryAfterOnTheTestClock() async throws {
    let clock = PushClock(skippingSleepsFrom: Date(timeIntervalSince1970: 1_767_225_600))
    let configuration = FakeBackend.Configuration(sessions: ["test-bearer": "alice"], clock: clock)
    try await withFakeBackend(configuration: configuration) { backend in
        backend.addFault(.tooManyRequests(retryAfter: 600), on: .putDevice)

        let status = try await registerDeviceRetrying(token: "00fa11ce", baseURL: backend.baseURL,
                                                      bearer: "test-bearer", clock: clock)

        #expect(status == 204)
        #expect(backend.journal.map(\.status) == [429, 204])
        #expect(clock.now.timeIntervalSince1970 >= 1_767_225_600 + 600)  // ten minutes, in no wall time
    }
}
