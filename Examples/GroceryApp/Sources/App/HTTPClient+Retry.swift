extension HTTPClient {
    /// Sends `request`, retrying what a retry can fix: no answer, a 5xx, and a 429 — after
    /// its `Retry-After`, never before (the backoff when it has none).
    /// - Returns: the first answer that is not retried (2xx, or a 4xx other than 429).
    /// - Throws: ``BackendError/unreachable`` or ``BackendError/gaveUp(_:)`` when the
    ///   attempts ran out.
    func send(_ request: HTTPRequest, retrying policy: RetryPolicy) async throws(BackendError) -> HTTPResponse {
        var lastStatus: HTTPStatus?
        for attempt in 1...policy.maxAttempts {
            let wait: Duration
            do {
                let response = try await send(request)
                lastStatus = response.status
                switch response.status.code {
                case 429:
                    wait = response.retryAfter ?? policy.delay(beforeRetry: attempt)
                case 500...:
                    wait = policy.delay(beforeRetry: attempt)
                default:
                    return response
                }
            } catch {
                lastStatus = nil
                wait = policy.delay(beforeRetry: attempt)
            }
            if attempt < policy.maxAttempts { await policy.sleep(wait) }
        }
        throw lastStatus.map(BackendError.gaveUp) ?? .unreachable
    }
}
