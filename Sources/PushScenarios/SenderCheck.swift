import Foundation
import Contracts
import FakeAPNs
import FakeSupport
import PushCore

/// How the sender under test authenticates to FakeAPNs.
public enum SenderCheckAuthentication: String, Sendable, Hashable, CaseIterable {
    /// Provider tokens (a `.p8` key, its key id and team id).
    case token
    /// A TLS client certificate.
    case certificate
}

/// What a sender-check run needs: the running FakeAPNs the sender talks to, and how.
public struct SenderCheckSetup: Sendable {
    /// The running FakeAPNs (topic ``topic``; the key below registered for token auth).
    public var apns: FakeAPNs
    /// The clock FakeAPNs reads (the wall clock for a child process).
    public var clock: PushClock
    /// The `apns-topic` FakeAPNs accepts.
    public var topic: String
    /// How the sender authenticates.
    public var authentication: SenderCheckAuthentication
    /// The provider-token key registered in FakeAPNs, its key id and team id.
    public var keyID: String
    /// The team the key belongs to.
    public var teamID: String
    /// The private half of the key (the sender's `.p8`).
    public var signingKey: APNsSigningKey

    /// A setup for `apns`, whose `keyID`/`teamID` key must be registered already.
    public init(apns: FakeAPNs, clock: PushClock, topic: String, authentication: SenderCheckAuthentication,
                keyID: String, teamID: String, signingKey: APNsSigningKey) {
        self.apns = apns
        self.clock = clock
        self.topic = topic
        self.authentication = authentication
        self.keyID = keyID
        self.teamID = teamID
        self.signingKey = signingKey
    }
}

/// One case's verdict.
public struct SenderCheckResult: Sendable, Hashable {
    /// Passed, failed or skipped.
    public enum Outcome: String, Sendable, Hashable {
        /// Every check held.
        case passed
        /// At least one check failed: see ``SenderCheckResult/sentences``.
        case failed
        /// Not judged: the sender has no code for it, or this run cannot play it.
        case skipped
    }

    /// The case.
    public var testCase: SenderCheckCase
    /// Its outcome.
    public var outcome: Outcome
    /// One sentence per failure (what the sender did, what it should do), or why it was skipped.
    public var sentences: [String]
    /// What the case did and what FakeAPNs answered.
    public var steps: [String]
    /// Wall time of the case.
    public var seconds: Double
}

/// A whole run: each case's result, and whether the sender broke the protocol.
public struct SenderCheckRun: Sendable, Hashable {
    /// The results, in the order run.
    public var results: [SenderCheckResult]
    /// The sentence saying how the sender broke the protocol, when it did (the run stopped).
    public var misbehaviour: String?
    /// True when no case failed and the sender kept to the protocol.
    public var passed: Bool { misbehaviour == nil && !results.contains { $0.outcome == .failed } }
}

/// Runs ``SenderCheckCase``s against a ``SenderUnderTest`` and judges what FakeAPNs saw.
///
/// ```swift
/// let run = await SenderCheck.run(SenderCheckCase.allCases, sender: mySender, setup: setup)
/// #expect(run.passed)
/// ```
public enum SenderCheck {
    /// Runs `cases` in order, each on fresh FakeAPNs state, then calls `finish`.
    /// A sender that breaks the protocol fails the case it was in; the cases after it are
    /// skipped and ``SenderCheckRun/misbehaviour`` says what happened.
    public static func run(_ cases: [SenderCheckCase], sender: any SenderUnderTest,
                           setup: SenderCheckSetup) async -> SenderCheckRun {
        var run = SenderCheckRun(results: [], misbehaviour: nil)
        for (index, testCase) in cases.enumerated() {
            let started = Date()
            if let misbehaviour = run.misbehaviour {
                run.results.append(SenderCheckResult(testCase: testCase, outcome: .skipped,
                                                     sentences: ["not run: \(misbehaviour)"], steps: [], seconds: 0))
                continue
            }
            await setup.apns.reset()
            var context = SenderCheckContext(sender: sender, setup: setup, token: caseToken(index))
            do {
                try await play(testCase, &context)
            } catch {
                run.misbehaviour = error.sentence
                context.report.fail(error.sentence)
            }
            let outcome: SenderCheckResult.Outcome =
                !context.report.failures.isEmpty ? .failed : (context.skipped != nil ? .skipped : .passed)
            run.results.append(SenderCheckResult(
                testCase: testCase, outcome: outcome,
                sentences: outcome == .skipped ? [context.skipped ?? ""] : context.report.failures,
                steps: context.report.steps, seconds: Date().timeIntervalSince(started)))
        }
        if run.misbehaviour == nil {
            do {
                _ = try await sender.perform(.finish)
            } catch {
                run.misbehaviour = error.sentence
            }
        }
        return run
    }

