import Foundation
import Contracts
import FakeAPNs

/// The cases about the connection and the credentials: basic, connection-reuse,
/// provider-token-reuse, expired-provider-token, max-concurrent-streams, goaway, certificate.
extension SenderCheck {
    static func basic(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard try await c.registerToken() else { return }
        var answers: [Int: SendResult] = [:]
        for id in 1...3 {
            guard let result = try await c.send(id) else { return }
            answers[id] = result
        }
        let requests = c.requests()
        c.report.step("sent 3 pushes; FakeAPNs answered " + Self.answers(requests))
        checkDelivered(Array(1...3), answers: answers, &c, advice: "send each push as POST /3/device/<token> with apns-push-type alert, "
                       + "apns-topic \(c.setup.topic) and " + (c.setup.authentication == .token
                        ? "authorization: bearer <provider token>" : "the client certificate"))
        let http1 = requests.filter { $0.httpVersion != "HTTP/2" }
        if let first = http1.first {
            c.report.fail("sent \(http1.count) push(es) over \(first.httpVersion); APNs speaks only HTTP/2: use an HTTP/2 client")
        }
        let untopiced = requests.filter { $0.topic == nil }
        if !untopiced.isEmpty {
            c.report.fail("sent \(untopiced.count) push(es) without apns-topic; send apns-topic \(c.setup.topic) (the app's bundle id) with every push")
        }
        let broken = requests.filter { !$0.violations.isEmpty }
        if let first = broken.first, let violation = first.violations.first {
            c.report.fail("\(broken.count) push body(ies) broke the payload contract (\(violation.pointer): \(violation.message)); "
                          + "send the payload you were given unchanged")
        }
    }

    static func connectionReuse(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard try await c.registerToken() else { return }
        let count = 50
        var answers: [Int: SendResult] = [:]
        for id in 1...count {
            guard let result = try await c.send(id) else { return }
            answers[id] = result
        }
        let requests = c.requests()
        let connections = Set(requests.map(\.connectionID)).count
        c.report.step("sent \(count) pushes; FakeAPNs saw \(requests.count) request(s) over \(connections) connection(s)")
        if connections > 2 {
            c.report.fail("pushed \(requests.count) notifications over \(connections) connections; keep one connection open and send on it "
                          + "— APNs treats a connection per push as a denial-of-service attack")
        }
        checkDelivered(Array(1...count), answers: answers, &c, advice: "keep the connection and send each push on it")
    }

    static func providerTokenReuse(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard c.setup.authentication == .token else {
            c.skipped = "the sender authenticates with a certificate (--auth certificate): it has no provider token to reuse"
            return
        }
        guard try await c.registerToken() else { return }
        let count = 20
        var answers: [Int: SendResult] = [:]
        for id in 1...count {
            guard let result = try await c.send(id) else { return }
            answers[id] = result
        }
        let requests = c.requests()
        let tokens = Set(requests.compactMap(\.providerTokenFingerprint)).count
        let refreshed = requests.filter { $0.reason == APNsReason.tooManyProviderTokenUpdates.reason }
        c.report.step("sent \(count) pushes; FakeAPNs saw \(tokens) provider token(s) in \(requests.count) request(s)")
        if tokens > 1 {
            c.report.fail("minted \(tokens) provider tokens for \(count) pushes; mint one and reuse it for 20 to 60 minutes "
                          + "— APNs answers 429 TooManyProviderTokenUpdates to a token refreshed more often than every 20 minutes")
        }
        if !refreshed.isEmpty {
            c.report.fail("APNs answered 429 TooManyProviderTokenUpdates \(refreshed.count) time(s): the sender changed its token on a "
                          + "connection within 20 minutes; keep one token until it is 20 to 60 minutes old")
        }
        checkDelivered(Array(1...count), answers: answers, &c, advice: "reuse one provider token")
    }

    static func expiredProviderToken(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard c.setup.authentication == .token else {
            c.skipped = "the sender authenticates with a certificate (--auth certificate): no provider token can expire"
            return
        }
        guard try await c.registerToken(), let first = try await c.send(1) else { return }
        c.apns.addFault(.next(1, .reason(.expiredProviderToken), deviceToken: c.token))
        c.report.step("push 1: the sender answered \(first.rawValue); FakeAPNs answers the next push 403 ExpiredProviderToken")
        guard let second = try await c.send(2) else { return }
        let requests = c.requests()
        c.report.step("push 2: FakeAPNs answered " + answers(requests) + "; the sender answered \(second.rawValue)")
        guard let expired = requests.first(where: { $0.reason == APNsReason.expiredProviderToken.reason }) else {
            c.report.fail("the sender never sent push 2, so FakeAPNs could not answer 403 ExpiredProviderToken; send every push it is given")
            return
        }
        let after = requests.filter { $0.sequence > expired.sequence }
        if after.isEmpty {
            c.report.fail("gave up on push 2 after 403 ExpiredProviderToken (answered \(second.rawValue)); mint a new provider token "
                          + "(iat now) and resend the push")
        } else if after.allSatisfy({ $0.providerTokenFingerprint == expired.providerTokenFingerprint }) {
            c.report.fail("resent push 2 \(after.count) time(s) with the token APNs had called expired; after 403 ExpiredProviderToken "
                          + "mint a new provider token (iat now) and resend with it")
        }
        checkDelivered([1, 2], answers: [1: first, 2: second], &c, advice: "mint a new provider token and resend")
    }

