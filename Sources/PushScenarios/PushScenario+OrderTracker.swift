import Foundation
import Contracts
import FakeAPNs

/// The Live Activity scenario: the order tracker, from confirmed to delivered and dismissed.
extension PushScenario {
    /// The order the tracker follows.
    static let trackerOrder = "8F3K"

    /// One change of the order: how long after the previous one it happens, and what the
    /// tracker should show then.
    struct TrackerChange: Sendable {
        var after: Int64
        var state: OrderTrackerAttributes.ContentState
    }

    /// The order's day: the state the tracker starts with, thirteen changes (three new stages,
    /// and ten changes within a stage that need no priority 10), the delivered state, and a
    /// late report from the rider's app after delivery.
    struct TrackerPlan: Sendable {
        var start: OrderTrackerAttributes.ContentState
        var changes: [TrackerChange]
        var delivered: TrackerChange
        var late: TrackerChange
    }

    /// The plan, with ETAs in whole seconds from `now`.
    static func trackerPlan(from now: Date) -> TrackerPlan {
        typealias State = OrderTrackerAttributes.ContentState
        let base = now.timeIntervalSince1970.rounded(.down)
        /// `minutes` after the start, in whole seconds.
        func eta(_ minutes: Int) -> Date { Date(timeIntervalSince1970: base + Double(minutes * 60)) }
        var changes = [
            TrackerChange(after: 120, state: State(stage: .picking, itemsPicked: 0, itemsTotal: 12)),
            TrackerChange(after: 180, state: State(stage: .picking, itemsPicked: 6, itemsTotal: 12)),
            TrackerChange(after: 180, state: State(stage: .picking, itemsPicked: 12, itemsTotal: 12)),
            TrackerChange(after: 120, state: State(stage: .onTheWay, eta: eta(35), itemsPicked: 12, itemsTotal: 12)),
        ]
        // The rider's ETA, corrected each minute (traffic), each time a different one.
        for minutes in [37, 36, 38, 40, 39, 41, 43, 42] {
            changes.append(TrackerChange(after: 60, state: State(stage: .onTheWay, eta: eta(minutes), itemsPicked: 12, itemsTotal: 12)))
        }
        changes.append(TrackerChange(after: 600, state: State(stage: .arriving, eta: eta(44), itemsPicked: 12, itemsTotal: 12)))
        return TrackerPlan(
            start: State(stage: .confirmed, itemsPicked: 0, itemsTotal: 12), changes: changes,
            delivered: TrackerChange(after: 240, state: State(stage: .delivered, itemsPicked: 12, itemsTotal: 12)),
            late: TrackerChange(after: 60, state: State(stage: .arriving, itemsPicked: 12, itemsTotal: 12)))
    }

