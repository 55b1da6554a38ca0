import Contracts
import FakeSupport

/// The Live Activities of FakeAPNs' simulated devices: the declared activity types, each
/// device's push-to-start token per type and activities (several types side by side), and
/// every activity's state, history and priority-10 budget. Part of
/// ``FakeAPNsState``, so it lives behind the fake's one lock; it never reads a clock (`now`
/// is passed in), so its rules are tested with plain values.
///
/// Time-driven changes (stale, ended after eight hours, dismissed) are applied when the fake
/// next looks at an activity — a push to it, or a read — at the time they happened, in order.
struct LiveActivityStore {
    struct Record {
        var current: StoredLiveActivity
        /// The newest ``LiveActivityPolicy/statesKeptPerActivity`` snapshots, oldest first.
        var history: [StoredLiveActivity]
        /// When each priority-10 push in the last hour was applied.
        var priority10: [Int64] = []
        var streams: [UInt64: LiveActivitySink] = [:]
    }

    struct DeviceEntry {
        /// The push-to-start token of each declared type (`Activity<T>.pushToStartTokenUpdates`).
        var pushToStartTokens: [String: String] = [:]
        /// The one registered last, of any type.
        var pushToStartToken: String?
        /// The device's activities' push tokens, oldest first.
        var activityTokens: [String] = []
    }

    /// What a token in a Live Activity push's path names.
    enum Target: Equatable {
        case pushToStart(deviceToken: String, attributesType: String)
        case activity(pushToken: String)
    }

    var devices: [String: DeviceEntry] = [:]
    /// Push-to-start token → device token and activity type.
    var pushToStartTokens: [String: (device: String, attributesType: String)] = [:]
    var activities: [String: Record] = [:]
    /// The declared types by `attributes-type`; kept across a reset.
    var types: [String: DeclaredActivityType] = [:]

    /// Declares `type`; another type of the same name replaces the earlier one, the same
    /// type again changes nothing (the generic calls declare their type each time).
    mutating func declare<Attributes: LiveActivityAttributes>(_ type: Attributes.Type) {
        guard types[Attributes.attributesType]?.type != ObjectIdentifier(type) else { return }
        types[Attributes.attributesType] = DeclaredActivityType(type)
    }

    /// Where an activity's record is in ``activities``: valid until the store next changes.
    typealias RecordIndex = Dictionary<String, Record>.Index

    /// What `token` names, the device it belongs to, and for an activity where its record is
    /// (for ``apply(_:to:priority:now:policy:newToken:at:)`` before the store changes), with
    /// one look-up of the token.
    func targetAndDevice(of token: String) -> (target: Target, deviceToken: String?, record: RecordIndex?)? {
        if let index = activities.index(forKey: token) {
            return (.activity(pushToken: token), activities.values[index].current.deviceToken, index)
        }
        if let owner = pushToStartTokens[token] { return (.pushToStart(deviceToken: owner.device, attributesType: owner.attributesType), owner.device, nil) }
        return nil
    }

    /// The `attributes-type` of the activity whose push token is `token`, without a copy of its record.
    func attributesType(ofActivity token: String) -> String? {
        guard let index = activities.index(forKey: token) else { return nil }
        return activities.values[index].current.attributesType
    }

    /// The payload contract of the declared type `name`, without a copy of the rest of its declaration.
    func contract(ofType name: String) -> SharedContract? {
        guard let index = types.index(forKey: name) else { return nil }
        return types.values[index].contract
    }

    /// Gives `device` the push-to-start token `token` for `attributesType`, replacing its
    /// earlier one for that type.
    mutating func setPushToStartToken(_ token: String, device: String, attributesType: String) {
        if let old = devices[device]?.pushToStartTokens[attributesType] { pushToStartTokens[old] = nil }
        if let owner = pushToStartTokens[token] {
            devices[owner.device]?.pushToStartTokens[owner.attributesType] = nil
            if devices[owner.device]?.pushToStartToken == token { devices[owner.device]?.pushToStartToken = nil }
        }
        devices[device, default: DeviceEntry()].pushToStartTokens[attributesType] = token
        devices[device, default: DeviceEntry()].pushToStartToken = token
        pushToStartTokens[token] = (device, attributesType)
    }

    // MARK: Applying pushes

