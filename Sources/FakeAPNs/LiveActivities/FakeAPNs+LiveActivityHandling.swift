import Contracts
import LoopbackHTTP
import FakeSupport
import PushCore

/// A Live Activity push's body as the fake read it, outside the lock: its contract verdict
/// and what the device reads from it.
struct LiveActivityInspection {
    var inspection: PayloadInspection?
    var push: Result<LiveActivityPush, LiveActivityPush.Unreadable>
}

extension FakeAPNs {
    /// The `live-activity-payload` contract of the v1 set, looked up once: for a push whose
    /// type the fake cannot tell (a start naming no declared type, a broadcast).
    static let liveActivityContract = ContractSet.v1.contract(named: "live-activity-payload").map(SharedContract.init)

    /// Reads a Live Activity push's body: the JSON object check and the payload contract of
    /// its declared type (instead of the alert `payload` contract), then the device's reading
    /// of it. The type is the start's `attributes-type`, else that of the activity at `token`
    /// (for a broadcast on `channelID`: of its first subscriber); otherwise the v1
    /// `live-activity-payload`. Runs outside the lock (it takes it once to look the type up);
    /// only pushes with `apns-push-type: liveactivity` come here. A broadcast's body may be
    /// larger (`limit`: 5 KB).
    func inspectLiveActivity(_ body: [UInt8], token: String? = nil, channelID: String? = nil,
                             limit: Int = APNsPushType.liveactivity.maximumPayloadBytes) -> LiveActivityInspection {
        guard !body.isEmpty, body.count <= limit else {
            return LiveActivityInspection(inspection: nil, push: .failure(.init(reason: "the body is empty or too large")))
        }
        guard let node = PayloadInspectors.parseObject(body) else {
            return LiveActivityInspection(inspection: PayloadInspection(isJSONObject: false),
                                          push: .failure(.init(reason: "the body is not a JSON object")))
        }
        // The device's reading, taken first: when the parsed body tells it, it names the
        // type (its aps and attributes-type are then the only ones) without another look-up.
        let parsed = LiveActivityPush.readParsed(node)
        let named: String?
        if case .read(let push) = parsed {
            named = push.attributesType
        } else {
            named = node.member("aps")?.value.member("attributes-type")?.value.stringValue
        }
        let contract = state.withLock { s -> SharedContract? in
            if let named, let contract = s.liveActivities.contract(ofType: named) { return contract }
            let subscriber = channelID.flatMap { s.channels.channels[$0]?.channel.subscribers.first }
            guard let token = token ?? subscriber else { return nil }
            // Tokens are lowercase already but for a client's uppercase hex.
            let hasUppercase = token.utf8.withContiguousStorageIfAvailable { $0.contains { $0 &- UInt8(ascii: "A") < 26 || $0 >= 0x80 } } ?? true
            let key = hasUppercase ? token.lowercased() : token
            guard let attributesType = s.liveActivities.attributesType(ofActivity: key) else { return nil }
            return s.liveActivities.contract(ofType: attributesType)
        } ?? Self.liveActivityContract
        let violations = contract?.contract.validate(node, sourceByteCount: body.count) ?? []
        return LiveActivityInspection(inspection: PayloadInspection(isJSONObject: true, violations: violations),
                                      push: LiveActivityPush.read(body, node: node, parsed: parsed))
    }

