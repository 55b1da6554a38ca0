import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs

/// Live Activity pushes as a device sees them: FakeAPNs' simulation of activities (issue 24).
/// All time is the testbed's stopped clock; nothing sleeps.
@Suite struct LiveActivityTests {
    typealias T = APNsTestbed
    static let topic = T.topic + ".push-type.liveactivity"
    /// The testbed's start, in the Unix seconds `aps.timestamp` counts.
    static let now = T.start / 1000
    static let order = OrderTrackerAttributes(orderId: "8F3K")

    /// A Live Activity push to `token` with these `aps` members (JSON text, without braces).
    static func push(_ token: String, _ aps: String, priority: String? = "10", topic: String = topic) -> HTTPRequest {
        T.push(token: token, headers: [("apns-push-type", "liveactivity"), ("apns-topic", topic), ("apns-priority", priority)],
               body: Array(#"{"aps":{\#(aps)}}"#.utf8))
    }

    static func update(_ token: String, timestamp: Int64, stage: String = "picking", extra: String = "",
                       priority: String = "10") -> HTTPRequest {
        push(token, #""event":"update","timestamp":\#(timestamp),"content-state":{"stage":"\#(stage)"}\#(extra)"#, priority: priority)
    }

    static func end(_ token: String, timestamp: Int64, extra: String = "") -> HTTPRequest {
        push(token, #""event":"end","timestamp":\#(timestamp),"content-state":{"stage":"delivered"}\#(extra)"#)
    }

    static let start = #""event":"start","timestamp":\#(now),"content-state":{"stage":"confirmed","itemsPicked":0,"itemsTotal":12},"attributes-type":"OrderTrackerAttributes","attributes":{"orderId":"8F3K"},"alert":{"title":"Order confirmed","body":"Arriving in about 45 minutes"},"input-push-token":1"#

    /// A testbed with one activity the app started, at timestamp `now`.
    static func withActivity(_ configure: (inout FakeAPNs.Configuration) -> Void = { _ in }) throws -> (APNsTestbed, LiveActivity) {
        let bed = T(configure)
        let activity = try #require(bed.fake.startLiveActivity(
            device: T.token, attributes: order, contentState: .init(stage: .confirmed), timestamp: now))
        return (bed, activity)
    }

    // MARK: The request

    @Test func aStartPushToThePushToStartTokenStartsAnActivityWithItsOwnToken() throws {
        let bed = T()
        let pushToStart = bed.fake.registerPushToStartToken(device: T.token)
        let response = bed.fake.handle(Self.push(pushToStart, Self.start))
        #expect(response.status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .activityStarted)
        let activity = try #require(bed.fake.liveActivities(onDevice: T.token).first)
        #expect(activity.pushToken != pushToStart && activity.pushToken != T.token)
        #expect(APNsRequestValidator.isDeviceToken(activity.pushToken))
        #expect(activity.attributes == Self.order)
        #expect(activity.contentState == .init(stage: .confirmed, itemsPicked: 0, itemsTotal: 12))
        #expect(activity.state == .active && activity.startedAt == T.start && activity.timestamp == Self.now)
        #expect(bed.fake.journal.last?.detail?.contains(activity.pushToken) == true)
    }

    @Test func theTopicMustCarryTheLiveActivitySuffix() throws {
        let (bed, activity) = try Self.withActivity { $0.topics = [T.topic] }
        func reason(_ request: HTTPRequest) -> String? { bed.fake.handle(request).status.code == 200 ? nil : bed.fake.journal.last?.reason }
        #expect(reason(Self.update(activity.pushToken, timestamp: Self.now + 1)) == nil)
        // The bare bundle id is malformed for this push type: BadTopic, as for every suffixed type.
        #expect(reason(Self.push(activity.pushToken, #""event":"update","timestamp":1"#, topic: T.topic)) == "BadTopic")
        #expect(reason(Self.push(activity.pushToken, #""event":"update","timestamp":1"#, topic: T.topic + ".voip")) == "BadTopic")
        #expect(reason(Self.push(activity.pushToken, #""event":"update","timestamp":1"#,
                                 topic: "com.other.app.push-type.liveactivity")) == "TopicDisallowed")
        // The device token is not an activity's: the token does not match the topic.
        #expect(reason(Self.update(T.token, timestamp: Self.now + 2)) == "DeviceTokenNotForTopic")
        #expect(reason(Self.update(String(repeating: "cd", count: 32), timestamp: Self.now + 2)) == "BadDeviceToken")
    }

    @Test func thePriorityIsFiveOrTen() throws {
        let (bed, activity) = try Self.withActivity()
        #expect(bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 1, priority: "1")).status.code == 400)
        #expect(bed.fake.journal.last?.reason == "BadPriority")
        #expect(bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 1, priority: "7")).status.code == 400)
        #expect(bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 1, priority: "5")).status.code == 200)
        #expect(bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 2, priority: "10")).status.code == 200)
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.pushesApplied == 2)
    }

    @Test func contractViolationsAreJournaledAndAcceptedOrRejectedAsForAlerts() throws {
        // A Unix-time eta decodes (31 years late): applied, and the violation journaled.
        let (bed, activity) = try Self.withActivity()
        let unixETA = Self.push(activity.pushToken, #""event":"update","timestamp":\#(Self.now + 1),"content-state":{"stage":"onTheWay","eta":1767228000}"#)
        #expect(bed.fake.handle(unixETA).status.code == 200)
        #expect(bed.fake.journal.last?.violations.map(\.ruleID) == ["live-activity-payload.date-since-2001"])
        #expect(bed.fake.journal.last?.delivery == .activityUpdated)

        let (strict, strictActivity) = try Self.withActivity { $0.payloadContract = .reject }
        let again = Self.push(strictActivity.pushToken, #""event":"update","timestamp":\#(Self.now + 1),"content-state":{"stage":"onTheWay","eta":1767228000}"#)
        #expect(strict.fake.handle(again).status.code == 400)
        #expect(strict.fake.journal.last?.reason == "FakeAPNsPayloadContractViolation")
        #expect(strict.fake.liveActivity(pushToken: strictActivity.pushToken)?.contentState.stage == .confirmed)
    }

    // MARK: The device's rules

    @Test func anUpdateNotNewerThanTheLastIsIgnored() throws {
        let (bed, activity) = try Self.withActivity()
        #expect(bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now, stage: "picking")).status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .ignoredOlderTimestamp)
        #expect(bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now - 5, stage: "picking")).status.code == 200)
        #expect(bed.fake.journal.last?.delivery == .ignoredOlderTimestamp)
        #expect(bed.fake.journal.last?.detail == "timestamp \(Self.now - 5) is not newer than the last applied \(Self.now)")
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.contentState.stage == .confirmed)
        _ = bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 1, stage: "picking"))
        #expect(bed.fake.journal.last?.delivery == .activityUpdated)
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.contentState.stage == .picking)
    }

    @Test func updatesAfterEndAreIgnored() throws {
        let (bed, activity) = try Self.withActivity()
        _ = bed.fake.handle(Self.end(activity.pushToken, timestamp: Self.now + 1))
        #expect(bed.fake.journal.last?.delivery == .activityEnded)
        _ = bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 2, stage: "arriving"))
        #expect(bed.fake.journal.last?.delivery == .ignoredAfterEnd)
        _ = bed.fake.handle(Self.end(activity.pushToken, timestamp: Self.now + 3))
        #expect(bed.fake.journal.last?.delivery == .ignoredAfterEnd)
        let ended = try #require(bed.fake.liveActivity(pushToken: activity.pushToken))
        #expect(ended.state == .ended && ended.contentState.stage == .delivered && ended.timestamp == Self.now + 1)
    }

    @Test func dismissalAtTheDismissalDateAtOnceIfPastElseFourHoursAfterEnd() throws {
        let (bed, activity) = try Self.withActivity()
        _ = bed.fake.handle(Self.end(activity.pushToken, timestamp: Self.now + 1, extra: #","dismissal-date":\#(Self.now + 600)"#))
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.dismissalAt == T.start + 600_000)
        bed.clock.advance(seconds: 599.999)
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.state == .ended)
        bed.clock.advance(seconds: 0.001)
        let dismissed = try #require(bed.fake.liveActivity(pushToken: activity.pushToken))
        #expect(dismissed.state == .dismissed && dismissed.changedAt == T.start + 600_000)

        let (past, pastActivity) = try Self.withActivity()
        _ = past.fake.handle(Self.end(pastActivity.pushToken, timestamp: Self.now + 1, extra: #","dismissal-date":\#(Self.now - 60)"#))
        #expect(past.fake.liveActivity(pushToken: pastActivity.pushToken)?.state == .dismissed)

        let (later, laterActivity) = try Self.withActivity()
        _ = later.fake.handle(Self.end(laterActivity.pushToken, timestamp: Self.now + 1, extra: #","dismissal-date":\#(Self.now + 86_400)"#))
        #expect(later.fake.liveActivity(pushToken: laterActivity.pushToken)?.dismissalAt == T.start + 4 * 3_600_000)
        _ = later.fake.handle(Self.end(laterActivity.pushToken, timestamp: Self.now + 2))
        later.clock.advance(by: .seconds(4 * 3600))
        #expect(later.fake.liveActivity(pushToken: laterActivity.pushToken)?.state == .dismissed)
    }

    @Test func staleAfterTheStaleDateUntilTheNextUpdate() throws {
        let (bed, activity) = try Self.withActivity()
        _ = bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 1, extra: #","stale-date":\#(Self.now + 900)"#))
        bed.clock.advance(seconds: 899)
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.state == .active)
        bed.clock.advance(seconds: 1)
        let stale = try #require(bed.fake.liveActivity(pushToken: activity.pushToken))
        #expect(stale.state == .stale && stale.changedAt == T.start + 900_000)
        _ = bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 901, stage: "onTheWay"))
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.state == .active)
    }

    @Test func theSystemEndsAnActivityAfterEightHours() throws {
        let (bed, activity) = try Self.withActivity { $0.providerTokens = .ignore }   // the token's hour is long past
        bed.clock.advance(by: .seconds(8 * 3600 - 1))
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.state == .active)
        bed.clock.advance(by: .seconds(1))
        _ = bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 8 * 3600, stage: "arriving"))
        #expect(bed.fake.journal.last?.delivery == .ignoredAfterEnd)
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.endedAt == T.start + 8 * 3_600_000)
    }

    @Test func thePriorityTenBudgetRunsOutAndRefillsOnTheClock() throws {
        let (bed, activity) = try Self.withActivity { $0.liveActivities.priority10UpdatesPerHour = 3 }
        var timestamp = Self.now
        func send(priority: String) -> DeliveryOutcome? {
            timestamp += 1
            _ = bed.fake.handle(Self.update(activity.pushToken, timestamp: timestamp, priority: priority))
            return bed.fake.journal.last?.delivery
        }
        #expect([send(priority: "10"), send(priority: "10"), send(priority: "10")] == Array(repeating: .activityUpdated, count: 3))
        bed.clock.advance(seconds: 1)
        #expect(send(priority: "10") == .droppedOverBudget)
        #expect(bed.fake.journal.last?.detail?.hasPrefix("3 priority-10 updates in the last hour already") == true)
        #expect(send(priority: "5") == .activityUpdated)   // priority 5 never draws on it
        bed.clock.advance(seconds: 3599)
        #expect(send(priority: "10") == .activityUpdated)
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.pushesApplied == 5)

        let (frequent, frequentActivity) = try Self.withActivity {
            $0.liveActivities.priority10UpdatesPerHour = 3
            $0.liveActivities.frequentUpdates = true
        }
        for step in 1...10 { _ = frequent.fake.handle(Self.update(frequentActivity.pushToken, timestamp: Self.now + Int64(step))) }
        #expect(frequent.fake.journal.suffix(10).allSatisfy { $0.delivery == .activityUpdated })
    }

    @Test func anUndecodableContentStateIsDroppedAndJournaled() throws {
        let (bed, activity) = try Self.withActivity()
        _ = bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 1, stage: "shipped"))
        #expect(bed.fake.journal.last?.status == 200)
        #expect(bed.fake.journal.last?.delivery == .droppedUndecodableContentState)
        #expect(bed.fake.journal.last?.detail?.hasPrefix("content-state does not decode into OrderTrackerAttributes.ContentState: aps.content-state.stage") == true)
        let asText = Self.push(activity.pushToken, #""event":"update","timestamp":\#(Self.now + 2),"content-state":"{\"stage\":\"picking\"}""#)
        _ = bed.fake.handle(asText)
        #expect(bed.fake.journal.last?.delivery == .droppedUndecodableContentState)
        let current = try #require(bed.fake.liveActivity(pushToken: activity.pushToken))
        #expect(current.contentState.stage == .confirmed && current.timestamp == Self.now && current.pushesApplied == 0)
    }

    @Test func pushesToTheWrongTokenOrUnreadableAreJournaledNotApplied() throws {
        let (bed, activity) = try Self.withActivity()
        let pushToStart = bed.fake.registerPushToStartToken(device: T.token)
        _ = bed.fake.handle(Self.update(pushToStart, timestamp: Self.now + 1))
        #expect(bed.fake.journal.last?.delivery == .ignoredWrongToken)
        _ = bed.fake.handle(Self.push(activity.pushToken, Self.start))
        #expect(bed.fake.journal.last?.delivery == .ignoredWrongToken)
        _ = bed.fake.handle(Self.push(activity.pushToken, #""event":"update","timestamp":"soon","content-state":{"stage":"picking"}"#))
        #expect(bed.fake.journal.last?.delivery == .droppedUnreadable)
        #expect(bed.fake.journal.last?.detail == "aps.timestamp is missing or not an integer of seconds")
        _ = bed.fake.handle(Self.push(pushToStart, Self.start.replacingOccurrences(of: #""OrderTrackerAttributes""#, with: #""PizzaAttributes""#)))
        #expect(bed.fake.journal.last?.delivery == .droppedUndecodableAttributes)
        #expect(bed.fake.liveActivities(onDevice: T.token).count == 1)
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.pushesApplied == 0)
    }

    @Test func aDeviceKeepsABoundedNumberOfActivities() throws {
        let bed = T { $0.liveActivities.activitiesPerDevice = 2 }
        let pushToStart = bed.fake.registerPushToStartToken(device: T.token)
        #expect(bed.fake.handle(Self.push(pushToStart, Self.start)).status.code == 200)
        #expect(bed.fake.handle(Self.push(pushToStart, Self.start)).status.code == 200)
        _ = bed.fake.handle(Self.push(pushToStart, Self.start))
        #expect(bed.fake.journal.last?.delivery == .droppedTooManyActivities)
        let first = try #require(bed.fake.liveActivities(onDevice: T.token).first)
        _ = bed.fake.handle(Self.end(first.pushToken, timestamp: Self.now + 1, extra: #","dismissal-date":0"#))
        _ = bed.fake.handle(Self.push(pushToStart, Self.start))
        #expect(bed.fake.journal.last?.delivery == .activityStarted)
        #expect(bed.fake.liveActivities(onDevice: T.token).count == 2)
        #expect(bed.fake.liveActivity(pushToken: first.pushToken) == nil)   // the dismissed one made room
    }

    @Test func resetForgetsActivitiesAndEndsTheirStreams() async throws {
        let (bed, activity) = try Self.withActivity()
        let states = bed.fake.liveActivityStates(pushToken: activity.pushToken)
        await bed.fake.reset()
        var seen = 0
        for await _ in states { seen += 1 }
        #expect(seen == 1)
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken) == nil)
        #expect(bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 1)).status.code == 400)
    }

    // MARK: Reading states

    @Test func theStatesStreamReplaysThenFollowsAndEndsAfterDismissal() async throws {
        let (bed, activity) = try Self.withActivity()
        _ = bed.fake.handle(Self.update(activity.pushToken, timestamp: Self.now + 1, stage: "onTheWay"))
        let states = bed.fake.liveActivityStates(pushToken: activity.pushToken)
        _ = bed.fake.handle(Self.end(activity.pushToken, timestamp: Self.now + 2, extra: #","dismissal-date":\#(Self.now + 60)"#))
        bed.clock.advance(seconds: 60)
        // Not dismissed would leave the stream open: stop here rather than wait forever.
        try #require(bed.fake.liveActivity(pushToken: activity.pushToken)?.state == .dismissed)
        var seen: [LiveActivity] = []
        for await snapshot in states { seen.append(snapshot) }
        #expect(seen.map(\.state) == [.active, .active, .ended, .dismissed])
        #expect(seen.map(\.contentState.stage) == [.confirmed, .onTheWay, .delivered, .delivered])
        #expect(seen == bed.fake.liveActivityHistory(pushToken: activity.pushToken))
    }

    @Test func theAdminViewListsDevicesActivities() throws {
        let (bed, activity) = try Self.withActivity()
        let pushToStart = bed.fake.registerPushToStartToken(device: T.token)
        let response = AdminRoutesTests.call(bed.fake, "GET", "/apns/live-activities")
        #expect(response.status.code == 200)
        let devices = try #require(AdminRoutesTests.object(response)["devices"] as? [[String: Any]])
        #expect(devices.count == 1)
        #expect(devices.first?["deviceToken"] as? String == T.token)
        #expect(devices.first?["pushToStartToken"] as? String == pushToStart)
        let item = try #require((devices.first?["activities"] as? [[String: Any]])?.first)
        #expect(item["pushToken"] as? String == activity.pushToken)
        #expect(item["state"] as? String == "active")
        #expect(item["orderId"] as? String == "8F3K")
        #expect((item["contentState"] as? [String: Any])?["stage"] as? String == "confirmed")
    }

    /// The content state's `eta` (seconds since 2001, as ActivityKit decodes it) is written as
    /// the admin API writes every time; one past the year 9999 is clamped to its last instant
    /// (the journal's rule), not written as 1970.
    @Test(arguments: [("820000000.25", "2026-12-26T17:46:40.250Z"), ("1e300", "9999-12-31T23:59:59.999Z")])
    func theAdminViewWritesTheETAAsEveryAdminTime(eta: String, expected: String) throws {
        let (bed, activity) = try Self.withActivity()
        let update = Self.push(activity.pushToken, #""event":"update","timestamp":\#(Self.now + 1),"content-state":{"stage":"onTheWay","eta":\#(eta)}"#)
        #expect(bed.fake.handle(update).status.code == 200)
        let response = AdminRoutesTests.call(bed.fake, "GET", "/apns/live-activities")
        let devices = try #require(AdminRoutesTests.object(response)["devices"] as? [[String: Any]])
        let item = try #require((devices.first?["activities"] as? [[String: Any]])?.first)
        #expect((item["contentState"] as? [String: Any])?["eta"] as? String == expected)
    }
}