    /// What a Live Activity push does on the device: the outcome for the journal, and why in
    /// words when it was not applied.
    /// - Parameter record: where the target activity's record is, from
    ///   ``targetAndDevice(of:)`` with the store unchanged since; nil: looked up here.
    mutating func apply(_ push: LiveActivityPush, to target: Target, priority: Int, now: Int64,
                        policy: LiveActivityPolicy, newToken: String, at record: RecordIndex? = nil) -> (DeliveryOutcome, String) {
        switch target {
        case .pushToStart(let device, let tokenType):
            guard push.event == .start else {
                return (.ignoredWrongToken, "an \(push.event.rawValue) push goes to the activity's push token, not the push-to-start token")
            }
            return start(push, device: device, tokenType: tokenType, now: now, policy: policy, token: newToken)
        case .activity(let token):
            // Settled and updated in place: one look-up of the token, no copy of the record.
            guard let index = record ?? activities.index(forKey: token) else { return (.ignoredWrongToken, "no such activity") }
            Self.settleRecord(&activities.values[index], now: now, policy: policy)
            guard let type = types[activities.values[index].current.attributesType] else { return (.ignoredWrongToken, "no such activity type") }
            return Self.update(&activities.values[index], of: type, with: push, priority: priority, now: now, policy: policy)
        }
    }

    private mutating func start(_ push: LiveActivityPush, device: String, tokenType: String, now: Int64, policy: LiveActivityPolicy,
                                token: String) -> (DeliveryOutcome, String) {
        guard let name = push.attributesType, let type = types[name] else {
            return (.droppedUndecodableAttributes, unknownType(push.attributesType))
        }
        guard name == tokenType else {
            return (.droppedUndecodableAttributes,
                    "attributes-type \"\(name)\" is not \(tokenType), the type of this push-to-start token (Activity<\(tokenType)>.pushToStartTokenUpdates): send it to the \(name) token")
        }
        let attributes: DeclaredValue
        switch push.parsedAttributes.map(type.decodeAttributes) {
        case .success(let value)?: attributes = value
        case .failure(let why)?: return (.droppedUndecodableAttributes, why.message)
        case nil: return (.droppedUndecodableAttributes, "a start push without attributes")
        }
        let state: DeclaredValue
        switch Self.contentState(of: push, type: type) {
        case .success(let value?): state = value
        case .success(nil): return (.droppedUndecodableContentState, "a start push without content-state")
        case .failure(let why): return (.droppedUndecodableContentState, why.message)
        }
        guard makeRoom(on: device, now: now, policy: policy) else {
            return (.droppedTooManyActivities, "the device already shows \(max(1, policy.activitiesPerDevice)) activities")
        }
        let activity = StoredLiveActivity(
            pushToken: token, deviceToken: device, attributesType: name, attributes: attributes, contentState: state, state: .active,
            changedAt: now, startedAt: now, endedAt: nil, staleAt: push.staleDate.map(Self.milliseconds),
            dismissalAt: nil, timestamp: push.timestamp, relevanceScore: push.relevanceScore, pushesApplied: 1)
        activities[token] = Record(current: activity, history: [activity])
        devices[device, default: DeviceEntry()].activityTokens.append(token)
        settle(token, now: now, policy: policy)   // a stale-date already past
        return (.activityStarted, "started activity \(token) for \(type.describeAttributes(attributes))")
    }

