import Foundation
import Contracts
import FakeAPNs

/// The cases about APNs' error answers: throttling, server-errors, unregistered,
/// bad-device-token, payload-too-large; and the checks every case shares.
extension SenderCheck {
    /// A retry sooner than this after a 429 or a 5xx is a tight loop.
    static let minimumBackoffMilliseconds: Int64 = 100

    static func throttling(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard try await c.registerToken() else { return }
        c.apns.addFault(.next(2, .reason(.tooManyRequests), deviceToken: c.token))
        c.report.step("FakeAPNs answers the next 2 pushes 429 TooManyRequests")
        try await retried(after: "429 TooManyRequests", { $0.status == 429 }, &c)
    }

    static func serverErrors(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard try await c.registerToken() else { return }
        c.apns.addFault(.next(1, .reason(.internalServerError), deviceToken: c.token))
        c.apns.addFault(.next(1, .reason(.serviceUnavailable), deviceToken: c.token))
        c.report.step("FakeAPNs answers the next push 500 InternalServerError, the one after 503 ServiceUnavailable")
        try await retried(after: "500 InternalServerError and 503 ServiceUnavailable", { $0.status >= 500 }, &c)
    }

    /// Sends pushes 1 and 2 into the scripted refusals and judges the retries.
    private static func retried(after refusal: String, _ refused: (APNsJournalEntry) -> Bool,
                                _ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard let first = try await c.send(1), let second = try await c.send(2) else { return }
        let requests = c.requests()
        let refusals = requests.filter(refused).count
        // Every request beyond one per push is a retry; without one, the next request is the next push.
        let quickest = requests.count > 2 ? PushScenario.quickestRetry(after: refused, in: requests) : nil
        c.report.step("FakeAPNs answered " + answers(requests) + "; quickest retry after a refusal: "
                      + (quickest.map { "\($0) ms" } ?? "none"))
        checkDelivered([1, 2], answers: [1: first, 2: second], &c,
                       advice: "after \(refusal) wait (longer after each refusal) and resend; the sender "
                       + (quickest.map { "retried \($0) ms after one at the quickest" } ?? "never retried"))
        if let quickest, quickest < minimumBackoffMilliseconds {
            c.report.fail("retried \(quickest) ms after \(refusal) (\(refusals) refusal(s)); back off before retrying "
                          + "(at least \(minimumBackoffMilliseconds) ms, longer after each) instead of a tight loop")
        }
    }

    static func unregistered(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard try await c.registerToken(), let first = try await c.send(1) else { return }
        guard c.deliveries(of: 1) > 0 else {
            c.report.fail("push 1 never reached the device (FakeAPNs answered \(answers(c.requests())); the sender answered "
                          + "\(first.rawValue)); deliver to a registered token before it is unregistered")
            return
        }
        let at = c.setup.clock.now.addingTimeInterval(-60)
        let stamp = Int64((at.timeIntervalSince1970 * 1000).rounded(.down))
        c.apns.unregister(token: c.token, at: at)
        c.report.step("token unregistered at \(stamp) (the app was deleted a minute ago)")
        let mark = c.apns.journal.last?.sequence ?? 0
        guard let second = try await c.send(2), let third = try await c.send(3) else { return }
        let after = c.requests().filter { $0.sequence > mark }
        c.report.step("pushes 2 and 3: FakeAPNs answered " + answers(after)
                      + "; the sender answered \(second.rawValue), \(third.rawValue)")
        if let gone = after.first(where: { $0.status == 410 }) {
            let extra = after.filter { $0.sequence > gone.sequence }
            if !extra.isEmpty {
                c.report.fail("sent \(extra.count) more request(s) to the token after APNs answered 410 Unregistered (timestamp \(stamp)); "
                              + "remove the token and send nothing more to it until it registers again")
            }
        } else {
            c.report.fail("never sent push 2 to the token, so FakeAPNs could not answer 410 Unregistered; send to a registered token")
        }
        if second != .tokenInvalid {
            c.report.fail("answered \(second.rawValue) for push 2, which APNs refused with 410 Unregistered (timestamp \(stamp)); "
                          + "answer token-invalid and drop the token")
        }
        if third == .delivered {
            c.report.fail("answered delivered for push 3 to a token APNs had called unregistered; answer token-invalid without sending")
        }
        c.apns.register(token: c.token, topic: c.setup.topic)
        guard try await c.registerToken(inFake: false), let fourth = try await c.send(4) else { return }
        c.report.step("the token registered again; push 4: the sender answered \(fourth.rawValue)")
        if c.deliveries(of: 4) == 0 {
            c.report.fail("after the token registered again, push 4 never reached the device (answered \(fourth.rawValue)); "
                          + "send to a token again once it registers again")
        }
    }