    /// Steps 10–11 for `apns-push-type: liveactivity`, once the request itself passed: the
    /// token must be an activity's push token (update, end) or a push-to-start token (start),
    /// on a device registered for the topic's bundle id, and then the device applies the push
    /// or journals why not. Answered 200 either way, as APNs does: the device, not APNs,
    /// decides what to do with an update.
    ///
    /// Refusals, from Apple's reasons: a device token (not an activity's) gets
    /// `DeviceTokenNotForTopic` — Apple's "the device token doesn't match the specified
    /// topic": the device token was issued for `<bundle>`, not `<bundle>.push-type.liveactivity`
    /// (a topic without that suffix was already `BadTopic`, a bundle not served
    /// `TopicDisallowed`); an unknown token `BadDeviceToken`; a device of the other environment
    /// `BadDeviceToken`; an unregistered device 410 `Unregistered`.
    func evaluateLiveActivity(_ push: APNsPushRequest, request: HTTPRequest, reading: Result<LiveActivityPush, LiveActivityPush.Unreadable>,
                              apnsID: String, environment: APNsEnvironment, now: Int64,
                              liveActivities: inout LiveActivityStore, channels: inout BroadcastChannelStore,
                              devices: DeviceStore, identifiers: inout SplitMix64) -> Verdict {
        func reject(_ reason: APNsReason, timestamp: Int64? = nil, _ detail: String) -> Verdict {
            Verdict(status: reason.status, reason: reason, push: push, delivery: nil,
                    response: errorResponse(reason, apnsID: apnsID, timestamp: timestamp), detail: detail)
        }
        guard let (target, owner, record) = liveActivities.targetAndDevice(of: push.deviceToken) else {
            if devices[push.deviceToken]?.registered == true {
                return reject(.deviceTokenNotForTopic,
                              "this is a device token; a Live Activity push goes to an activity's push token (update, end) or the app's push-to-start token (start)")
            }
            return reject(.badDeviceToken, "the token is not an activity's push token nor a push-to-start token")
        }
        if let owner, let device = devices[owner] {
            if let at = device.unregisteredAt {
                return reject(.unregistered, timestamp: at, "the device was unregistered at \(AdminJSON.timestamp(milliseconds: at))")
            }
            if device.registered && device.environment != environment {
                return reject(.badDeviceToken, Self.environmentMismatch(device.environment, request: request, environment: environment))
            }
            let bundleID = APNsPushType.bundleID(ofTopic: push.topic)
            if device.registered && !device.anyTopic && !device.topics.contains(bundleID) {
                return reject(.deviceTokenNotForTopic,
                              "the device is registered for \(device.topics.sorted().joined(separator: ", ")), not \(bundleID)")
            }
        }
        let outcome: DeliveryOutcome
        let detail: String
        switch reading {
        case .failure(let unreadable):
            (outcome, detail) = (.droppedUnreadable, unreadable.reason)
        case .success(let activityPush):
            var token = ""
            if case .pushToStart = target { token = Self.makeActivityToken(using: &identifiers) }
            let (applied, applyDetail) = liveActivities.apply(activityPush, to: target, priority: push.priority, now: now,
                                                              policy: settings.liveActivities, newToken: token, at: record)
            var why = applyDetail
            if applied == .activityStarted, let channel = activityPush.inputPushChannel {
                why += channels.subscribe(token, to: channel)
                    ? "; subscribed to channel \(channel)" : "; input-push-channel \(channel) is no channel: not subscribed"
            }
            (outcome, detail) = (applied, why)
        }
        return Verdict(status: 200, reason: nil, push: push, delivery: outcome,
                       response: acceptedResponse(apnsID: apnsID, environment: environment, identifiers: &identifiers), detail: detail)
    }

    /// A new Live Activity push token or push-to-start token: 80 random bytes as 160 lowercase
    /// hex digits, the length iOS issues them (device tokens have 64), from the fake's generator.
    static func makeActivityToken(using generator: inout some RandomNumberGenerator) -> String {
        var hex = ""
        hex.reserveCapacity(160)
        for _ in 0..<10 {
            let word = generator.next() as UInt64
            for nibble in 0..<16 {
                let value = UInt8(truncatingIfNeeded: (word >> UInt64(60 - nibble * 4)) & 0xF)
                hex.unicodeScalars.append(Unicode.Scalar(value < 10 ? 48 + value : 87 + value))
            }
        }
        return hex
    }
}
