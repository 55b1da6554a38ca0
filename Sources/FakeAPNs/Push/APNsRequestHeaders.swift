import LoopbackHTTP

/// The headers APNs reads, taken from a request's fields in one pass: the first value of
/// each (what `HTTPFields`' subscript answers) and whether any of them came twice.
///
/// One pass instead of a lookup per header: a push used to look its headers up eleven
/// times, each a scan of every field with a case-insensitive compare (callgrind: ~9,000
/// instructions a request).
struct APNsRequestHeaders {
    var authorization: String?
    var apnsID: String?
    var topic: String?
    var pushType: String?
    var priority: String?
    var expiration: String?
    var collapseID: String?
    /// One of the headers above came more than once (`DuplicateHeaders`).
    var hasDuplicates = false

    /// The name read into `slot`, lowercase, in the order of ``slot(named:)``'s answers.
    static func name(ofSlot slot: Int) -> StaticString {
        switch slot {
        case 0: "authorization"
        case 1: "apns-id"
        case 2: "apns-topic"
        case 3: "apns-push-type"
        case 4: "apns-priority"
        case 5: "apns-expiration"
        default: "apns-collapse-id"
        }
    }

    init(_ fields: HTTPFields) {
        for field in fields {
            var name = field.name
            guard let slot = name.withUTF8({ Self.slot(named: $0) }) else { continue }
            if value(at: slot) != nil {
                hasDuplicates = true
            } else {
                setValue(field.value, at: slot)
            }
        }
    }

    /// The slot of `name` (ASCII case-insensitive, as `HTTPFields` compares), or nil: the
    /// length picks the one candidate (the second byte tells the two of 13), then the bytes
    /// are compared.
    static func slot(named name: UnsafeBufferPointer<UInt8>) -> Int? {
        let slot: Int
        switch name.count {
        case 7: slot = 1
        case 10: slot = 2
        case 13: slot = ASCII.lowercase(name[1]) == UInt8(ascii: "u") ? 0 : 4
        case 14: slot = 3
        case 15: slot = 5
        case 16: slot = 6
        default: return nil
        }
        let candidate = Self.name(ofSlot: slot).utf8Start
        for i in 0..<name.count where ASCII.lowercase(name[i]) != candidate[i] { return nil }
        return slot
    }

    private func value(at slot: Int) -> String? {
        switch slot {
        case 0: authorization
        case 1: apnsID
        case 2: topic
        case 3: pushType
        case 4: priority
        case 5: expiration
        default: collapseID
        }
    }

    private mutating func setValue(_ value: String, at slot: Int) {
        switch slot {
        case 0: authorization = value
        case 1: apnsID = value
        case 2: topic = value
        case 3: pushType = value
        case 4: priority = value
        case 5: expiration = value
        default: collapseID = value
        }
    }
}
