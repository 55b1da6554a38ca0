import Foundation
import Contracts
import FakeAPNs
import FakeBackend
import PushCore

/// The `order-tracker` case: the scenario's order, played through the sender's Live Activity
/// calls, judged by the scenario's checks.
extension SenderCheck {
    static func orderTracker(_ c: inout SenderCheckContext) async throws(SenderMisbehaviour) {
        let setup = c.setup
        let bridge = TrackerBridge(sender: c.sender)
        var report: ScenarioReport
        do {
            report = try await withFakeBackend(configuration: .init(sessions: ["s1": "a1"], clock: setup.clock)) { backend in
                let environment = ScenarioEnvironment(
                    backend: backend, apns: setup.apns, clock: setup.clock, grace: .milliseconds(250), topic: setup.topic,
                    deviceToken: c.token, pushToStartToken: PushScenario.pushToStartToken, account: "a1",
                    sessions: ["s1": "a1"], keyID: setup.keyID, teamID: setup.teamID, signingKey: setup.signingKey)
                setup.apns.register(token: c.token, topic: setup.topic)
                var report = ScenarioReport(scenario: SenderCheckCase.orderTracker.rawValue)
                await PushScenario.followOrder(sender: bridge, environment, &report)
                return report
            }
        } catch {
            c.report.fail("a FakeBackend for the order tracker could not start: \(error)")
            return
        }
        // The scenario moved the fake's clock hours ahead; the next case starts at the wall time.
        setup.clock.set(Date())
        if let misbehaviour = bridge.misbehaviour { throw misbehaviour }
        if let call = bridge.unsupported {
            c.skipped = "the sender answered \(call) unsupported: it has no Live Activity code"
            return
        }
        report.steps.forEach { c.report.step($0) }
        report.failures.forEach { c.report.fail($0) }
    }
}

/// The scenario's ``LiveActivitySender`` over a ``SenderUnderTest``: each call becomes a
/// ``SenderCall``; the first misbehaviour or `unsupported` stops the calls and is kept.
final class TrackerBridge: LiveActivitySender {
    private let sender: any SenderUnderTest
    private let state = Locked<(misbehaviour: SenderMisbehaviour?, unsupported: String?)>((nil, nil))

    init(sender: any SenderUnderTest) { self.sender = sender }

    var misbehaviour: SenderMisbehaviour? { state.withLock { $0.misbehaviour } }
    var unsupported: String? { state.withLock { $0.unsupported } }

    private func perform(_ call: SenderCall) async {
        guard state.withLock({ $0.misbehaviour == nil && $0.unsupported == nil }) else { return }
        do {
            if try await sender.perform(call) == .unsupported {
                state.withLock { $0.unsupported = $0.unsupported ?? call.name }
            }
        } catch {
            state.withLock { $0.misbehaviour = $0.misbehaviour ?? error }
        }
    }

    func tokenRegistered(_ token: String) async { await perform(.tokenRegistered(token: token)) }
    func send(_ payload: PushPayload, to token: String) async { await perform(.send(SenderCheckPush(token: token, payload: payload))) }
    func pushToStartTokenRegistered(_ token: String, device: String) async {
        await perform(.pushToStartTokenRegistered(token: token, device: device))
    }
    func startTracking(_ attributes: OrderTrackerAttributes, state: OrderTrackerAttributes.ContentState) async {
        await perform(.startTracking(attributes, state: state))
    }
    func activityTokenRegistered(_ token: String, orderId: String) async {
        await perform(.activityTokenRegistered(token: token, orderId: orderId))
    }
    func orderChanged(_ orderId: String, to state: OrderTrackerAttributes.ContentState) async {
        await perform(.orderChanged(orderId: orderId, state: state))
    }
    func orderDelivered(_ orderId: String, finalState: OrderTrackerAttributes.ContentState) async {
        await perform(.orderDelivered(orderId: orderId, finalState: finalState))
    }
}
