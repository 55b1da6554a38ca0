import Contracts
import FakeSupport

/// The Live Activities of FakeAPNs' simulated devices: each device's push-to-start token and
/// activities, and every activity's state, history and priority-10 budget. Part of
/// ``FakeAPNsState``, so it lives behind the fake's one lock; it never reads a clock (`now`
/// is passed in), so its rules are tested with plain values.
///
/// Time-driven changes (stale, ended after eight hours, dismissed) are applied when the fake
/// next looks at an activity — a push to it, or a read — at the time they happened, in order.
struct LiveActivityStore {
    struct Record {
        var current: LiveActivity
        /// The newest ``LiveActivityPolicy/statesKeptPerActivity`` snapshots, oldest first.
        var history: [LiveActivity]
        /// When each priority-10 push in the last hour was applied.
        var priority10: [Int64] = []
        var streams: [UInt64: AsyncStream<LiveActivity>.Continuation] = [:]
    }

    struct DeviceEntry {
        var pushToStartToken: String?
        /// The device's activities' push tokens, oldest first.
        var activityTokens: [String] = []
    }

    /// What a token in a Live Activity push's path names.
    enum Target: Equatable {
        case pushToStart(deviceToken: String)
        case activity(pushToken: String)
    }

    var devices: [String: DeviceEntry] = [:]
    /// Push-to-start token → device token.
    var pushToStartTokens: [String: String] = [:]
    var activities: [String: Record] = [:]

    func target(of token: String) -> Target? {
        if activities[token] != nil { return .activity(pushToken: token) }
        if let device = pushToStartTokens[token] { return .pushToStart(deviceToken: device) }
        return nil
    }

    /// The device an activity or push-to-start token belongs to.
    func deviceToken(of target: Target) -> String? {
        switch target {
        case .pushToStart(let device): device
        case .activity(let token): activities[token]?.current.deviceToken
        }
    }

    /// Gives `device` the push-to-start token `token`, replacing its earlier one.
    mutating func setPushToStartToken(_ token: String, device: String) {
        if let old = devices[device]?.pushToStartToken { pushToStartTokens[old] = nil }
        if let owner = pushToStartTokens[token] { devices[owner]?.pushToStartToken = nil }
        devices[device, default: DeviceEntry()].pushToStartToken = token
        pushToStartTokens[token] = device
    }

    // MARK: Applying pushes

    /// What a Live Activity push does on the device: the outcome for the journal, and why in
    /// words when it was not applied.
    mutating func apply(_ push: LiveActivityPush, to target: Target, priority: Int, now: Int64,
                        policy: LiveActivityPolicy, newToken: String) -> (DeliveryOutcome, String) {
        switch target {
        case .pushToStart(let device):
            guard push.event == .start else {
                return (.ignoredWrongToken, "an \(push.event.rawValue) push goes to the activity's push token, not the push-to-start token")
            }
            return start(push, device: device, now: now, policy: policy, token: newToken)
        case .activity(let token):
            settle(token, now: now, policy: policy)
            guard var record = activities.removeValue(forKey: token) else { return (.ignoredWrongToken, "no such activity") }
            defer { activities[token] = record }
            return Self.update(&record, with: push, priority: priority, now: now, policy: policy)
        }
    }

