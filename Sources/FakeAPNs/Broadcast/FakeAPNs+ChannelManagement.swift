import Contracts
import Foundation
import LoopbackHTTP
import FakeSupport
import PushCore

extension FakeAPNs {
    /// The channel management listener's port (0 when ``FakeAPNs/Configuration/channelManagement``
    /// is off or the fake is not listening).
    public var channelManagementPort: UInt16 { channelLifecycle.port }

    /// `http://HOST:PORT` (`https://` with TLS) of the channel management listener, or nil
    /// when it is not listening: the base of `/1/apps/{bundle}/channels`.
    public var channelManagementURL: URL? {
        let port = channelManagementPort
        guard port != 0 else { return nil }
        return HTTPServer.baseURL(host: configuration.host, port: port, secure: configuration.tls != nil)
    }

    /// Answers one channel management request as APNs' `api-manage-broadcast` host does:
    ///
    /// - `POST /1/apps/{bundle}/channels` with `{"message-storage-policy": 0|1, "push-type": "LiveActivity"}`
    ///   → 201 with `apns-channel-id`
    /// - `GET /1/apps/{bundle}/channels` with `apns-channel-id` → 200 with the configuration
    /// - `DELETE /1/apps/{bundle}/channels` with `apns-channel-id` → 204
    /// - `GET /1/apps/{bundle}/all-channels` → 200 `{"channels": [...]}`
    ///
    /// Every answer carries `apns-request-id` (the request's when it is a UUID, else a new
    /// one). Checks in order: path (404 `BadPath`), method (405 `MethodNotAllowed`),
    /// `DuplicateHeaders`, authentication as on the push API, the bundle (`FeatureNotEnabled`,
    /// `TopicDisallowed`, `TopicMismatch`), then the request's own (see Docs/readme/broadcast.md).
    package func handleChannelManagement(_ request: HTTPRequest) -> HTTPResponse {
        let now = clock.nowMilliseconds()
        let headers = APNsRequestHeaders(request.headers)
        let extra = BroadcastRequestHeaders(request.headers)
        let preverified = request.path.hasPrefix("/1/apps/")
            ? preverifyProviderToken(request, authorization: headers.authorization) : nil  // before the lock
        return answerJournaled(request, requestID: extra.requestID) { entry, environment, requestID, s in
            entry.channelID = extra.channelID
            switch manageChannels(request, headers: headers, extra: extra, environment: environment, now: now,
                                  preverified: preverified, requestID: requestID, entry: &entry,
                                  authentication: &s.authentication, channels: &s.channels, identifiers: &s.identifiers) {
            case .success(let answer):
                entry.status = answer.status.code
                return (answer, false)
            case .failure(let refusal):
                entry.status = refusal.reason.status
                entry.reason = refusal.reason.reason
                entry.detail = refusal.detail
                return (Self.broadcastResponse(status: refusal.reason.status, requestID: requestID, reason: refusal.reason),
                        refusal.providerTokenRejected)
            }
        }
    }

    private enum ChannelRoute { case channels, allChannels }

