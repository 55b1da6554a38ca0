import Contracts

/// ``LiveActivityPush/read(_:node:)`` from the body the contract already parsed, instead of
/// a `JSONDecoder` pass over the same bytes (which cost a Live Activity push more than the
/// rest of its handling). Only where the parsed body tells for certain what the decoder
/// concludes: the body parsed, so it is valid JSON at most 128 levels deep, which the decoder
/// reads alike; keys are compared as Swift strings, as the decoder's dictionary does. Anything
/// else — `aps` neither an object nor null, a member the push reads given twice, a number the
/// decoder might read differently (a fraction or exponent for an integer, `-0`, out of range,
/// not finite) — is left to the decoder, so messages and values stay exactly its own.
extension LiveActivityPush {
    enum ParsedReading {
        case read(LiveActivityPush)
        case unreadable(Unreadable)
        /// Not certain from the parsed body: decode the bytes.
        case decoderDecides
    }

    static func readParsed(_ node: JSONNode) -> ParsedReading {
        guard case .object(let top) = node.value, let apsValue = onlyMember("aps", of: top) else { return .decoderDecides }
        let members: [JSONMember]
        switch apsValue {
        case nil, .null?: return .unreadable(Unreadable(reason: "the body has no aps object"))
        case .object(let apsMembers)?: members = apsMembers
        default: return .decoderDecides
        }
        guard let read = ReadMembers(members) else { return .decoderDecides }
        guard case .string(let rawEvent)? = read.event else {
            return .unreadable(Unreadable(reason: "aps.event is missing or not a string"))
        }
        guard let event = Event(rawValue: rawEvent) else {
            return .unreadable(Unreadable(reason: "aps.event \"\(rawEvent)\" is not start, update or end"))
        }
        guard let readTimestamp = integer(read.timestamp) else { return .decoderDecides }
        guard let timestamp = readTimestamp else {
            return .unreadable(Unreadable(reason: "aps.timestamp is missing or not an integer of seconds"))
        }
        guard let staleDate = integer(read.staleDate), let dismissalDate = integer(read.dismissalDate),
              let relevanceScore = double(read.relevanceScore) else { return .decoderDecides }
        return .read(LiveActivityPush(event: event, timestamp: timestamp, attributesType: string(read.attributesType),
                                      staleDate: staleDate, dismissalDate: dismissalDate, relevanceScore: relevanceScore,
                                      inputPushChannel: string(read.inputPushChannel), parsedContentState: read.contentState,
                                      parsedAttributes: read.attributes))
    }

    /// The value of the one member named `key` (nil inside: absent); nil when it is given
    /// more than once (which one the decoder takes is its own affair). The names asked for
    /// are lowercase ASCII letters and `-`, which no other string equals canonically: a key
    /// of another length is not one of them, and is passed over without a comparison.
    private static func onlyMember(_ key: String, of members: [JSONMember]) -> JSONValue?? {
        var found: JSONValue?
        let length = key.utf8.count
        for member in members where member.key.utf8.count == length && member.key == key {
            if found != nil { return nil }
            found = member.value.value
        }
        return .some(found)
    }

    /// The members of `aps` the push reads, in one pass (``onlyMember(_:of:)`` for each of
    /// them, without a pass per name): a key is compared only with the names of its length.
    /// Nil when one of them is given more than once.
    struct ReadMembers {
        var event: JSONValue?, timestamp: JSONValue?, attributesType: JSONValue?, staleDate: JSONValue?
        var dismissalDate: JSONValue?, relevanceScore: JSONValue?, inputPushChannel: JSONValue?
        /// The first `content-state` and `attributes`, as ``JSONValue/member(_:)`` finds them
        /// (a second one is not read, and not an error).
        var contentState: JSONValue?, attributes: JSONValue?

        init?(_ members: [JSONMember]) {
            for index in members.indices {
                let key = members[index].key
                let value = members[index].value.value
                let taken: Bool
                switch key.utf8.count {
                case 5 where key == CodingKeys.event.rawValue: taken = Self.take(value, into: &event)
                case 9 where key == CodingKeys.timestamp.rawValue: taken = Self.take(value, into: &timestamp)
                case 10 where key == CodingKeys.staleDate.rawValue: taken = Self.take(value, into: &staleDate)
                case 10 where key == CodingKeys.attributes.rawValue: taken = attributes == nil ? Self.take(value, into: &attributes) : true
                case 13 where key == CodingKeys.contentState.rawValue: taken = contentState == nil ? Self.take(value, into: &contentState) : true
                case 14 where key == CodingKeys.dismissalDate.rawValue: taken = Self.take(value, into: &dismissalDate)
                case 15 where key == CodingKeys.attributesType.rawValue: taken = Self.take(value, into: &attributesType)
                case 15 where key == CodingKeys.relevanceScore.rawValue: taken = Self.take(value, into: &relevanceScore)
                case 18 where key == CodingKeys.inputPushChannel.rawValue: taken = Self.take(value, into: &inputPushChannel)
                default: taken = true
                }
                guard taken else { return nil }
            }
        }

        /// Sets `slot` to `value`; false when it was set already (a key given twice).
        private static func take(_ value: JSONValue, into slot: inout JSONValue?) -> Bool {
            guard slot == nil else { return false }
            slot = value
            return true
        }
    }

    /// What `try? decodeIfPresent(String.self, …)` gives.
    private static func string(_ value: JSONValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// What `try? decodeIfPresent(Int64.self, …)` gives (the inner optional), or nil when the
    /// decoder must say: a number other than a plain integer literal in range, or `-0`.
    private static func integer(_ value: JSONValue?) -> Int64?? {
        guard case .number(let number)? = value else { return .some(nil) }
        guard number.isIntegerLiteral, let integer = number.integerValue, number.literal != "-0" else { return nil }
        return .some(integer)
    }

    /// What `try? decodeIfPresent(Double.self, …)` gives, or nil when the decoder must say:
    /// not finite, or a negative zero.
    private static func double(_ value: JSONValue?) -> Double?? {
        guard case .number(let number)? = value else { return .some(nil) }
        let double = number.doubleValue
        guard double.isFinite, double != 0 || !number.literal.hasPrefix("-") else { return nil }
        return .some(double)
    }
}
