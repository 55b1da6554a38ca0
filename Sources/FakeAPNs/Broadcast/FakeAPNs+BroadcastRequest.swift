import Foundation
import LoopbackHTTP
import FakeSupport

/// What the broadcast API and the channel management listener share: the path's bundle id,
/// the headers they read beyond the push API's, the answers with `apns-request-id`, and the
/// journal entry.
struct BroadcastRequestHeaders {
    var channelID: String?
    var requestID: String?
    /// `apns-channel-id` or `apns-request-id` came twice.
    var hasDuplicates = false

    init(_ fields: HTTPFields) {
        for field in fields {
            var name = field.name
            let which = name.withUTF8 { bytes -> Int in
                if ASCII.equalsLowercased(bytes, Self.channel) { return 1 }
                if ASCII.equalsLowercased(bytes, Self.request) { return 2 }
                return 0
            }
            switch which {
            case 1:
                if channelID != nil { hasDuplicates = true } else { channelID = field.value }
            case 2:
                if requestID != nil { hasDuplicates = true } else { requestID = field.value }
            default: break
            }
        }
    }

    private static let channel = Array("apns-channel-id".utf8)
    private static let request = Array("apns-request-id".utf8)
}

extension ASCII {
    /// `bytes` equals the lowercase `name`, ASCII case-insensitively.
    static func equalsLowercased(_ bytes: UnsafeBufferPointer<UInt8>, _ name: [UInt8]) -> Bool {
        bytes.count == name.count && zip(bytes, name).allSatisfy { lowercase($0) == $1 }
    }
}

extension FakeAPNs {
    /// `/4/…`: a broadcast, answered by ``handleBroadcast(_:)`` (one byte compared on every push).
    static func isBroadcastPath(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { $0.count >= 3 && $0[1] == UInt8(ascii: "4") && $0[2] == UInt8(ascii: "/") }
    }

    /// The bundle id of `/<prefix>/<bundle>` followed by `suffix` (nil: nothing after it),
    /// without a query; nil when the path is not of that form or the bundle id is empty or
    /// holds a byte a bundle id cannot.
    static func bundleID(inPath path: String, prefix: String, suffix: String? = nil) -> String? {
        var path = Substring(path)
        if let query = path.firstIndex(of: "?") { path = path[..<query] }
        guard path.hasPrefix(prefix) else { return nil }
        var rest = path.dropFirst(prefix.count)
        if let suffix {
            guard rest.hasSuffix(suffix) else { return nil }
            rest = rest.dropLast(suffix.count)
        }
        guard !rest.isEmpty, rest.utf8.count <= 255, rest.utf8.allSatisfy(Self.isBundleIDByte) else { return nil }
        return String(rest)
    }

    private static func isBundleIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// A channel id APNs could have issued: base64 (standard alphabet, padded) of 1–64 bytes.
    static func isChannelID(_ id: String) -> Bool {
        guard let bytes = Data(base64Encoded: id), (1...64).contains(bytes.count) else { return false }
        return true
    }