    private func manageChannels(_ request: HTTPRequest, headers: APNsRequestHeaders, extra: BroadcastRequestHeaders,
                                environment: APNsEnvironment, now: Int64, preverified: PreverifiedToken?, requestID: String,
                                entry: inout APNsJournalEntry, authentication: inout ProviderAuthenticationState,
                                channels: inout BroadcastChannelStore, identifiers: inout SplitMix64) -> Result<HTTPResponse, AuthenticationRefusal> {
        func refuse(_ reason: APNsReason, _ detail: String? = nil) -> Result<HTTPResponse, AuthenticationRefusal> {
            .failure(AuthenticationRefusal(reason: reason, detail: detail, providerTokenRejected: false))
        }
        let route: ChannelRoute
        let bundleID: String
        if let bundle = Self.bundleID(inPath: request.path, prefix: "/1/apps/", suffix: "/channels") {
            (route, bundleID) = (.channels, bundle)
        } else if let bundle = Self.bundleID(inPath: request.path, prefix: "/1/apps/", suffix: "/all-channels") {
            (route, bundleID) = (.allChannels, bundle)
        } else {
            return refuse(.badPath, "channel management paths are /1/apps/{bundle id}/channels and /1/apps/{bundle id}/all-channels")
        }
        entry.topic = bundleID
        let methods = route == .channels ? ["POST", "GET", "DELETE"] : ["GET"]
        guard methods.contains(request.method) else { return refuse(.methodNotAllowed, "this path takes \(methods.joined(separator: ", "))") }
        if headers.hasDuplicates || extra.hasDuplicates { return refuse(.duplicateHeaders) }
        let certificateTopics: [String]?
        switch authenticate(request, authorization: headers.authorization, environment: environment, now: now,
                            preverified: preverified, authentication: &authentication) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let passed): certificateTopics = passed.certificateTopics
        }
        if let (reason, detail) = checkBroadcastBundle(bundleID, topic: headers.topic, certificateTopics: certificateTopics,
                                                       configuration: settings) {
            return refuse(reason, detail)
        }
        let ok = { (status: Int, extra: [HTTPFields.Field], body: [UInt8]) in
            Self.broadcastResponse(status: status, requestID: requestID, extra: extra, body: body)
        }
        if route == .allChannels {
            let ids = channels.channelIDs(bundleID: bundleID, environment: environment)
            entry.detail = "\(ids.count) channel\(ids.count == 1 ? "" : "s")"
            return .success(ok(200, [], Array(("{\"channels\":[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]}").utf8)))
        }
        if request.method == "POST" {
            let storesMessages: Bool
            switch Self.readChannelConfiguration(request.body) {
            case .failure(let refusal): return .failure(refusal)
            case .success(let stores): storesMessages = stores
            }
            let limit = BroadcastChannelStore.maximumChannelsPerEnvironment
            guard channels.count(in: environment) < limit else {
                return refuse(APNsReason(.cannotCreateChannelConfig), "\(limit) channels in \(environment.displayName) already: delete some")
            }
            let id = Self.insertChannel(bundleID: bundleID, storesMessages: storesMessages, environment: environment, now: now,
                                        channels: &channels, identifiers: &identifiers)
            entry.channelID = id
            entry.detail = "created, message-storage-policy \(storesMessages ? 1 : 0)"
            return .success(ok(201, [HTTPFields.Field(name: "apns-channel-id", value: id)], []))
        }
        guard let channelID = extra.channelID else { return refuse(APNsReason(.missingChannelId)) }
        guard Self.isChannelID(channelID) else { return refuse(APNsReason(.badChannelId), "not base64 of 1–64 bytes") }
        guard let channel = channels.channel(channelID, bundleID: bundleID, environment: environment) else {
            return refuse(APNsReason(.channelNotRegistered), "no channel \(channelID) for \(bundleID) in \(environment.displayName)")
        }
        if request.method == "DELETE" {
            channels.remove(channelID)
            entry.detail = "deleted; \(channel.subscribers.count) subscriber\(channel.subscribers.count == 1 ? "" : "s") no longer receive it"
            return .success(HTTPResponse(status: HTTPStatus(code: 204), headers: HTTPFields([HTTPFields.Field(name: "apns-request-id", value: requestID)])))
        }
        let body = "{\"message-storage-policy\":\(channel.storesMessages ? 1 : 0),\"push-type\":\"LiveActivity\"}"
        return .success(ok(200, [], Array(body.utf8)))
    }

    /// The create body: a JSON object with `message-storage-policy` 0 or 1 and `push-type`
    /// `LiveActivity` (any case: Apple's pages spell it both ways), nothing else.
    static func readChannelConfiguration(_ body: [UInt8]) -> Result<Bool, AuthenticationRefusal> {
        func refuse(_ reason: APNsErrorReason, _ detail: String) -> Result<Bool, AuthenticationRefusal> {
            .failure(AuthenticationRefusal(reason: APNsReason(reason), detail: detail, providerTokenRejected: false))
        }
        guard !body.isEmpty, let object = try? JSONDecoder().decode(ChannelConfiguration.self, from: Data(body)) else {
            return refuse(.badRequestPayload, #"expected a JSON object {"message-storage-policy": 0 or 1, "push-type": "LiveActivity"}"#)
        }
        if let unknown = object.unknownMembers.first {
            return refuse(.badRequestParams, "unknown member \"\(unknown)\"")
        }
        guard let pushType = object.pushType else { return refuse(.missingPushType, "push-type is missing") }
        guard pushType.lowercased() == "liveactivity" else {
            return refuse(.invalidPushType, "push-type \"\(pushType)\": channels carry LiveActivity only")
        }
        guard let policy = object.storagePolicy, policy == 0 || policy == 1 else {
            return refuse(.badRequestParams, "message-storage-policy must be 0 (no storage) or 1 (most recent message stored)")
        }
        return .success(policy == 1)
    }

    /// The create body as read: each member on its own, so one wrong member names itself.
    struct ChannelConfiguration: Decodable {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        var storagePolicy: Int?
        var pushType: String?
        var unknownMembers: [String]

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: Key.self)
            storagePolicy = try? c.decodeIfPresent(Int.self, forKey: Key(stringValue: "message-storage-policy"))
            pushType = try? c.decodeIfPresent(String.self, forKey: Key(stringValue: "push-type"))
            unknownMembers = c.allKeys.map(\.stringValue).filter { $0 != "message-storage-policy" && $0 != "push-type" }.sorted()
        }
    }
}