    private mutating func start(_ push: LiveActivityPush, device: String, now: Int64, policy: LiveActivityPolicy,
                                token: String) -> (DeliveryOutcome, String) {
        guard push.attributesType == OrderTrackerAttributes.typeName else {
            return (.droppedUndecodableAttributes,
                    "attributes-type \(push.attributesType.map { "\"\($0)\"" } ?? "missing") is not \(OrderTrackerAttributes.typeName): the app has no such activity")
        }
        let attributes: OrderTrackerAttributes
        switch push.attributes {
        case .value(let value)?: attributes = value
        case .undecodable(let why)?: return (.droppedUndecodableAttributes, "attributes do not decode into OrderTrackerAttributes: \(why)")
        case nil: return (.droppedUndecodableAttributes, "a start push without attributes")
        }
        let state: OrderTrackerAttributes.ContentState
        switch Self.contentState(of: push) {
        case .success(let value?): state = value
        case .success(nil): return (.droppedUndecodableContentState, "a start push without content-state")
        case .failure(let why): return (.droppedUndecodableContentState, why.message)
        }
        guard makeRoom(on: device, now: now, policy: policy) else {
            return (.droppedTooManyActivities, "the device already shows \(max(1, policy.activitiesPerDevice)) activities")
        }
        let activity = LiveActivity(
            pushToken: token, deviceToken: device, attributes: attributes, contentState: state, state: .active,
            changedAt: now, startedAt: now, endedAt: nil, staleAt: push.staleDate.map(Self.milliseconds),
            dismissalAt: nil, timestamp: push.timestamp, relevanceScore: push.relevanceScore, pushesApplied: 1)
        activities[token] = Record(current: activity, history: [activity])
        devices[device, default: DeviceEntry()].activityTokens.append(token)
        settle(token, now: now, policy: policy)   // a stale-date already past
        return (.activityStarted, "started activity \(token) for order \(attributes.orderId)")
    }

    /// Registers an activity the app started itself (`Activity.request`), as a test does.
    mutating func insert(_ activity: LiveActivity, now: Int64, policy: LiveActivityPolicy) -> Bool {
        guard activities[activity.pushToken] == nil, pushToStartTokens[activity.pushToken] == nil,
              makeRoom(on: activity.deviceToken, now: now, policy: policy) else { return false }
        activities[activity.pushToken] = Record(current: activity, history: [activity])
        devices[activity.deviceToken, default: DeviceEntry()].activityTokens.append(activity.pushToken)
        return true
    }

    /// Room for one more activity on `device`: forgets the oldest dismissed one when full.
    private mutating func makeRoom(on device: String, now: Int64, policy: LiveActivityPolicy) -> Bool {
        var tokens = devices[device]?.activityTokens ?? []
        guard tokens.count >= max(1, policy.activitiesPerDevice) else { return true }
        for token in tokens { settle(token, now: now, policy: policy) }
        guard let index = tokens.firstIndex(where: { activities[$0]?.current.state ?? .dismissed == .dismissed }) else { return false }
        let forgotten = tokens.remove(at: index)
        if let record = activities.removeValue(forKey: forgotten) {
            for continuation in record.streams.values { continuation.finish() }
        }
        devices[device]?.activityTokens = tokens
        return true
    }

    private static func update(_ record: inout Record, with push: LiveActivityPush, priority: Int, now: Int64,
                               policy: LiveActivityPolicy) -> (DeliveryOutcome, String) {
        let current = record.current
        if push.event == .start {
            return (.ignoredWrongToken, "a start push goes to the push-to-start token, not an activity's push token")
        }
        if current.state == .ended || current.state == .dismissed {
            return (.ignoredAfterEnd, "the activity \(current.state == .ended ? "ended" : "was dismissed") at \(AdminJSON.timestamp(milliseconds: current.endedAt ?? current.changedAt))")
        }
        if priority == 10 {
            let hourAgo = now &- 3_600_000
            record.priority10.removeAll { $0 <= hourAgo }
            let budget = max(0, policy.priority10Budget)
            if record.priority10.count >= budget {
                return (.droppedOverBudget,
                        "\(budget) priority-10 updates in the last hour already; send at priority 5 or wait until \(AdminJSON.timestamp(milliseconds: (record.priority10.first ?? now) &+ 3_600_000))")
            }
        }
        guard push.timestamp > current.timestamp else {
            return (.ignoredOlderTimestamp, "timestamp \(push.timestamp) is not newer than the last applied \(current.timestamp)")
        }
        let state: OrderTrackerAttributes.ContentState?
        switch contentState(of: push) {
        case .success(let value): state = value
        case .failure(let why): return (.droppedUndecodableContentState, why.message)
        }
        if push.event == .update && state == nil {
            return (.droppedUndecodableContentState, "an update push without content-state")
        }
        if priority == 10 { record.priority10.append(now) }
        var next = current
        next.contentState = state ?? current.contentState
        next.timestamp = push.timestamp
        next.relevanceScore = push.relevanceScore ?? current.relevanceScore
        next.pushesApplied += 1
        next.changedAt = now
        if push.event == .update {
            next.state = .active
            next.staleAt = push.staleDate.map(milliseconds)
            append(next, to: &record, policy: policy)
            settleRecord(&record, now: now, policy: policy)
            return (.activityUpdated, "applied: stage \(next.contentState.stage.rawValue)")
        }
        next.staleAt = push.staleDate.map(milliseconds) ?? current.staleAt
        end(&record, as: next, at: now, requestedDismissal: push.dismissalDate.map(milliseconds), policy: policy)
        settleRecord(&record, now: now, policy: policy)
        return (.activityEnded, "ended; dismissed at \(AdminJSON.timestamp(milliseconds: record.current.dismissalAt ?? now))")
    }

    /// The push's content state decoded, nil when absent, or why it does not decode.
    private static func contentState(of push: LiveActivityPush) -> Result<OrderTrackerAttributes.ContentState?, Unapplied> {
        switch push.contentState {
        case .value(let state)?: .success(state)
        case .undecodable(let why)?: .failure(Unapplied(message: "content-state does not decode into OrderTrackerAttributes.ContentState: \(why)"))
        case nil: .success(nil)
        }
    }

    struct Unapplied: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    // MARK: Time

    /// Applies what time did to the activity up to `now`, in the order it happened: stale,
    /// ended by the system, dismissed.
    mutating func settle(_ token: String, now: Int64, policy: LiveActivityPolicy) {
        guard var record = activities.removeValue(forKey: token) else { return }
        Self.settleRecord(&record, now: now, policy: policy)
        activities[token] = record
    }

    private static func settleRecord(_ record: inout Record, now: Int64, policy: LiveActivityPolicy) {
        for _ in 0..<4 {   // at most stale, ended, dismissed
            var next = record.current
            let systemEnd = next.startedAt &+ max(0, policy.maximumActiveSeconds) &* 1000
            switch next.state {
            case .active, .stale:
                if next.state == .active, let stale = next.staleAt, stale <= now, stale < systemEnd {
                    next.state = .stale
                    next.changedAt = max(stale, next.changedAt)
                    append(next, to: &record, policy: policy)
                } else if systemEnd <= now {
                    next.changedAt = max(systemEnd, next.changedAt)
                    end(&record, as: next, at: next.changedAt, requestedDismissal: nil, policy: policy)
                } else {
                    return
                }
            case .ended:
                guard let dismissal = next.dismissalAt, dismissal <= now else { return }
                next.state = .dismissed
                next.changedAt = max(dismissal, next.changedAt)
                append(next, to: &record, policy: policy)
            case .dismissed:
                return
            }
        }
    }

    /// Ends the activity at `at`; dismissal at the requested date, cut to the policy's
    /// hours after the end (at once when it is already past: ``settleRecord`` does that).
    private static func end(_ record: inout Record, as snapshot: LiveActivity, at: Int64, requestedDismissal: Int64?,
                            policy: LiveActivityPolicy) {
        var ended = snapshot
        ended.state = .ended
        ended.endedAt = at
        let latest = at &+ max(0, policy.dismissalAfterEndSeconds) &* 1000
        ended.dismissalAt = min(requestedDismissal ?? latest, latest)
        append(ended, to: &record, policy: policy)
    }

    private static func append(_ snapshot: LiveActivity, to record: inout Record, policy: LiveActivityPolicy) {
        record.current = snapshot
        let keep = max(1, policy.statesKeptPerActivity)
        record.history.append(snapshot)
        if record.history.count >= 2 &* keep { record.history.removeFirst(record.history.count - keep) }
        for continuation in record.streams.values { continuation.yield(snapshot) }
        if snapshot.state == .dismissed {   // nothing changes after this: the streams end
            for continuation in record.streams.values { continuation.finish() }
            record.streams.removeAll()
        }
    }

    /// Forgets everything, ending every stream of states.
    mutating func removeAll() {
        for record in activities.values {
            for continuation in record.streams.values { continuation.finish() }
        }
        self = LiveActivityStore()
    }

    /// Unix seconds as milliseconds, clamped (a client's number must not trap).
    static func milliseconds(_ seconds: Int64) -> Int64 {
        let (value, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? (seconds < 0 ? .min / 2 : .max / 2) : value
    }
}