    /// A new channel id: base64 of 16 bytes from the fake's generator.
    static func makeChannelID(using generator: inout some RandomNumberGenerator) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word = generator.next() as UInt64
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return Data(bytes).base64EncodedString()
    }

    /// The bundle-level checks of both APIs, after authentication: the capability
    /// (`FeatureNotEnabled`), a bundle id the fake does not serve (`TopicDisallowed`), and an
    /// `apns-topic` or certificate naming another app (`TopicMismatch`).
    func checkBroadcastBundle(_ bundleID: String, topic: String?, certificateTopics: [String]?,
                              configuration: FakeAPNs.Configuration) -> (APNsReason, String)? {
        if configuration.bundlesWithoutBroadcast.contains(bundleID) {
            return (APNsReason(.featureNotEnabled), "\(bundleID) has no Broadcast capability (FakeAPNs.Configuration.bundlesWithoutBroadcast)")
        }
        if !configuration.topics.isEmpty && !configuration.topics.contains(bundleID) {
            return (.topicDisallowed, "the fake serves \(configuration.topics.sorted().joined(separator: ", ")), not \(bundleID)")
        }
        if let topic, topic != bundleID, topic != bundleID + APNsPushType.liveactivity.topicSuffixOrEmpty {
            return (APNsReason(.topicMismatch), "apns-topic \(topic) is not the path's bundle id \(bundleID)")
        }
        if let certificateTopics, !certificateTopics.contains(bundleID) {
            return (APNsReason(.topicMismatch), "the client certificate is not for \(bundleID)")
        }
        return nil
    }

    /// An answer with `apns-request-id` (and a JSON `{"reason"}` body for an error).
    static func broadcastResponse(status: Int, requestID: String, reason: APNsReason? = nil,
                                  extra: [HTTPFields.Field] = [], body: [UInt8] = []) -> HTTPResponse {
        var fields = [HTTPFields.Field(name: "apns-request-id", value: requestID)] + extra
        var body = body
        if let reason {
            fields.insert(HTTPFields.Field(name: "content-type", value: "application/json"), at: 0)
            body = reason.body()
        } else if !body.isEmpty {
            fields.insert(HTTPFields.Field(name: "content-type", value: "application/json"), at: 0)
        }
        return HTTPResponse(status: HTTPStatus(code: status), headers: HTTPFields(fields), body: body)
    }

    /// A journal entry for a channel request or a broadcast: no device token; `apnsID` holds
    /// the `apns-request-id` answered.
    static func broadcastEntry(_ request: HTTPRequest, sequence: Int, now: Int64, requestID: String, topic: String?,
                               environment: APNsEnvironment) -> APNsJournalEntry {
        var entry = APNsJournalEntry(
            sequence: sequence, receivedAt: now, method: request.method, path: request.path,
            deviceToken: nil, apnsID: requestID, topic: topic, pushType: nil, collapseID: nil,
            payloadBytes: request.body.count, status: 0, reason: nil, violations: [],
            fault: nil, delivery: nil, detail: nil, connectionID: request.connectionID, protocolVersion: request.version)
        entry.environment = environment
        entry.serverName = request.tlsServerName
        entry.certificate = request.tlsClientCertificate.map { APNsProviderCertificate(certificate: $0).identity }
        return entry
    }

    /// What both APIs do around their own checks, under the fake's lock: the request's
    /// environment and `apns-request-id`, a journal entry for `answer` to fill, the GOAWAY
    /// count of refused provider tokens, then the journal and the waits it satisfies.
    /// `answer` returns the response and whether it refused the provider token.
    func answerJournaled(_ request: HTTPRequest, requestID sent: String?,
                         _ answer: (_ entry: inout APNsJournalEntry, _ environment: APNsEnvironment, _ requestID: String,
                                    _ state: inout FakeAPNsState) -> (HTTPResponse, tokenRefused: Bool)) -> HTTPResponse {
        let now = clock.nowMilliseconds()
        let hostEnvironment = request.authority.flatMap(APNsEnvironment.init(host:))
        return journaling { s, _ -> (HTTPResponse, APNsJournalEntry) in
            let sequence = s.journal.nextSequence()
            let environment = hostEnvironment ?? settings.environment
            let requestID = sent.flatMap { APNsRequestValidator.isUUID($0) ? $0 : nil } ?? APNsIdentifier.make(using: &s.identifiers)
            var entry = Self.broadcastEntry(request, sequence: sequence, now: now, requestID: requestID, topic: nil, environment: environment)
            let answered = answer(&entry, environment, requestID, &s)
            var response = answered.0
            if answered.tokenRefused, let limit = settings.goAwayAfterProviderTokenFailures {
                countTowardGoAway(\.tokenFailures, limit: limit, what: "provider tokens refused", request.connectionID,
                                  response: &response, entry: &entry, authentication: &s.authentication)
            }
            return (response, entry)
        }
    }
}

extension APNsPushType {
    /// `.push-type.liveactivity` for Live Activities; "" for a type without a suffix.
    var topicSuffixOrEmpty: String { topicSuffix ?? "" }
}
