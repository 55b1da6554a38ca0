import Foundation
import Contracts
import FakeAPNs
import PushScenarios

/// The reference sender: the backend's APNs client over HTTP/1.1 (URLSession). Backs off on
/// 429 and 5xx, removes a token on 410 and sends nothing to it until it registers again.
actor ReferenceSender: ScenarioSender {
    private let apns: URL
    private let topic: String
    /// Minted once and reused: APNs refuses a connection's token changing every request.
    private let providerToken: String
    private let http = HTTPExchange()
    private let backoff: Backoff
    private let flaws: Flaws
    private let maxAttempts = 8
    /// Tokens the backend may send to.
    private var tokens: Set<String> = []
    /// Tokens APNs answered 410 for, with its timestamp (ms).
    private(set) var unregistered: [String: Int64] = [:]

    init(_ environment: ScenarioEnvironment, flaws: Flaws = [], backoff: Backoff? = nil) {
        // Waits go through the scenario's clock: a Retry-After costs no wall time.
        let backoff = backoff ?? Backoff(clock: environment.clock)
        apns = environment.apnsURL
        topic = environment.topic
        providerToken = environment.providerToken()
        self.backoff = backoff
        self.flaws = flaws
    }

    func tokenRegistered(_ token: String) {
        tokens.insert(token)
        unregistered[token] = nil
    }

    func send(_ payload: PushPayload, to token: String) async {
        guard tokens.contains(token), let body = try? JSONEncoder().encode(payload) else { return }
        let url = apns.appendingPathComponent("3/device/\(token)")
        let headers = ["authorization": "bearer \(providerToken)", "apns-topic": topic, "apns-push-type": "alert",
                       "apns-priority": "10", "apns-id": UUID().uuidString]
        for attempt in 1...maxAttempts {
            guard let answer = try? await http.send("POST", url, headers: headers, body: body) else {
                await backoff.wait(attempt: attempt)  // lost connection: the push may or may not be in
                continue
            }
            switch answer.status {
            case 200:
                return
            case 410 where !flaws.contains(.retryOn410):
                tokens.remove(token)
                unregistered[token] = Self.timestamp(answer.body)
                return
            case 410, 500...:
                await backoff.wait(attempt: attempt)
            case 429:
                if !flaws.contains(.noBackoff) { await backoff.wait(attempt: attempt) }
            default:
                return  // 400, 403, 413: our request is wrong; the same request would be too
            }
        }
    }

    /// The `timestamp` of a 410 body, `{"reason":"Unregistered","timestamp":…}`.
    private static func timestamp(_ body: Data) -> Int64 {
        struct Unregistered: Decodable { var timestamp: Int64? }
        return (try? JSONDecoder().decode(Unregistered.self, from: body))?.timestamp ?? 0
    }
}