    static func maxConcurrentStreams(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard c.apns.configuration.oneStreamUntilTokenVerified else {
            c.skipped = "this FakeAPNs runs with oneStreamUntilTokenVerified off, so a new token connection is not limited to one stream"
            return
        }
        guard c.setup.authentication == .token else {
            c.skipped = "the one-stream limit applies to token connections; this run uses --auth certificate"
            return
        }
        guard try await c.registerToken() else { return }
        let count = 20
        let answers = try await sendAtOnce(Array(1...count), to: c.token, sender: c.sender, skipped: &c.skipped)
        guard c.skipped == nil else { return }
        let requests = c.requests()
        let refused = requests.filter { $0.status == 0 || $0.reason == "REFUSED_STREAM" }.count
        c.report.step("sent \(count) pushes at once; FakeAPNs saw \(requests.count) request(s) over "
                      + "\(Set(requests.map(\.connectionID)).count) connection(s)")
        checkDelivered(Array(1...count), answers: answers, &c,
                       advice: "respect SETTINGS_MAX_CONCURRENT_STREAMS (1 on a new token connection until the first push is answered) "
                       + "and resend refused pushes on a new connection" + (refused > 0 ? " (\(refused) stream(s) refused)" : ""))
        checkDeliveredOnce(Array(1...count), &c, advice: "resend only the pushes APNs left unanswered")
    }

    static func goaway(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard try await c.registerToken() else { return }
        c.apns.addFault(.next(1, .goAway(reason: "Shutdown"), deviceToken: c.token))
        c.report.step("FakeAPNs answers the first push with GOAWAY {\"reason\":\"Shutdown\"}")
        var answers: [Int: SendResult] = [:]
        for id in 1...5 {
            guard let result = try await c.send(id) else { return }
            answers[id] = result
        }
        let requests = c.requests()
        c.report.step("sent 5 pushes; FakeAPNs saw \(requests.count) request(s) over \(Set(requests.map(\.connectionID)).count) connection(s)")
        checkDelivered(Array(1...5), answers: answers, &c,
                       advice: "after a GOAWAY open a new connection and resend the pushes it left unanswered")
        checkDeliveredOnce(Array(1...5), &c, advice: "resend only the pushes above the GOAWAY's last-stream-id")
    }

    static func certificate(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        guard c.setup.authentication == .certificate else {
            c.skipped = "run with --auth certificate to check certificate authentication"
            return
        }
        guard try await c.registerToken(), let first = try await c.send(1), let second = try await c.send(2) else { return }
        let requests = c.requests()
        c.report.step("sent 2 pushes; FakeAPNs answered " + answers(requests))
        let bare = requests.filter { $0.certificate == nil }
        if !bare.isEmpty {
            c.report.fail("sent \(bare.count) push(es) without a client certificate; present APNS_CERT_FILE with APNS_CERT_KEY_FILE "
                          + "(or APNS_P12_FILE) in the TLS handshake")
        }
        checkDelivered([1, 2], answers: [1: first, 2: second], &c, advice: "authenticate with the client certificate")
    }

    /// Sends `ids` to `token` all at once, as a backend's fan-out does.
    static func sendAtOnce(_ ids: [Int], to token: String, sender: any SenderUnderTest,
                           skipped: inout String?) async throws(SenderMisbehaviour) -> [Int: SendResult] {
        let outcomes = await withTaskGroup(of: (Int, Result<SendResult?, SenderMisbehaviour>).self) { group in
            for id in ids {
                group.addTask {
                    var skip: String?
                    do throws(SenderMisbehaviour) {
                        return (id, .success(try await SenderCheckContext.send(id, to: token, sender: sender, skipped: &skip)))
                    } catch {
                        return (id, .failure(error))
                    }
                }
            }
            var all: [(Int, Result<SendResult?, SenderMisbehaviour>)] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        var answers: [Int: SendResult] = [:]
        for (id, outcome) in outcomes.sorted(by: { $0.0 < $1.0 }) {
            switch outcome {
            case .failure(let error): throw error
            case .success(let result?): answers[id] = result
            case .success(nil): skipped = skipped ?? "the sender answered send unsupported"
            }
        }
        return answers
    }
}