    static func badDeviceToken(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        // A token FakeAPNs does not know: APNs answers 400 BadDeviceToken.
        let bad = String(c.token.reversed())
        guard try await c.registerToken(bad, inFake: false), let result = try await c.send(1, to: bad) else { return }
        let requests = c.requests(to: bad)
        c.report.step("push 1 to an unknown token: FakeAPNs answered " + answers(requests) + "; the sender answered \(result.rawValue)")
        try notRetried(requests, refusal: "400 BadDeviceToken", result: result, wanted: .tokenInvalid,
                       why: "a bad token does not get better: drop it", &c)
    }

    static func payloadTooLarge(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard try await c.registerToken() else { return }
        c.apns.addFault(.next(1, .reason(.payloadTooLarge), deviceToken: c.token))
        c.report.step("FakeAPNs answers the next push 413 PayloadTooLarge")
        guard let result = try await c.send(1) else { return }
        let requests = c.requests()
        c.report.step("FakeAPNs answered " + answers(requests) + "; the sender answered \(result.rawValue)")
        try notRetried(requests, refusal: "413 PayloadTooLarge", result: result, wanted: .failed,
                       why: "the same body is refused again: give up on it (and keep payloads under 4 KB)", &c)
    }

    private static func notRetried(_ requests: [APNsJournalEntry], refusal: String, result: SendResult, wanted: SendResult,
                                   why: String, _ c: inout SenderCheckContext) throws(SenderMisbehaviour) {
        if requests.isEmpty {
            c.report.fail("never sent the push (answered \(result.rawValue)); send every push it is given")
            return
        }
        if requests.count > 1 {
            c.report.fail("sent the push \(requests.count) times after APNs answered \(refusal); do not retry: \(why)")
        }
        if result != wanted {
            c.report.fail("answered \(result.rawValue) for a push APNs refused with \(refusal); answer \(wanted.rawValue)")
        }
    }

    /// Fails for each of `ids` that never reached the case's device, and for each answered
    /// `delivered` that APNs never accepted.
    static func checkDelivered(_ ids: [Int], answers: [Int: SendResult], _ c: inout SenderCheckContext, advice: String) {
        let missing = ids.filter { c.deliveries(of: $0) == 0 }
        guard !missing.isEmpty else { return }
        let claimed = missing.filter { answers[$0] == .delivered }
        c.report.fail("\(missing.count) of \(ids.count) push(es) never reached the device (FakeAPNs answered \(Self.answers(c.requests())))"
                      + (claimed.isEmpty ? "" : ", \(claimed.count) of them answered delivered") + "; \(advice)"
                      + (claimed.isEmpty ? "" : ", and answer delivered only after APNs answered 200"))
    }

    /// Fails when one of `ids` reached the device more than once.
    static func checkDeliveredOnce(_ ids: [Int], _ c: inout SenderCheckContext, advice: String) {
        let twice = ids.filter { c.deliveries(of: $0) > 1 }
        if !twice.isEmpty {
            c.report.fail("\(twice.count) push(es) reached the device more than once; \(advice)")
        }
    }

    /// `200 ×3, 429 TooManyRequests ×2`: what FakeAPNs answered, counted, in order of first answer.
    static func answers(_ requests: [APNsJournalEntry]) -> String {
        guard !requests.isEmpty else { return "nothing (no request)" }
        var order: [String] = []
        var counts: [String: Int] = [:]
        for entry in requests {
            let text = if case .goAway? = entry.fault { "GOAWAY" } else if entry.status == 0 { "no answer" } else {
                "\(entry.status)" + (entry.reason.map { " " + $0 } ?? "")
            }
            if counts[text] == nil { order.append(text) }
            counts[text, default: 0] += 1
        }
        return order.map { counts[$0] == 1 ? $0 : "\($0) ×\(counts[$0] ?? 0)" }.joined(separator: ", ")
    }
}