    /// Registers an activity the app started itself (`Activity.request`), as a test does.
    mutating func insert(_ activity: StoredLiveActivity, now: Int64, policy: LiveActivityPolicy) -> Bool {
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
            for sink in record.streams.values { sink.finish() }
        }
        devices[device]?.activityTokens = tokens
        return true
    }

    private static func update(_ record: inout Record, of type: DeclaredActivityType, with push: LiveActivityPush, priority: Int, now: Int64,
                               policy: LiveActivityPolicy) -> (DeliveryOutcome, String) {
        // The next snapshot, its members the current ones until changed: one copy of the state.
        var next = record.current
        if push.event == .start {
            return (.ignoredWrongToken, "a start push goes to the push-to-start token, not an activity's push token")
        }
        if next.state == .ended || next.state == .dismissed {
            return (.ignoredAfterEnd, "the activity \(next.state == .ended ? "ended" : "was dismissed") at \(AdminJSON.timestamp(milliseconds: next.endedAt ?? next.changedAt))")
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
        guard push.timestamp > next.timestamp else {
            return (.ignoredOlderTimestamp, "timestamp \(push.timestamp) is not newer than the last applied \(next.timestamp)")
        }
        let state: DeclaredValue?
        switch contentState(of: push, type: type) {
        case .success(let value): state = value
        case .failure(let why): return (.droppedUndecodableContentState, why.message)
        }
        if push.event == .update && state == nil {
            return (.droppedUndecodableContentState, "an update push without content-state")
        }
        if priority == 10 { record.priority10.append(now) }
        next.contentState = state ?? next.contentState
        next.timestamp = push.timestamp
        next.relevanceScore = push.relevanceScore ?? next.relevanceScore
        next.pushesApplied += 1
        next.changedAt = now
        if push.event == .update {
            next.state = .active
            next.staleAt = push.staleDate.map(milliseconds)
            append(next, to: &record, policy: policy)
            settleRecord(&record, now: now, policy: policy)
            return (.activityUpdated, "applied: \(type.describeContentState(next.contentState))")
        }
        next.staleAt = push.staleDate.map(milliseconds) ?? next.staleAt
        end(&record, as: next, at: now, requestedDismissal: push.dismissalDate.map(milliseconds), policy: policy)
        settleRecord(&record, now: now, policy: policy)
        return (.activityEnded, "ended; dismissed at \(AdminJSON.timestamp(milliseconds: record.current.dismissalAt ?? now))")
    }

    /// The push's content state decoded, nil when absent, or why it does not decode.
    private static func contentState(of push: LiveActivityPush, type: DeclaredActivityType) -> Result<DeclaredValue?, Unapplied> {
        guard let parsed = push.parsedContentState else { return .success(nil) }
        return type.decodeContentState(parsed).map { $0 }
    }

    /// Why a start push's `attributes-type` starts nothing: the declared types, and the
    /// nearest one when it looks like a typo.
    func unknownType(_ name: String?) -> String {
        let declared = types.keys.sorted()
        let list = declared.isEmpty ? "none" : declared.joined(separator: ", ")
        guard let name else { return "a start push without attributes-type; the app's declared types: \(list)" }
        let guess = Suggestion.closest(to: name, among: declared).map { " — did you mean \"\($0)\"?" } ?? ""
        return "attributes-type \"\(name)\" is not a declared activity type (\(list)): the app has no such activity\(guess)"
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
            // Read in place; the state is copied only when time changed it.
            let systemEnd = record.current.startedAt &+ max(0, policy.maximumActiveSeconds) &* 1000
            switch record.current.state {
            case .active, .stale:
                if record.current.state == .active, let stale = record.current.staleAt, stale <= now, stale < systemEnd {
                    var next = record.current
                    next.state = .stale
                    next.changedAt = max(stale, next.changedAt)
                    append(next, to: &record, policy: policy)
                } else if systemEnd <= now {
                    var next = record.current
                    next.changedAt = max(systemEnd, next.changedAt)
                    end(&record, as: next, at: next.changedAt, requestedDismissal: nil, policy: policy)
                } else {
                    return
                }
            case .ended:
                guard let dismissal = record.current.dismissalAt, dismissal <= now else { return }
                var next = record.current
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
    private static func end(_ record: inout Record, as snapshot: StoredLiveActivity, at: Int64, requestedDismissal: Int64?,
                            policy: LiveActivityPolicy) {
        var ended = snapshot
        ended.state = .ended
        ended.endedAt = at
        let latest = at &+ max(0, policy.dismissalAfterEndSeconds) &* 1000
        ended.dismissalAt = min(requestedDismissal ?? latest, latest)
        append(ended, to: &record, policy: policy)
    }

    private static func append(_ snapshot: StoredLiveActivity, to record: inout Record, policy: LiveActivityPolicy) {
        record.current = snapshot
        let keep = max(1, policy.statesKeptPerActivity)
        record.history.append(snapshot)
        if record.history.count >= 2 &* keep { record.history.removeFirst(record.history.count - keep) }
        for sink in record.streams.values { sink.yield(snapshot) }
        if snapshot.state == .dismissed {   // nothing changes after this: the streams end
            for sink in record.streams.values { sink.finish() }
            record.streams.removeAll()
        }
    }

    /// Forgets every device and activity, ending every stream of states; the declared types stay.
    mutating func removeAll() {
        for record in activities.values {
            for sink in record.streams.values { sink.finish() }
        }
        self = LiveActivityStore(types: types)
    }

    /// Unix seconds as milliseconds, clamped (a client's number must not trap).
    static func milliseconds(_ seconds: Int64) -> Int64 {
        let (value, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? (seconds < 0 ? .min / 2 : .max / 2) : value
    }
}
