import Foundation
import Contracts
import FakeAPNs
import FakeBackend
import FakeSupport

extension SenderCheck {
    /// Runs `cases` against a Swift ``ScenarioSender`` (a ``LiveActivitySender`` for
    /// `order-tracker`), on a FakeAPNs of its own (HTTP/2 cleartext and HTTP/1.1, token
    /// authentication with the environment's key): the cases `contract-check sender-check`
    /// runs against a sender in another language.
    ///
    /// ```swift
    /// let run = await SenderCheck.run(sender: { environment in MySenderAdapter(environment) })
    /// #expect(run.passed, "\(run.results.filter { $0.outcome == .failed })")
    /// ```
    /// A ``ScenarioSender``'s `send` returns nothing, so its answer is read from what FakeAPNs
    /// answered its last request for the push's token: 200 `delivered`; 410, BadDeviceToken
    /// or no request at all `token-invalid`; anything else `failed`.
    /// - Parameters:
    ///   - cases: the cases to run, by default all of them (`certificate` is skipped).
    ///   - clock: the fake's clock, which the sender finds in ``ScenarioEnvironment/clock``.
    ///   - sender: makes the sender once, for the whole run.
    public static func run(_ cases: [SenderCheckCase] = SenderCheckCase.allCases,
                           clock: PushClock = PushClock(skippingSleepsFrom: Date()),
                           sender: @Sendable (ScenarioEnvironment) async -> any ScenarioSender) async -> SenderCheckRun {
        var configuration = FakeAPNs.Configuration()
        configuration.topics = [PushScenario.topic]
        configuration.clock = clock
        do {
            return try await withFakeBackend(configuration: .init(sessions: ["s1": "a1"], clock: clock)) { backend in
                try await withFakeAPNs(configuration: configuration) { apns in
                    let key = APNsSigningKey.generate()
                    let environment = ScenarioEnvironment(
                        backend: backend, apns: apns, clock: clock, grace: .milliseconds(250), topic: PushScenario.topic,
                        deviceToken: PushScenario.deviceToken, pushToStartToken: PushScenario.pushToStartToken,
                        account: "a1", sessions: ["s1": "a1"], keyID: "SENDCHECK1", teamID: "SENDERTEAM", signingKey: key)
                    apns.registerSigningKey(key.publicKey, keyID: environment.keyID, teamID: environment.teamID)
                    let adapter = ScenarioSenderUnderTest(sender: await sender(environment), apns: apns)
                    let setup = SenderCheckSetup(apns: apns, clock: clock, topic: environment.topic, authentication: .token,
                                                 keyID: environment.keyID, teamID: environment.teamID, signingKey: key)
                    return await run(cases, sender: adapter, setup: setup)
                }
            }
        } catch {
            return SenderCheckRun(results: [], misbehaviour: "the fakes could not start: \(error)")
        }
    }
}

/// A Swift ``ScenarioSender`` as a ``SenderUnderTest``: each call goes to the sender's
/// method; a send's result is read from FakeAPNs' answer (see ``SenderCheck/run(_:clock:sender:)``).
public struct ScenarioSenderUnderTest: SenderUnderTest {
    /// The sender under test.
    public let sender: any ScenarioSender
    /// The FakeAPNs it sends to, whose journal gives each send's result.
    public let apns: FakeAPNs

    /// Drives `sender`, reading results from `apns`.
    public init(sender: any ScenarioSender, apns: FakeAPNs) {
        self.sender = sender
        self.apns = apns
    }

    /// Calls the sender's method for `call`; `unsupported` for a Live Activity call to a
    /// sender that is not a ``LiveActivitySender``.
    public func perform(_ call: SenderCall) async throws(SenderMisbehaviour) -> SenderAnswer {
        let tracker = sender as? any LiveActivitySender
        switch call {
        case .tokenRegistered(let token):
            await sender.tokenRegistered(token)
        case .send(let push):
            let mark = apns.journal.last?.sequence ?? 0
            await sender.send(push.payload, to: push.token)
            let last = apns.journal.last { $0.sequence > mark && $0.deviceToken == push.token }
            guard let last else { return .sent(.tokenInvalid, reason: "nothing sent") }
            if last.isAccepted { return .sent(.delivered, reason: nil) }
            let dead = last.status == 410 || last.reason == APNsReason.badDeviceToken.reason
            return .sent(dead ? .tokenInvalid : .failed, reason: last.reason)
        case .pushToStartTokenRegistered(let token, let device):
            guard let tracker else { return .unsupported }
            await tracker.pushToStartTokenRegistered(token, device: device)
        case .startTracking(let attributes, let state):
            guard let tracker else { return .unsupported }
            await tracker.startTracking(attributes, state: state)
        case .activityTokenRegistered(let token, let orderId):
            guard let tracker else { return .unsupported }
            await tracker.activityTokenRegistered(token, orderId: orderId)
        case .orderChanged(let orderId, let state):
            guard let tracker else { return .unsupported }
            await tracker.orderChanged(orderId, to: state)
        case .orderDelivered(let orderId, let finalState):
            guard let tracker else { return .unsupported }
            await tracker.orderDelivered(orderId, finalState: finalState)
        case .finish:
            break
        }
        return .done
    }
}
