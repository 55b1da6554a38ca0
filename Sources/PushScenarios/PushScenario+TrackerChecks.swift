import Foundation
import Contracts
import FakeAPNs

/// The order tracker's checks of what the sender sent, read from FakeAPNs' journal: each
/// mistake a Live Activity sender makes has its own sentence.
extension PushScenario {
    static func checkTrackerPushes(_ environment: ScenarioEnvironment, activityToken: String?,
                                   _ report: inout ScenarioReport) {
        let device = environment.deviceToken
        let entries = environment.apns.journal.filter { $0.pushType == "liveactivity" }
        func explained(_ entry: APNsJournalEntry) -> Bool {
            entry.deviceToken == device || entry.violations.contains { trackerRules.contains($0.ruleID) }
        }
        report.step("the sender sent \(entries.count) Live Activity push(es): "
                    + "\(entries.filter { $0.delivery?.isAppliedToActivity == true }.count) applied on the device")

        /// One sentence for the entries `matching`, when there are any.
        func fail(_ matching: [APNsJournalEntry], _ sentence: (_ count: Int, _ first: APNsJournalEntry) -> String) {
            if let first = matching.first { report.fail(sentence(matching.count, first)) }
        }
        func violation(_ rule: String) -> (APNsJournalEntry) -> Violation? {
            { entry in entry.violations.first { $0.ruleID == rule } }
        }
        fail(entries.filter { $0.deviceToken == device }) { count, first in
            "the sender sent \(count) Live Activity push(es) to the device token \(short(device)) (APNs answered "
                + "\(answer(first))); update and end pushes go to the activity's push token (activityTokenRegistered), "
                + "a start to the push-to-start token"
        }
        fail(entries.filter { $0.delivery == .ignoredWrongToken }) { count, first in
            "the device ignored \(count) push(es) sent to the wrong Live Activity token (\(answer(first))); "
                + "a start goes to the push-to-start token, update and end to the activity's push token"
        }
        fail(entries.filter { $0.delivery == .ignoredOlderTimestamp }) { count, first in
            "the device ignored \(count) push(es) whose aps.timestamp was not newer than the last one it applied "
                + "(\(first.detail ?? "")); stamp each push with the time of the change in Unix seconds, "
                + "strictly increasing: never reuse or go back"
        }
        fail(entries.filter { violation(dateRule)($0) != nil }) { count, first in
            "\(count) push(es) carried a content-state date as Unix time (\(violation(dateRule)(first)?.pointer ?? ""): "
                + "APNs answered \(first.status)); ActivityKit reads a Date as seconds since 2001-01-01, so the lock "
                + "screen would show it 31 years late: encode ContentState with JSONEncoder's default date strategy"
        }
        fail(entries.filter { violation(personalRule)($0) != nil }) { count, first in
            "\(count) push(es) put personal data in the Live Activity (\(violation(personalRule)(first)?.pointer ?? "")); "
                + "no service extension runs for a Live Activity and the lock screen shows it to anyone holding "
                + "the phone: send the order's stage and ETA, never the rider's name"
        }
        fail(entries.filter { $0.delivery == .droppedOverBudget }) { count, first in
            "the device dropped \(count) priority-10 push(es) over the activity's priority-10 budget "
                + "(\(first.detail ?? "")); send a change within a stage (a corrected ETA, items picked) at "
                + "priority 5 and keep 10 for a new stage"
        }
        let toActivity = entries.filter { activityToken != nil && $0.deviceToken == activityToken }
        if let end = toActivity.first(where: { $0.delivery == .activityEnded }) {
            fail(toActivity.filter { $0.sequence > end.sequence }) { count, first in
                "the sender sent \(count) push(es) to the activity after its end push (\(answer(first))); once the "
                    + "order is delivered and its activity ended, drop late changes instead of pushing them"
            }
        }
        let unreadable: Set<DeliveryOutcome> = [.droppedUndecodableContentState, .droppedUndecodableAttributes, .droppedUnreadable]
        fail(entries.filter { $0.delivery.map(unreadable.contains) ?? false }) { count, first in
            "the device could not read \(count) push(es) (\(answer(first))); encode the tracker's "
                + "OrderTrackerAttributes and ContentState as they are, with JSONEncoder"
        }
        fail(entries.filter { !$0.isAccepted && !explained($0) }) { count, first in
            "APNs refused \(count) Live Activity push(es) (\(answer(first))); "
                + "see the live-activity-payload contract and the request rules in live-activities.md"
        }
    }

    static let dateRule = "live-activity-payload.date-since-2001"
    static let personalRule = "live-activity-payload.personal-data"
    /// The rules that have a sentence of their own above.
    static let trackerRules: Set<String> = [dateRule, personalRule]
}
