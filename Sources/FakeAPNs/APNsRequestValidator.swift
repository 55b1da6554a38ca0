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
/// 5. the provider token (``FakeAPNs``): `MissingProviderToken`, `InvalidProviderToken`,
///    `BadEnvironmentKeyInToken`, `UnrelatedKeyIdInToken`, 429 `TooManyProviderTokenUpdates`,
///    `ExpiredProviderToken`
/// 6. `apns-topic` missing → `MissingTopic`; `apns-push-type` unknown → `InvalidPushType`;
///    topic empty, with whitespace, or without the push type's suffix (or with another
///    push type's suffix) → `BadTopic`; a bundle id the fake does not serve → `TopicDisallowed`
/// 7. `apns-priority` not 10, 5 or 1, or 10 on a background push → `BadPriority`;
///    `apns-expiration` not a non-negative integer → `BadExpirationDate`;
///    `apns-collapse-id` over 64 bytes → `BadCollapseId`
/// 8. the token in the path not an even number (2…200) of hex digits → `BadDeviceToken`
/// 9. payload: over ``FakeAPNsConfiguration/maxBodyBytes`` (dropped unread by the server)
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
/// bundle id is not in ``FakeAPNsConfiguration/topics``, `BadTopic` for a topic that is
/// malformed or does not fit the push type.
package struct APNsRequestValidator: Sendable {
    /// Bundle ids served; empty: all.
    package var topics: Set<String>

    /// A validator serving `topics` (empty: every bundle id).
    package init(topics: Set<String> = []) {
        self.topics = topics
    }

    /// Checked once per request, in this order, before the provider token (steps 1–4).
    /// Returns the device token text from the path.
    package func checkFraming(_ request: HTTPRequest) -> Result<Substring, APNsReason> {
        guard request.method == "POST" else { return .failure(.methodNotAllowed) }
        // Byte-wise (this runs on every request): "/3/device/" then the token, up to any query.
        let path = request.path.utf8
        let prefix = "/3/device".utf8
        guard path.starts(with: prefix) else { return .failure(.badPath) }
        let afterPrefix = path.index(path.startIndex, offsetBy: prefix.count)
        let end = path[afterPrefix...].firstIndex(of: UInt8(ascii: "?")) ?? path.endIndex
        let rest = path[afterPrefix..<end]
        if rest.isEmpty || rest.elementsEqual("/".utf8) { return .failure(.missingDeviceToken) }
        guard rest.first == UInt8(ascii: "/") else { return .failure(.badPath) }
        let tokenStart = path.index(after: afterPrefix)
        guard !path[tokenStart..<end].contains(UInt8(ascii: "/")) else { return .failure(.badPath) }
        if hasDuplicateHeaders(request.headers) { return .failure(.duplicateHeaders) }
        if let id = request.headers["apns-id"], !Self.isUUID(id) { return .failure(.badMessageId) }
        return .success(request.path[tokenStart..<end])
    }

    /// Steps 6–9: headers, device token syntax and payload. `inspectPayload` answers
    /// whether the bytes are a JSON object (it runs only when the size is acceptable).
    package func checkPush(_ request: HTTPRequest, token: Substring, isJSONObject: ([UInt8]) -> Bool) -> Result<APNsPushRequest, APNsReason> {
        let headers = request.headers
        guard let topic = headers["apns-topic"] else { return .failure(.missingTopic) }
        var pushType = APNsPushType.alert
        if let raw = headers["apns-push-type"] {
            guard let parsed = APNsPushType(rawValue: raw) else { return .failure(.invalidPushType) }
            pushType = parsed
        }
        if let reason = checkTopic(topic, pushType: pushType) { return .failure(reason) }

        var priority = pushType == .background ? 5 : 10
        if let raw = headers["apns-priority"] {
            switch raw {
            case "10": priority = 10
            case "5": priority = 5
            case "1": priority = 1
            default: return .failure(.badPriority)
            }
            if pushType == .background && priority == 10 { return .failure(.badPriority) }
        }
        var expiration: Int64?
        if let raw = headers["apns-expiration"] {
            guard !raw.isEmpty, raw.utf8.count <= 18, raw.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                  let value = Int64(raw) else { return .failure(.badExpirationDate) }
            expiration = value
        }
        let collapseID = headers["apns-collapse-id"]
        if let collapseID, collapseID.utf8.count > 64 { return .failure(.badCollapseId) }

        guard Self.isDeviceToken(token) else { return .failure(.badDeviceToken) }

        let payload = request.body
        // Over the transport's limit the body was never buffered: too large, whatever it held.
        if request.bodyLimitExceeded { return .failure(.payloadTooLarge) }
        if payload.isEmpty { return .failure(.payloadEmpty) }
        if payload.count > pushType.maximumPayloadBytes { return .failure(.payloadTooLarge) }
        if !isJSONObject(payload) { return .failure(.invalidPayloadJSON) }

        return .success(APNsPushRequest(
            deviceToken: Self.lowercasedHex(token), apnsID: headers["apns-id"], topic: topic,
            pushType: pushType, priority: priority, expiration: expiration,
            collapseID: collapseID, payload: payload))
    }

    /// `BadTopic` or `TopicDisallowed`, or nil when the topic fits the push type.
    func checkTopic(_ topic: String, pushType: APNsPushType) -> APNsReason? {
        guard !topic.isEmpty, topic.utf8.count <= 255,
              !topic.utf8.contains(where: { $0 <= 32 || $0 == 127 }) else { return .badTopic }
        if pushType != .mdm {
            if let suffix = pushType.topicSuffix {
                guard APNsPushType.hasByteSuffix(topic.utf8, suffix), topic.utf8.count > suffix.utf8.count else { return .badTopic }
            } else if APNsPushType.bundleID(ofTopic: topic) != topic {
                return .badTopic
            }
        }
        if !topics.isEmpty && pushType != .mdm && !topics.contains(APNsPushType.bundleID(ofTopic: topic)) {
            return .topicDisallowed
        }
        return nil
    }

    private static let uniqueHeaders = ["authorization", "apns-id", "apns-topic", "apns-push-type",
                                        "apns-priority", "apns-expiration", "apns-collapse-id"]

    /// One pass over the fields: any of ``uniqueHeaders`` seen twice.
    private func hasDuplicateHeaders(_ headers: HTTPFields) -> Bool {
        var seen = [Bool](repeating: false, count: Self.uniqueHeaders.count)
        for field in headers {
            let count = field.name.utf8.count
            guard count == 13 || (count >= 7 && count <= 16) else { continue }
            for (index, name) in Self.uniqueHeaders.enumerated() where name.utf8.count == count && HTTPFields.namesEqual(field.name, name) {
                if seen[index] { return true }
                seen[index] = true
            }
        }
        return false
    }

    /// The hex token in lowercase (the registry's form), copying only when needed.
    static func lowercasedHex(_ token: Substring) -> String {
        if !token.utf8.contains(where: { $0 >= 65 && $0 <= 70 }) { return String(token) }
        return String(decoding: token.utf8.map { $0 >= 65 && $0 <= 70 ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// 8-4-4-4-12 hex digits, either case.
    package static func isUUID(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 36 else { return false }
        for (i, c) in utf8.enumerated() {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                if c != UInt8(ascii: "-") { return false }
            } else if !isHex(c) {
                return false
            }
        }
        return true
    }

    /// An even number of hex digits, 1…100 bytes (no fixed size: DESIGN "Device registration").
    package static func isDeviceToken<S: StringProtocol>(_ token: S) -> Bool {
        let count = token.utf8.count
        guard count >= 2, count <= 200, count % 2 == 0 else { return false }
        return token.utf8.allSatisfy(isHex)
    }

    /// The same check on a String's contiguous UTF-8, with no generic dispatch: called from
    /// other modules (serve learns every registered token), where the generic version above
    /// runs unspecialised (~25,000 instructions for a 64-digit token, callgrind).
    package static func isDeviceToken(_ token: String) -> Bool {
        var token = token
        return token.withUTF8 { bytes in
            guard bytes.count >= 2, bytes.count <= 200, bytes.count % 2 == 0 else { return false }
            return bytes.allSatisfy(isHex)
        }
    }

    private static func isHex(_ c: UInt8) -> Bool {
        (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)
    }
}
