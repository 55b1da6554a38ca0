import Contracts
import LoopbackHTTP
import Foundation
import Testing
@testable import FakeAPNs

/// Broadcast push (issue 29): the channel management API and `POST /4/broadcasts/apps/…`,
/// called on the handlers without a socket, on the testbed's stopped clock.
@Suite struct BroadcastTests {
    typealias T = APNsTestbed
    static let now = T.start / 1000
    static let channelsPath = "/1/apps/\(T.topic)/channels"
    static let broadcastPath = "/4/broadcasts/apps/\(T.topic)"
    static let otherDevice = String(repeating: "ef", count: 32)
    static let unknownChannel = Data("no such channel!".utf8).base64EncodedString()

    /// A channel management request with a valid provider token.
    static func manage(_ method: String, _ path: String = channelsPath, headers: [(String, String?)] = [],
                       body: String = "") -> HTTPRequest {
        var fields = HTTPFields()
        fields.append(name: "authorization", value: "bearer " + T.providerToken())
        for (name, value) in headers {
            if let value { fields[name] = value } else { fields[name] = nil }
        }
        return HTTPRequest(method: method, path: path, authority: "127.0.0.1", headers: fields,
                           body: Array(body.utf8), version: .http2, connectionID: 7)
    }

    static func createBody(storage: Int = 0) -> String { #"{"message-storage-policy":\#(storage),"push-type":"LiveActivity"}"# }

    /// Creates a channel and returns its id.
    static func create(_ bed: APNsTestbed, storage: Int = 0) throws -> String {
        let response = bed.fake.handleChannelManagement(manage("POST", body: createBody(storage: storage)))
        try #require(response.status.code == 201)
        return try #require(response.headers["apns-channel-id"])
    }

    /// A broadcast of `aps` (JSON members without braces) on `channel`.
    static func broadcast(_ channel: String?, _ aps: String, headers: [(String, String?)] = [],
                          path: String = broadcastPath) -> HTTPRequest {
        var fields = HTTPFields()
        fields.append(name: "authorization", value: "bearer " + T.providerToken())
        fields.append(name: "apns-push-type", value: "liveactivity")
        fields.append(name: "apns-priority", value: "10")
        if let channel { fields.append(name: "apns-channel-id", value: channel) }
        for (name, value) in headers {
            if let value { fields[name] = value } else { fields[name] = nil }
        }
        return HTTPRequest(method: "POST", path: path, authority: "127.0.0.1", headers: fields,
                           body: Array(#"{"aps":{\#(aps)}}"#.utf8), version: .http2, connectionID: 1)
    }

    static func update(_ timestamp: Int64, stage: String = "onTheWay", extra: String = "") -> String {
        #""event":"update","timestamp":\#(timestamp),"content-state":{"stage":"\#(stage)"}\#(extra)"#
    }

    /// A testbed with a channel and one subscribed activity on each of two devices.
    static func subscribed(storage: Int = 0, _ configure: (inout FakeAPNs.Configuration) -> Void = { _ in })
        throws -> (APNsTestbed, String, [String]) {
        let bed = T(configure)
        bed.fake.register(token: otherDevice, topic: T.topic)
        let channel = try create(bed, storage: storage)
        var tokens: [String] = []
        for (device, order) in [(T.token, "A1"), (otherDevice, "B2")] {
            let activity = try #require(bed.fake.startLiveActivity(
                device: device, attributes: OrderTrackerAttributes(orderId: order), contentState: .init(stage: .confirmed), timestamp: now))
            #expect(bed.fake.subscribe(pushToken: activity.pushToken, toChannel: channel))
            tokens.append(activity.pushToken)
        }
        return (bed, channel, tokens)
    }

    static func reason(_ response: HTTPResponse) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])?["reason"] as? String
    }

    // MARK: Channel management

    @Test func aChannelIsCreatedReadListedAndDeleted() throws {
        let bed = T()
        let requestID = "0C1D2E3F-4A5B-6C7D-8E9F-A0B1C2D3E4F5"
        let created = bed.fake.handleChannelManagement(Self.manage("POST", headers: [("apns-request-id", requestID)],
                                                                   body: Self.createBody(storage: 1)))
        #expect(created.status.code == 201)
        #expect(created.headers["apns-request-id"] == requestID)
        let id = try #require(created.headers["apns-channel-id"])
        #expect(FakeAPNs.isChannelID(id))

        let read = bed.fake.handleChannelManagement(Self.manage("GET", headers: [("apns-channel-id", id)]))
        #expect(read.status.code == 200)
        #expect(String(decoding: read.body, as: UTF8.self) == #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
        #expect(read.headers["apns-request-id"].map(APNsRequestValidator.isUUID) == true, "generated when not sent")

        let second = try Self.create(bed)
        let list = bed.fake.handleChannelManagement(Self.manage("GET", "/1/apps/\(T.topic)/all-channels"))
        #expect(list.status.code == 200)
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.body)) as? [String: [String]])
        #expect(listed["channels"] == [id, second])

        let deleted = bed.fake.handleChannelManagement(Self.manage("DELETE", headers: [("apns-channel-id", id)]))
        #expect(deleted.status.code == 204 && deleted.headers["apns-request-id"] != nil)
        #expect(bed.fake.channels.map(\.id) == [second])
        let gone = bed.fake.handleChannelManagement(Self.manage("GET", headers: [("apns-channel-id", id)]))
        #expect(gone.status.code == 404 && Self.reason(gone) == "ChannelNotRegistered")
        #expect(bed.fake.journal.last?.channelID == id && bed.fake.journal.last?.reason == "ChannelNotRegistered")
    }

    /// One row per refusal of the management API: the request and the answer.
    static let managementRows: [(note: String, status: Int, reason: String, request: HTTPRequest)] = [
        ("no apns-channel-id", 400, "MissingChannelId", manage("GET")),
        ("not base64", 400, "BadChannelId", manage("DELETE", headers: [("apns-channel-id", "not base64!")])),
        ("unknown channel", 404, "ChannelNotRegistered", manage("GET", headers: [("apns-channel-id", unknownChannel)])),
        ("body not JSON", 400, "BadRequestPayload", manage("POST", body: "storage please")),
        ("storage policy 2", 400, "BadRequestParams", manage("POST", body: #"{"message-storage-policy":2,"push-type":"LiveActivity"}"#)),
        ("unknown member", 400, "BadRequestParams", manage("POST", body: #"{"message-storage-policy":0,"push-type":"LiveActivity","ttl":5}"#)),
        ("no push-type", 400, "MissingPushType", manage("POST", body: #"{"message-storage-policy":0}"#)),
        ("push-type alert", 400, "InvalidPushType", manage("POST", body: #"{"message-storage-policy":0,"push-type":"alert"}"#)),
        ("apns-topic of another app", 400, "TopicMismatch", manage("POST", headers: [("apns-topic", "com.other.app")], body: createBody())),
        ("no provider token", 403, "MissingProviderToken", manage("POST", headers: [("authorization", nil)], body: createBody())),
        ("PUT", 405, "MethodNotAllowed", manage("PUT", body: createBody())),
        ("other path", 404, "BadPath", manage("GET", "/1/apps/\(T.topic)/channel")),
    ]

    @Test(arguments: managementRows.indices)
    func theManagementAPIRefuses(_ row: Int) {
        let (note, status, reason, request) = Self.managementRows[row]
        let bed = T()
        let response = bed.fake.handleChannelManagement(request)
        #expect(response.status.code == status, "\(note)")
        #expect(Self.reason(response) == reason, "\(note)")
        #expect(response.headers["apns-request-id"] != nil)
        #expect(bed.fake.channels.isEmpty)
    }

    /// Apple's pages spell the push type `LiveActivity` and `liveactivity`: both are read.
    @Test func aPushTypeSpeltLowercaseIsAccepted() {
        let bed = T()
        let response = bed.fake.handleChannelManagement(Self.manage("POST", body: #"{"message-storage-policy":0,"push-type":"liveactivity"}"#))
        #expect(response.status.code == 201)
    }

    @Test func aBundleWithoutTheCapabilityIsFeatureNotEnabledOnBothAPIs() throws {
        let bed = T { $0.bundlesWithoutBroadcast = [T.topic] }
        let create = bed.fake.handleChannelManagement(Self.manage("POST", body: Self.createBody()))
        #expect(create.status.code == 400 && Self.reason(create) == "FeatureNotEnabled")
        let send = bed.fake.handle(Self.broadcast(Self.unknownChannel, Self.update(Self.now + 1)))
        #expect(send.status.code == 400 && Self.reason(send) == "FeatureNotEnabled")
    }

    @Test func theTenThousandAndFirstChannelIsCannotCreateChannelConfig() throws {
        let bed = T()
        bed.fake.state.withLock { s in
            for i in 0..<(BroadcastChannelStore.maximumChannelsPerEnvironment - 1) {
                s.channels.insert(BroadcastChannel(id: "c\(i)", bundleID: T.topic, environment: .sandbox, storesMessages: false,
                                                   createdAt: 0, subscribers: []))
            }
        }
        #expect(bed.fake.handleChannelManagement(Self.manage("POST", body: Self.createBody())).status.code == 201)
        let refused = bed.fake.handleChannelManagement(Self.manage("POST", body: Self.createBody()))
        #expect(refused.status.code == 400 && Self.reason(refused) == "CannotCreateChannelConfig")
        // The other environment has its own 10,000.
        let production = Self.manage("POST", body: Self.createBody())
        var addressed = production
        addressed.authority = "api-manage-broadcast.push.apple.com"
        #expect(bed.fake.handleChannelManagement(addressed).status.code == 201)
    }

    // MARK: Broadcast send

    static let broadcastRows: [(note: String, status: Int, reason: String, request: @Sendable (String) -> HTTPRequest)] = [
        ("no apns-channel-id", 400, "MissingChannelId", { _ in broadcast(nil, update(now + 1)) }),
        ("not base64", 400, "BadChannelId", { _ in broadcast("%%%", update(now + 1)) }),
        ("unknown channel", 404, "ChannelNotRegistered", { _ in broadcast(unknownChannel, update(now + 1)) }),
        ("expiration on a channel without storage", 400, "BadRequestParams", { broadcast($0, update(now + 1), headers: [("apns-expiration", "1900000000")]) }),
        ("a start", 400, "BadRequestPayload", { broadcast($0, #""event":"start","timestamp":\#(now + 1),"content-state":{"stage":"confirmed"},"attributes-type":"OrderTrackerAttributes","attributes":{"orderId":"Z9"}"#) }),
        ("no apns-push-type", 400, "MissingPushType", { broadcast($0, update(now + 1), headers: [("apns-push-type", nil)]) }),
        ("apns-push-type alert", 400, "InvalidPushType", { broadcast($0, update(now + 1), headers: [("apns-push-type", "alert")]) }),
        ("apns-topic of another app", 400, "TopicMismatch", { broadcast($0, update(now + 1), headers: [("apns-topic", "com.other.app")]) }),
        ("priority 1", 400, "BadPriority", { broadcast($0, update(now + 1), headers: [("apns-priority", "1")]) }),
        ("5121 bytes", 413, "PayloadTooLarge", { broadcast($0, update(now + 1, extra: #","pad":"\#(String(repeating: "x", count: 5_040))""#)) }),
    ]

    @Test(arguments: broadcastRows.indices)
    func aBroadcastIsRefused(_ row: Int) throws {
        let (note, status, reason, request) = Self.broadcastRows[row]
        let (bed, channel, tokens) = try Self.subscribed()
        let response = bed.fake.handle(request(channel))
        #expect(response.status.code == status, "\(note): \(Self.reason(response) ?? "")")
        #expect(Self.reason(response) == reason, "\(note)")
        #expect(response.headers["apns-request-id"] != nil)
        #expect(bed.fake.liveActivity(pushToken: tokens[0])?.contentState.stage == .confirmed, "nothing applied")
    }

    @Test func aBroadcastUpdatesEverySubscribedActivityOnEveryDevice() throws {
        let (bed, channel, tokens) = try Self.subscribed()
        let body = Self.broadcast(channel, Self.update(Self.now + 1, extra: #","pad":"\#(String(repeating: "x", count: 4_900))""#))
        #expect(body.body.count > 4_096 && body.body.count <= 5_120, "over a unicast Live Activity's 4 KB, within 5 KB")
        let response = bed.fake.handle(body)
        #expect(response.status.code == 200)
        #expect(response.headers["apns-request-id"] != nil && response.headers["apns-unique-id"] != nil)
        for token in tokens {
            #expect(bed.fake.liveActivity(pushToken: token)?.contentState.stage == .onTheWay)
        }
        #expect(bed.fake.journal.last?.detail == "channel \(channel): 2 subscribers: activityUpdated 2")
        let line = try #require(bed.fake.journal.last?.logLine)
        #expect(line.hasPrefix("POST /4/broadcasts/apps/com.example.app 200") && line.contains(" channel=\(channel) "), "\(line)")
    }

    @Test func anActivityStartedWithInputPushChannelIsSubscribed() throws {
        let bed = T()
        let channel = try Self.create(bed)
        let pushToStart = bed.fake.registerPushToStartToken(device: T.token)
        let start = LiveActivityTests.start + #","input-push-channel":"\#(channel)""#
        let started = bed.fake.handle(LiveActivityTests.push(pushToStart, start))
        #expect(started.status.code == 200 && bed.fake.journal.last?.violations.isEmpty == true)
        let activity = try #require(bed.fake.liveActivities(onDevice: T.token).first)
        #expect(bed.fake.channels.first?.subscribers == [activity.pushToken])
        #expect(bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 1))).status.code == 200)
        #expect(bed.fake.liveActivity(pushToken: activity.pushToken)?.contentState.stage == .onTheWay)
    }

    // MARK: Delivery rules, as for a push to one activity

    @Test func anOlderTimestampIsIgnoredBySubscribers() throws {
        let (bed, channel, tokens) = try Self.subscribed()
        #expect(bed.fake.handle(LiveActivityTests.update(tokens[0], timestamp: Self.now + 10, stage: "picking")).status.code == 200)
        #expect(bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 5))).status.code == 200)
        #expect(bed.fake.liveActivity(pushToken: tokens[0])?.contentState.stage == .picking)
        #expect(bed.fake.liveActivity(pushToken: tokens[1])?.contentState.stage == .onTheWay)
        #expect(bed.fake.journal.last?.detail?.contains("ignoredOlderTimestamp 1") == true)
    }

    @Test func anEndedActivityIgnoresBroadcasts() throws {
        let (bed, channel, tokens) = try Self.subscribed()
        #expect(bed.fake.handle(LiveActivityTests.end(tokens[0], timestamp: Self.now + 1)).status.code == 200)
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 2)))
        #expect(bed.fake.liveActivity(pushToken: tokens[0])?.contentState.stage == .delivered)
        #expect(bed.fake.journal.last?.detail?.contains("ignoredAfterEnd 1") == true)
    }

    @Test func aBroadcastStaleDateMakesSubscribersStale() throws {
        let (bed, channel, tokens) = try Self.subscribed()
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 1, extra: #","stale-date":\#(Self.now + 60)"#)))
        #expect(bed.fake.liveActivity(pushToken: tokens[1])?.state == .active)
        bed.clock.advance(seconds: 60)
        #expect(bed.fake.liveActivity(pushToken: tokens[1])?.state == .stale)
    }

    @Test func priority10BroadcastsDrawOnEachActivitysBudget() throws {
        let (bed, channel, tokens) = try Self.subscribed { $0.liveActivities.priority10UpdatesPerHour = 1 }
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 1, stage: "picking")))
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 2)))
        #expect(bed.fake.liveActivity(pushToken: tokens[0])?.contentState.stage == .picking)
        #expect(bed.fake.journal.last?.detail?.contains("droppedOverBudget 2") == true)
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 3), headers: [("apns-priority", "5")]))
        #expect(bed.fake.liveActivity(pushToken: tokens[0])?.contentState.stage == .onTheWay)
    }

    /// The system ends an activity eight hours after its start: the activities here live
    /// longer, so only the channel's storage decides.
    static func longLived(_ configuration: inout FakeAPNs.Configuration) {
        configuration.liveActivities.maximumActiveSeconds = 12 * 3600
    }

    @Test func aStorageChannelKeepsTheNewestBroadcastForAnOfflineDeviceEightHours() throws {
        let (bed, channel, tokens) = try Self.subscribed(storage: 1, Self.longLived)
        bed.fake.setOnline(false, token: Self.otherDevice)
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 1, stage: "picking"), headers: [("apns-expiration", "1900000000")]))
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 2)))
        #expect(bed.fake.journal.last?.detail?.contains("storedWhileOffline 1") == true)
        #expect(bed.fake.liveActivity(pushToken: tokens[1])?.contentState.stage == .confirmed)
        bed.clock.advance(seconds: 8 * 3600)
        bed.fake.setOnline(true, token: Self.otherDevice)
        let applied = try #require(bed.fake.liveActivity(pushToken: tokens[1]))
        #expect(applied.contentState.stage == .onTheWay && applied.timestamp == Self.now + 2, "the newest only")
        #expect(applied.pushesApplied == 1, "one applied, not both")
    }

    @Test func aStoredBroadcastOlderThanEightHoursIsDropped() throws {
        let (bed, channel, tokens) = try Self.subscribed(storage: 1, Self.longLived)
        bed.fake.setOnline(false, token: Self.otherDevice)
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 1)))
        bed.clock.advance(seconds: 8 * 3600 + 0.001)
        bed.fake.setOnline(true, token: Self.otherDevice)
        let activity = try #require(bed.fake.liveActivity(pushToken: tokens[1]))
        #expect(activity.contentState.stage == .confirmed && activity.state == .active)
    }

    @Test func aChannelWithoutStorageMissesAnOfflineDevice() throws {
        let (bed, channel, tokens) = try Self.subscribed(storage: 0)
        bed.fake.setOnline(false, token: Self.otherDevice)
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 1)))
        #expect(bed.fake.journal.last?.detail?.contains("droppedOffline 1") == true)
        bed.fake.setOnline(true, token: Self.otherDevice)
        #expect(bed.fake.liveActivity(pushToken: tokens[1])?.contentState.stage == .confirmed)
        #expect(bed.fake.liveActivity(pushToken: tokens[0])?.contentState.stage == .onTheWay)
    }

    @Test func deletingAChannelStopsDelivery() throws {
        let (bed, channel, tokens) = try Self.subscribed(storage: 1)
        bed.fake.setOnline(false, token: Self.otherDevice)
        _ = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 1)))
        #expect(bed.fake.handleChannelManagement(Self.manage("DELETE", headers: [("apns-channel-id", channel)])).status.code == 204)
        let after = bed.fake.handle(Self.broadcast(channel, Self.update(Self.now + 2)))
        #expect(after.status.code == 404 && Self.reason(after) == "ChannelNotRegistered")
        #expect(bed.fake.state.withLock { $0.channels.stored.isEmpty }, "nothing is kept for a deleted channel")
        bed.fake.setOnline(true, token: Self.otherDevice)
        #expect(bed.fake.liveActivity(pushToken: tokens[1])?.contentState.stage == .confirmed, "the stored copy went with the channel")
        #expect(bed.fake.liveActivity(pushToken: tokens[0])?.contentState.stage == .onTheWay, "the online device got the first")
    }

    // MARK: Admin

    @Test func adminListsChannelsWithSubscribersAndSubscribesAnActivity() throws {
        let (bed, channel, tokens) = try Self.subscribed()
        let third = try #require(bed.fake.startLiveActivity(
            device: T.token, attributes: OrderTrackerAttributes(orderId: "C3"), contentState: .init(stage: .confirmed), timestamp: Self.now))
        let subscribe = AdminRoutesTests.call(bed.fake, "POST", "/apns/channels/subscriptions",
                                              #"{"channelId":"\#(channel)","pushToken":"\#(third.pushToken)"}"#)
        #expect(subscribe.status.code == 204)
        let unknown = AdminRoutesTests.call(bed.fake, "POST", "/apns/channels/subscriptions",
                                            #"{"channelId":"\#(Self.unknownChannel)","pushToken":"\#(third.pushToken)"}"#)
        #expect(unknown.status.code == 404)
        let listed = AdminRoutesTests.object(AdminRoutesTests.call(bed.fake, "GET", "/apns/channels"))
        let channels = try #require(listed["channels"] as? [[String: Any]])
        #expect(channels.first?["channelId"] as? String == channel)
        let subscribers = try #require(channels.first?["subscribers"] as? [[String: Any]])
        #expect(subscribers.compactMap { $0["pushToken"] as? String } == tokens + [third.pushToken])
        #expect(subscribers.first?["deviceToken"] as? String == T.token && subscribers.first?["state"] as? String == "active")
    }
}
