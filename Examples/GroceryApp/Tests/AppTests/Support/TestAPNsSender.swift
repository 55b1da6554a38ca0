import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import App
import Contracts
import PushScenarios

/// A small APNs client for the scenarios, as the backend would have: HTTP/1.1 over
/// URLSession, one provider token minted and reused, backoff on 429 and 5xx through the
/// scenario's clock, and a token dropped on 410 until it registers again. Its Live Activity
/// side (`order-tracker`) is ``OrderTrackerPusher``, over the app's `HTTPClient`.
actor TestAPNsSender: ScenarioSender {
    private let environment: ScenarioEnvironment
    private let providerToken: String
    private let session: URLSession
    private var tokens: Set<String> = []
    private let maxAttempts = 8
    let tracker: OrderTrackerPusher

    init(_ environment: ScenarioEnvironment) {
        self.environment = environment
        let providerToken = environment.providerToken()
        self.providerToken = providerToken
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        session = URLSession(configuration: configuration)
        let clock = environment.clock
        tracker = OrderTrackerPusher(http: URLSessionHTTPClient(baseURL: environment.apnsURL, timeout: 5),
                                     bundleID: environment.topic, providerToken: providerToken, now: { clock.now })
    }

    func tokenRegistered(_ token: String) {
        tokens.insert(token)
    }

    func send(_ payload: PushPayload, to token: String) async {
        guard tokens.contains(token), let body = try? JSONEncoder().encode(payload) else { return }
        var request = URLRequest(url: environment.apnsURL.appendingPathComponent("3/device/\(token)"))
        request.httpMethod = "POST"
        request.httpBody = body
        for (name, value) in ["authorization": "bearer \(providerToken)", "apns-topic": environment.topic,
                              "apns-push-type": "alert", "apns-priority": "10", "apns-id": UUID().uuidString] {
            request.setValue(value, forHTTPHeaderField: name)
        }
        var delay = Duration.milliseconds(250)
        for _ in 1...maxAttempts {
            let status = (try? await session.data(for: request)).flatMap { ($0.1 as? HTTPURLResponse)?.statusCode }
            switch status {
            case 200?:
                return
            case 410?:
                tokens.remove(token)  // Unregistered: nothing more to this token until it registers again
                return
            case 429?, nil, (500...)?:
                await environment.clock.sleep(for: delay)
                delay = min(delay * 2, .seconds(4))
            default:
                return  // 400, 403, 413: the same request would fail the same way
            }
        }
    }
}
