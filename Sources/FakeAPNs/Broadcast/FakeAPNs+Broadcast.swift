import Foundation
import LoopbackHTTP
import FakeSupport

extension FakeAPNs {
    /// Answers `POST /4/broadcasts/apps/{bundle}` on the push port, as APNs does for a
    /// broadcast to a channel, and applies it to every simulated activity subscribed to the
    /// channel under the per-activity rules (timestamps, after end, stale, budget).
    ///
    /// Checks, the first failing one answered (Docs/readme/broadcast.md):
    /// 1. method not POST → 405 `MethodNotAllowed`; path not `/4/broadcasts/apps/{bundle}` → 404 `BadPath`
    /// 2. `apns-channel-id`, `apns-request-id` or a header the push API reads once sent twice → `DuplicateHeaders`
    /// 3. authentication, as on the push API (certificate, else provider token)
    /// 4. the bundle: `FeatureNotEnabled`, `TopicDisallowed`, `TopicMismatch`
    /// 5. `apns-channel-id` missing → `MissingChannelId`, not base64 of 1–64 bytes → `BadChannelId`
    /// 6. `apns-push-type` missing → `MissingPushType`, not `liveactivity` → `InvalidPushType`
    /// 7. `apns-priority` not 5 or 10 → `BadPriority`; `apns-expiration` not digits → `BadExpirationDate`
    /// 8. the channel unknown in this environment for this bundle id → 404 `ChannelNotRegistered`
    /// 9. a non-zero `apns-expiration` on a channel without storage → `BadRequestParams`
    /// 10. body empty → `PayloadEmpty`, over 5120 bytes → 413 `PayloadTooLarge`, not a JSON
    ///    object or `"event": "start"` → `BadRequestPayload`
    func handleBroadcast(_ request: HTTPRequest) -> HTTPResponse {
        let now = clock.nowMilliseconds()
        let headers = APNsRequestHeaders(request.headers)
        let extra = BroadcastRequestHeaders(request.headers)
        let limit = APNsPushType.voip.maximumPayloadBytes  // Apple: 5 KB for a broadcast
        let reading = request.bodyLimitExceeded ? nil : inspectLiveActivity(request.body, channelID: extra.channelID, limit: limit)
        let bundleID = Self.bundleID(inPath: request.path, prefix: "/4/broadcasts/apps/")
        let preverified = request.method == "POST" && bundleID != nil
            ? preverifyProviderToken(request, authorization: headers.authorization) : nil  // before the lock
        return answerJournaled(request, requestID: extra.requestID) { entry, environment, requestID, s in
            entry.topic = bundleID ?? headers.topic
            entry.pushType = headers.pushType
            entry.violations = reading?.inspection?.violations ?? []
            entry.channelID = extra.channelID
            let verdict = evaluateBroadcast(request, bundleID: bundleID, headers: headers, extra: extra, reading: reading,
                                            environment: environment, now: now, preverified: preverified,
                                            authentication: &s.authentication, liveActivities: &s.liveActivities,
                                            channels: &s.channels, devices: s.devices)
            entry.status = verdict.status
            entry.reason = verdict.reason?.reason
            entry.detail = verdict.detail
            if let reason = verdict.reason {
                return (Self.broadcastResponse(status: reason.status, requestID: requestID, reason: reason), verdict.providerTokenRejected)
            }
            var unique: [HTTPFields.Field] = []
            if environment == .sandbox {  // as on the push API: the development environment only
                unique.append(HTTPFields.Field(name: "apns-unique-id", value: APNsIdentifier.make(uppercase: false, using: &s.identifiers)))
            }
            return (Self.broadcastResponse(status: 200, requestID: requestID, extra: unique), false)
        }
    }

    struct BroadcastVerdict {
        var status: Int
        var reason: APNsReason?
        var detail: String?
        var providerTokenRejected = false
    }

