import Foundation
import Contracts

/// Card 7's opens: POST /v1/notifications/{id}/opened once per id, retried when the answer
/// is lost. Every attempt of one report carries the same `Idempotency-Key`, so a correct
/// backend counts a retry of an applied report as the same open.
actor OpensReporter {
    private let backend: URL
    private let http: HTTPExchange
    private let backoff: Backoff
    private let dedupes: Bool
    private let maxAttempts = 4
    private var reported: Set<NotificationID> = []

    init(backend: URL, http: HTTPExchange, backoff: Backoff, flaws: Flaws) {
        self.backend = backend
        self.http = http
        self.backoff = backoff
        dedupes = !flaws.contains(.noDedupe)
    }

    /// Reports one open. Never throws: it lands or is dropped after a few retries.
    func markOpened(_ id: NotificationID, action: NotificationOpened.Action, bearer: String) async {
        if dedupes, !reported.insert(id).inserted { return }
        let key = UUID().uuidString
        let body = try? JSONEncoder().encode(NotificationOpened(action: action))
        let url = backend.appendingPathComponent("v1/notifications/\(id.rawValue)/opened")
        for attempt in 1...maxAttempts {
            if let answer = try? await http.send("POST", url, headers: [
                "Authorization": "Bearer \(bearer)", "Content-Type": "application/json", "Idempotency-Key": key], body: body),
               answer.status < 500, answer.status != 429 {
                return  // 204, or a 4xx that a retry will not fix
            }
            await backoff.wait(attempt: attempt)
        }
    }
}