    static func followOrder(sender: any ScenarioSender, _ environment: ScenarioEnvironment,
                            _ report: inout ScenarioReport) async {
        guard let tracker = sender as? any LiveActivitySender else {
            report.fail("the sender is not a LiveActivitySender: order-tracker starts, updates and ends a Live Activity "
                        + "through it; implement LiveActivitySender's five calls on your sender adapter")
            return
        }
        let apns = environment.apns, clock = environment.clock, device = environment.deviceToken
        let pushToStart = environment.pushToStartToken
        let attributes = OrderTrackerAttributes(orderId: trackerOrder)
        apns.registerPushToStartToken(pushToStart, device: device)
        await tracker.pushToStartTokenRegistered(pushToStart, device: device)
        report.step("the app reported push-to-start token \(short(pushToStart)) for device \(short(device))")

        let plan = trackerPlan(from: clock.now)
        await tracker.startTracking(attributes, state: plan.start)
        let started = apns.liveActivities(onDevice: device).last { $0.attributes.orderId == attributes.orderId && $0.isShown }
        guard let token = started?.pushToken else {
            report.fail("the tracker never started on the device (FakeAPNs: \(lastAnswer(to: pushToStart, in: apns.journal))); "
                        + "send a start push (attributes-type \(OrderTrackerAttributes.typeName), attributes, content-state, "
                        + "an alert) to the push-to-start token")
            checkTrackerPushes(environment, activityToken: nil, &report)
            return
        }
        await tracker.activityTokenRegistered(token, orderId: attributes.orderId)
        report.step("the tracker started for order \(attributes.orderId) (activity token \(short(token))); "
                    + "the app reported its token")

        var missed: [(wanted: OrderTrackerAttributes.ContentState, shown: OrderTrackerAttributes.ContentState?)] = []
        for change in plan.changes {
            clock.advance(by: .seconds(change.after))
            await tracker.orderChanged(attributes.orderId, to: change.state)
            let shown = apns.liveActivity(pushToken: token)?.contentState
            if !(shown.map { sameState($0, change.state) } ?? false) { missed.append((change.state, shown)) }
        }
        report.step("the order went through \(plan.changes.count) changes; the lock screen showed "
                    + "\(plan.changes.count - missed.count) of them")
        if let first = missed.first {
            report.fail("the lock screen missed \(missed.count) of \(plan.changes.count) changes of order \(attributes.orderId) "
                        + "(first: \(describe(first.wanted)); it showed \(first.shown.map(describe) ?? "nothing"))")
        }

        clock.advance(by: .seconds(plan.delivered.after))
        await tracker.orderDelivered(attributes.orderId, finalState: plan.delivered.state)
        let ended = apns.liveActivity(pushToken: token)
        report.step("the order was delivered: the activity is \(ended?.state.rawValue ?? "gone"), showing "
                    + (ended.map { describe($0.contentState) } ?? "nothing"))
        clock.advance(by: .seconds(plan.late.after))
        await tracker.orderChanged(attributes.orderId, to: plan.late.state)
        report.step("a late \"\(plan.late.state.stage.rawValue)\" from the rider's app came a minute after delivery")

        clock.advance(by: .seconds(4 * 3600))
        let last = apns.liveActivity(pushToken: token)
        report.step("four hours later the activity is \(last?.state.rawValue ?? "gone")")
        if let last, last.contentState.stage != .delivered {
            report.fail("the tracker's last state on the device is \(describe(last.contentState)), not delivered; "
                        + "end the activity with content-state stage delivered")
        }
        if let last, last.state != .dismissed {
            report.fail("the activity is still \(last.state.rawValue) four hours after the order was delivered; "
                        + "end it with an end push to its push token once the order is delivered")
        }
        checkTrackerPushes(environment, activityToken: token, &report)
    }

    /// True when the device shows `wanted`: the same stage and counts, the ETA within a second.
    static func sameState(_ shown: OrderTrackerAttributes.ContentState, _ wanted: OrderTrackerAttributes.ContentState) -> Bool {
        guard shown.stage == wanted.stage, shown.itemsPicked == wanted.itemsPicked,
              shown.itemsTotal == wanted.itemsTotal else { return false }
        switch (shown.eta, wanted.eta) {
        case (nil, nil): return true
        case (let a?, let b?): return abs(a.timeIntervalSince(b)) < 1
        default: return false
        }
    }

    /// `stage onTheWay, 12/12 items, ETA 2026-…Z`, for messages.
    static func describe(_ state: OrderTrackerAttributes.ContentState) -> String {
        var text = "stage \(state.stage.rawValue)"
        if let picked = state.itemsPicked, let total = state.itemsTotal { text += ", \(picked)/\(total) items" }
        if let eta = state.eta { text += ", ETA \(eta.formatted(.iso8601))" }
        return text
    }

    /// What FakeAPNs made of the last request to `token`, for messages.
    static func lastAnswer(to token: String, in journal: [APNsJournalEntry]) -> String {
        guard let entry = journal.last(where: { $0.deviceToken == token }) else { return "no request to \(short(token))" }
        return answer(entry)
    }

    /// `400 PayloadContractViolation`, or `200 activityUpdated`, with the entry's detail.
    static func answer(_ entry: APNsJournalEntry) -> String {
        var text = "\(entry.status)"
        if let reason = entry.reason { text += " \(reason)" }
        if let delivery = entry.delivery { text += " \(delivery)" }
        if let detail = entry.detail ?? entry.violations.first?.message { text += " (\(detail))" }
        return text
    }
}