    private func evaluateBroadcast(_ request: HTTPRequest, bundleID: String?, headers: APNsRequestHeaders,
                                   extra: BroadcastRequestHeaders, reading: LiveActivityInspection?,
                                   environment: APNsEnvironment, now: Int64, preverified: PreverifiedToken?,
                                   authentication: inout ProviderAuthenticationState, liveActivities: inout LiveActivityStore,
                                   channels: inout BroadcastChannelStore, devices: DeviceStore) -> BroadcastVerdict {
        func reject(_ reason: APNsReason, _ detail: String? = nil) -> BroadcastVerdict {
            BroadcastVerdict(status: reason.status, reason: reason, detail: detail)
        }
        guard request.method == "POST" else { return reject(.methodNotAllowed) }
        guard let bundleID else { return reject(.badPath, "a broadcast goes to /4/broadcasts/apps/{bundle id}") }
        if headers.hasDuplicates || extra.hasDuplicates { return reject(.duplicateHeaders) }
        let certificateTopics: [String]?
        switch authenticate(request, authorization: headers.authorization, environment: environment, now: now,
                            preverified: preverified, authentication: &authentication) {
        case .failure(let refusal):
            var verdict = reject(refusal.reason, refusal.detail)
            verdict.providerTokenRejected = refusal.providerTokenRejected
            return verdict
        case .success(let passed): certificateTopics = passed.certificateTopics
        }
        if let (reason, detail) = checkBroadcastBundle(bundleID, topic: headers.topic, certificateTopics: certificateTopics,
                                                       configuration: settings) {
            return reject(reason, detail)
        }
        guard let channelID = extra.channelID else { return reject(APNsReason(.missingChannelId)) }
        guard Self.isChannelID(channelID) else { return reject(APNsReason(.badChannelId), "not base64 of 1–64 bytes") }
        guard let pushType = headers.pushType else { return reject(APNsReason(.missingPushType)) }
        // Apple's pages spell it `liveactivity` (push API) and `LiveActivity` (channel bodies): both are read.
        guard pushType.lowercased() == APNsPushType.liveactivity.rawValue else {
            return reject(.invalidPushType, "a broadcast is a Live Activity push: apns-push-type liveactivity")
        }
        var priority = 10
        if let raw = headers.priority {
            guard raw == "10" || raw == "5" else { return reject(.badPriority, "a broadcast is sent at 5 or 10") }
            priority = raw == "5" ? 5 : 10
        }
        var expiration: Int64 = 0
        if let raw = headers.expiration {
            guard !raw.isEmpty, raw.utf8.count <= 18, raw.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let value = Int64(raw) else {
                return reject(.badExpirationDate)
            }
            expiration = value
        }
        guard let channel = channels.channel(channelID, bundleID: bundleID, environment: environment) else {
            return reject(APNsReason(.channelNotRegistered), "no channel \(channelID) for \(bundleID) in \(environment.displayName)")
        }
        if expiration != 0 && !channel.storesMessages {
            return reject(APNsReason(.badRequestParams), "apns-expiration \(expiration) on a channel without storage (message-storage-policy 0): send 0")
        }
        if request.bodyLimitExceeded || request.body.count > APNsPushType.voip.maximumPayloadBytes { return reject(.payloadTooLarge) }
        if request.body.isEmpty { return reject(.payloadEmpty) }
        guard let reading, reading.inspection?.isJSONObject == true else {
            return reject(APNsReason(.badRequestPayload), "the body is not a JSON object")
        }
        if settings.payloadContract == .reject,
           reading.inspection?.violations.contains(where: { $0.severity == .error }) == true {
            return reject(.payloadContractViolation)
        }
        let push: LiveActivityPush
        switch reading.push {
        case .failure(let unreadable):
            return BroadcastVerdict(status: 200, detail: "channel \(channelID): no subscriber can read it (\(unreadable.reason))")
        case .success(let read): push = read
        }
        guard push.event != .start else {
            return reject(APNsReason(.badRequestPayload), "a broadcast cannot start an activity: event start goes to a push-to-start token")
        }
        let summary = broadcast(push, priority: priority, on: channel, now: now,
                                liveActivities: &liveActivities, channels: &channels, devices: devices)
        return BroadcastVerdict(status: 200, detail: "channel \(channelID): \(summary)")
    }

    /// Applies `push` to each subscribed activity through the per-activity path; an offline
    /// device's copy is kept when the channel stores messages. Returns the journal's summary:
    /// outcome counts, in name order.
    private func broadcast(_ push: LiveActivityPush, priority: Int, on channel: BroadcastChannel, now: Int64,
                           liveActivities: inout LiveActivityStore, channels: inout BroadcastChannelStore,
                           devices: DeviceStore) -> String {
        var counts: [String: Int] = [:]
        let policy = settings.liveActivities
        for token in channel.subscribers {
            guard let device = liveActivities.activities[token]?.current.deviceToken else {
                channels.unsubscribe(token)   // the device forgot the activity
                continue
            }
            if devices[device]?.online == false {
                if channel.storesMessages {
                    channels.store(.init(channelID: channel.id, push: push, priority: priority, receivedAt: now), for: device)
                    counts["storedWhileOffline", default: 0] += 1
                } else {
                    counts["droppedOffline", default: 0] += 1
                }
                continue
            }
            let (outcome, _) = liveActivities.apply(push, to: .activity(pushToken: token), priority: priority, now: now,
                                                      policy: policy, newToken: "")
            counts[APNsJournalEntry.caseName(outcome), default: 0] += 1
        }
        let total = channel.subscribers.count
        guard !counts.isEmpty else { return "no subscribers" }
        return "\(total) subscriber\(total == 1 ? "" : "s"): " + counts.keys.sorted().map { "\($0) \(counts[$0] ?? 0)" }.joined(separator: ", ")
    }

    /// A device came online: each storage channel's newest broadcast kept for it (at most
    /// eight hours old) is applied to its subscribed activities, oldest first.
    func deliverStoredBroadcasts(to device: String, now: Int64, channels: inout BroadcastChannelStore,
                                 liveActivities: inout LiveActivityStore) {
        guard channels.stored[device] != nil else { return }
        let policy = settings.liveActivities
        for kept in channels.takeStored(for: device, now: now) {
            guard let channel = channels.channels[kept.channelID]?.channel else { continue }
            for token in channel.subscribers where liveActivities.activities[token]?.current.deviceToken == device {
                _ = liveActivities.apply(kept.push, to: .activity(pushToken: token), priority: kept.priority, now: now,
                                           policy: policy, newToken: "")
            }
        }
    }
}