    /// A 64-hex device token of its own for the case at `index`.
    static func caseToken(_ index: Int) -> String {
        let prefix = String(index % 256, radix: 16)
        return String(repeating: "0", count: 2 - prefix.count) + prefix + String("5e1dc4ec0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6".prefix(62))
    }

    private static func play(_ testCase: SenderCheckCase, _ context: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        switch testCase {
        case .basic: try await basic(&context)
        case .connectionReuse: try await connectionReuse(&context)
        case .providerTokenReuse: try await providerTokenReuse(&context)
        case .expiredProviderToken: try await expiredProviderToken(&context)
        case .maxConcurrentStreams: try await maxConcurrentStreams(&context)
        case .goaway: try await goaway(&context)
        case .throttling: try await throttling(&context)
        case .serverErrors: try await serverErrors(&context)
        case .unregistered: try await unregistered(&context)
        case .badDeviceToken: try await badDeviceToken(&context)
        case .payloadTooLarge: try await payloadTooLarge(&context)
        case .orderTracker: try await orderTracker(&context)
        case .certificate: try await certificate(&context)
        }
    }
}

/// One case's state: the sender, the fake, the case's token and its report.
struct SenderCheckContext: Sendable {
    let sender: any SenderUnderTest
    let setup: SenderCheckSetup
    /// The case's device token, registered in FakeAPNs at the start.
    let token: String
    var report = ScenarioReport(scenario: "")
    /// Why the case was skipped, when it was.
    var skipped: String?

    init(sender: any SenderUnderTest, setup: SenderCheckSetup, token: String) {
        self.sender = sender
        self.setup = setup
        self.token = token
    }

    var apns: FakeAPNs { setup.apns }

    /// The push `id` for the case's account, as the backend sends it.
    static func payload(_ id: Int) -> PushPayload? {
        PushScenario.push(String(id), for: "a1")
    }

    /// Registers the case's token in FakeAPNs and tells the sender.
    /// - Returns: false (and the case is skipped) when the sender has no code for it.
    mutating func registerToken(_ token: String? = nil, inFake: Bool = true) async throws(SenderMisbehaviour) -> Bool {
        let token = token ?? self.token
        if inFake { apns.register(token: token, topic: setup.topic) }
        let answer = try await sender.perform(.tokenRegistered(token: token))
        if answer == .unsupported {
            skipped = "the sender answered tokenRegistered unsupported"
            return false
        }
        return true
    }

    /// Sends push `id` to `token` (the case's by default) and returns the sender's result,
    /// nil when it answered `unsupported` (the case is then skipped).
    mutating func send(_ id: Int, to token: String? = nil) async throws(SenderMisbehaviour) -> SendResult? {
        try await Self.send(id, to: token ?? self.token, sender: sender, skipped: &skipped)
    }

    static func send(_ id: Int, to token: String, sender: any SenderUnderTest, skipped: inout String?) async throws(SenderMisbehaviour) -> SendResult? {
        guard let payload = payload(id) else { return nil }
        let answer = try await sender.perform(.send(SenderCheckPush(token: token, payload: payload)))
        switch answer {
        case .sent(let result, _): return result
        case .unsupported:
            skipped = skipped ?? "the sender answered send unsupported"
            return nil
        case .done:
            throw SenderMisbehaviour("the sender answered send without a result; answer {\"id\":N,\"result\":\"delivered\"} (or \"token-invalid\", \"failed\")")
        }
    }

    /// The requests FakeAPNs saw for `token` (the case's by default), oldest first.
    func requests(to token: String? = nil) -> [APNsJournalEntry] {
        let token = token ?? self.token
        return apns.journal.filter { $0.deviceToken == token }
    }

    /// How many times push `id` reached the device `token`.
    func deliveries(of id: Int, to token: String? = nil) -> Int {
        apns.deliveredNotifications(for: token ?? self.token).filter { $0.pushPayload?.notificationID.rawValue == String(id) }.count
    }
}
