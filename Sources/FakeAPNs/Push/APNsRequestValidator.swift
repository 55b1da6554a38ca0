import Contracts
import Foundation
import LoopbackHTTP

/// The request-local checks of `POST /3/device/<token>`: everything APNs can say about a
/// request without knowing its state (keys, devices, rates).
///
/// ## Order
/// Apple documents the reasons but not the order it checks them in. FakeAPNs answers the
/// first failing check in this order, which follows what APNs is seen to do and what
/// pushy's `MockApnsServer` does, and keeps one rule: a request that is malformed is
/// rejected for that before anything depends on the device's state, so a sender never
/// deletes a token (410) because of its own malformed request.
///
/// 1. `:method` ≠ POST → 405 `MethodNotAllowed`
/// 2. `:path` not `/3/device/…` → 404 `BadPath`; `/3/device/` with no token → 400 `MissingDeviceToken`
/// 3. any `apns-*` or `authorization` header sent twice → 400 `DuplicateHeaders`
/// 4. `apns-id` not a UUID (8-4-4-4-12 hex) → 400 `BadMessageId`
/// 5. on a certificate connection (``APNsClientCertificates``), the certificate: 403
///    `BadCertificate` (untrusted, expired, not yet valid, not a push certificate), then
///    403 `BadCertificateEnvironment`; an `authorization` header is then not read.
///    Otherwise the provider token (``FakeAPNs``): `MissingProviderToken`, `InvalidProviderToken`,
///    `BadEnvironmentKeyInToken`, `UnrelatedKeyIdInToken`, 429 `TooManyProviderTokenUpdates`,
///    `ExpiredProviderToken`
/// 6. `apns-topic` missing → `MissingTopic` (on a certificate connection whose certificate
///    names one topic, that topic is used); `apns-push-type` unknown → `InvalidPushType`;
///    topic empty, with whitespace, or without the push type's suffix (or with another
///    push type's suffix) → `BadTopic`; a bundle id the fake does not serve → `TopicDisallowed`;
///    on a certificate connection, a topic the certificate does not name → `TopicDisallowed`
/// 7. `apns-priority` not 10, 5 or 1, 10 on a background push, or 1 on a Live Activity push
///    (Apple: 5 or 10 only) → `BadPriority`;
///    `apns-expiration` not a non-negative integer → `BadExpirationDate`;
///    `apns-collapse-id` over 64 bytes → `BadCollapseId`
/// 8. the token in the path not an even number (2…200) of hex digits → `BadDeviceToken`
/// 9. payload: over ``FakeAPNs/Configuration/maxBodyBytes`` (dropped unread by the server)
///    or over 4096 bytes (5120 for VoIP) → 413 `PayloadTooLarge`; empty → `PayloadEmpty`;
///    not a JSON object → 400 `FakeAPNsInvalidPayloadJSON` (Apple documents no reason);
///    contract violations in reject mode → 400 `FakeAPNsPayloadContractViolation`
/// 10. device state (``FakeAPNs``): unknown token or a token of the other environment →
///    `BadDeviceToken`; registered for another topic → `DeviceTokenNotForTopic`;
///    unregistered → 410 `Unregistered` with the timestamp
/// 11. rate → 429 `TooManyRequests`
///
/// Choices where Apple is silent: a missing `apns-push-type` is read as `alert`; a
/// missing `apns-priority` is 10, or 5 for a background push (only an explicit 10 on a
/// background push is `BadPriority`); `TopicDisallowed` is for a well-formed topic whose
/// bundle id is not in ``FakeAPNs/Configuration/topics``, `BadTopic` for a topic that is
/// malformed or does not fit the push type.
package struct APNsRequestValidator: Sendable {
    /// Bundle ids served; empty: all.
    package var topics: Set<String>

    /// A validator serving `topics` (empty: every bundle id).
    package init(topics: Set<String> = []) {
        self.topics = topics
    }

    /// Checked once per request, in this order, before the provider token (steps 1–4).
    /// Returns the device token from the path, lowercased (the registry's form).
    package func checkFraming(_ request: HTTPRequest) -> Result<String, APNsReason> {
        checkFraming(request, headers: APNsRequestHeaders(request.headers))
    }

    /// ``checkFraming(_:)`` with the request's APNs headers already read.
    func checkFraming(_ request: HTTPRequest, headers: APNsRequestHeaders) -> Result<String, APNsReason> {
        guard request.method == "POST" else { return .failure(.methodNotAllowed) }
        var path = request.path
        let token = path.withUTF8 { Self.deviceToken(inPath: $0) }
        guard case .success = token else { return token }
        if headers.hasDuplicates { return .failure(.duplicateHeaders) }
        if let id = headers.apnsID, !Self.isUUID(id) { return .failure(.badMessageId) }
        return token
    }

    /// "/3/device/" then the token, up to any query; the token lowercased. Byte-wise: this
    /// runs on every request (`memcmp` and `memchr` over the path, no per-byte bounds checks).
    static func deviceToken(inPath path: UnsafeBufferPointer<UInt8>) -> Result<String, APNsReason> {
        let prefix = Self.devicePathPrefix
        let prefixCount = prefix.utf8CodeUnitCount
        guard path.count >= prefixCount, let base = path.baseAddress,
              memcmp(base, prefix.utf8Start, prefixCount) == 0 else { return .failure(.badPath) }
        let end = Self.offset(of: UInt8(ascii: "?"), in: path, from: prefixCount) ?? path.count
        let rest = end - prefixCount
        if rest == 0 || (rest == 1 && path[prefixCount] == UInt8(ascii: "/")) { return .failure(.missingDeviceToken) }
        guard path[prefixCount] == UInt8(ascii: "/") else { return .failure(.badPath) }
        guard Self.offset(of: UInt8(ascii: "/"), in: UnsafeBufferPointer(rebasing: path[..<end]), from: prefixCount + 1) == nil else {
            return .failure(.badPath)
        }
        return .success(lowercasedHex(UnsafeBufferPointer(rebasing: path[(prefixCount + 1)..<end])))
    }

    private static let devicePathPrefix: StaticString = "/3/device"

    /// The offset of the first `byte` in `bytes` at or after `start`, or nil (`memchr`).
    static func offset(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// Steps 6–9: headers, device token syntax and payload. `token` is ``checkFraming(_:)``'s;
    /// `isJSONObject` answers whether the bytes are a JSON object (it runs only when the
    /// size is acceptable).
    /// `certificateTopics`: on a certificate connection, the topics its certificate names
    /// (the topic may then be omitted when it names one; another topic is `TopicDisallowed`).
    func checkPush(_ request: HTTPRequest, headers: APNsRequestHeaders, token: String, certificateTopics: [String]? = nil,
                   isJSONObject: ([UInt8]) -> Bool) -> Result<APNsPushRequest, APNsReason> {
        // Apple: without apns-topic a single-topic certificate's subject is the topic; with
        // several topics the header is mandatory.
        let defaultTopic = certificateTopics.flatMap { $0.count == 1 ? $0.first : nil }
        guard let topic = headers.topic ?? defaultTopic else { return .failure(.missingTopic) }
        var pushType = APNsPushType.alert
        if let raw = headers.pushType {
            guard let parsed = APNsPushType(rawValue: raw) else { return .failure(.invalidPushType) }
            pushType = parsed
        }
        if let reason = checkTopic(topic, pushType: pushType) { return .failure(reason) }
        if let certificateTopics, !certificateTopics.contains(topic) { return .failure(.topicDisallowed) }

        var priority = pushType == .background ? 5 : 10
        if let raw = headers.priority {
            switch raw {
            case "10": priority = 10
            case "5": priority = 5
            case "1":
                // Apple: a Live Activity push is sent at 5 or 10 only.
                if pushType == .liveactivity { return .failure(.badPriority) }
                priority = 1
            default: return .failure(.badPriority)
            }
            if pushType == .background && priority == 10 { return .failure(.badPriority) }
        }
        var expiration: Int64?
        if let raw = headers.expiration {
            guard !raw.isEmpty, raw.utf8.count <= 18, raw.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  let value = Int64(raw) else { return .failure(.badExpirationDate) }
            expiration = value
        }
        let collapseID = headers.collapseID
        if let collapseID, collapseID.utf8.count > 64 { return .failure(.badCollapseId) }

        guard Self.isDeviceToken(token) else { return .failure(.badDeviceToken) }

        let payload = request.body
        // Over the transport's limit the body was never buffered: too large, whatever it held.
        if request.bodyLimitExceeded { return .failure(.payloadTooLarge) }
        if payload.isEmpty { return .failure(.payloadEmpty) }
        if payload.count > pushType.maximumPayloadBytes { return .failure(.payloadTooLarge) }
        if !isJSONObject(payload) { return .failure(.invalidPayloadJSON) }

        return .success(APNsPushRequest(
            deviceToken: token, apnsID: headers.apnsID, topic: topic,
            pushType: pushType, priority: priority, expiration: expiration,
            collapseID: collapseID, payload: payload))
    }

    /// `BadTopic` or `TopicDisallowed`, or nil when the topic fits the push type. Byte-wise,
    /// in place (this runs on every push): the bundle id is made a `String` only to look it up
    /// in ``topics``.
    func checkTopic(_ topic: String, pushType: APNsPushType) -> APNsReason? {
        var topic = topic
        return topic.withUTF8 { bytes -> APNsReason? in
            guard !bytes.isEmpty, bytes.count <= 255, !bytes.contains(where: { $0 <= 32 || $0 == 127 }) else { return .badTopic }
            if pushType == .mdm { return nil }
            let cut: Int?
            if let suffix = pushType.staticTopicSuffix {
                guard bytes.count > suffix.utf8CodeUnitCount, APNsPushType.hasByteSuffix(bytes, suffix) else { return .badTopic }
                cut = topics.isEmpty ? nil : APNsPushType.knownSuffixLength(of: bytes)
            } else {
                cut = APNsPushType.knownSuffixLength(of: bytes)
                if cut != nil { return .badTopic }  // a bare bundle id carries no push type's suffix
            }
            if !topics.isEmpty && !topics.contains(String(decoding: bytes[..<(bytes.count - (cut ?? 0))], as: UTF8.self)) {
                return .topicDisallowed
            }
            return nil
        }
    }

    /// The hex token in lowercase (the registry's form): only A–F change, so a token that
    /// is not hex stays as sent for ``isDeviceToken(_:)`` to refuse.
    static func lowercasedHex(_ token: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: token.count) { output in
            guard let source = token.baseAddress, let target = output.baseAddress else { return 0 }
            for i in 0..<token.count {
                let byte = source[i]
                target[i] = byte &- 65 < 6 ? byte | 0x20 : byte
            }
            return token.count
        }
    }

    /// 8-4-4-4-12 hex digits, either case.
    package static func isUUID(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return false }
        for (i, c) in utf8.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return false }
            } else if !ASCII.isHexDigit(c) {
                return false
            }
        }
        return true
    }

    /// An even number of hex digits, 1…100 bytes (no fixed size: DESIGN "Device registration").
    package static func isDeviceToken<S: StringProtocol>(_ token: S) -> Bool {
        let count = token.utf8.count
        guard count >= 2, count <= 200, count % 2 == 0 else { return false }
        return token.utf8.allSatisfy(ASCII.isHexDigit)
    }

    /// The same check on a String's contiguous UTF-8, with no generic dispatch: called from
    /// other modules, where the generic version above runs unspecialised (~25,000
    /// instructions for a 64-digit token, callgrind).
    package static func isDeviceToken(_ token: String) -> Bool {
        var token = token
        return token.withUTF8 { isDeviceToken(bytes: $0) }
    }

    /// The same check on UTF-8 bytes, eight at a time (`serve` checks every token an app
    /// registers with the backend).
    package static func isDeviceToken(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 2 && bytes.count <= 200 && bytes.count % 2 == 0 && SWAR.allHexDigits(bytes)
    }
}
