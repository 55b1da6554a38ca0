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

    /// The names read, lowercase, in the order of ``slot(named:)``'s answers.
    static let names: [[UInt8]] = ["authorization", "apns-id", "apns-topic", "apns-push-type",
                                   "apns-priority", "apns-expiration", "apns-collapse-id"].map { Array($0.utf8) }

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

    /// The index in ``names`` of `name` (ASCII case-insensitive, as `HTTPFields` compares), or nil.
    static func slot(named name: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = name.count
        guard count >= 7 && count <= 16 && count != 8 && count != 9 && count != 11 && count != 12 else { return nil }
        for (index, candidate) in names.enumerated() where candidate.count == count {
            var equal = true
            for i in 0..<count {
                let byte = name[i]
                if (ASCII.lowercase(byte)) != candidate[i] { equal = false; break }
            }
            if equal { return index }
        }
        return nil
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
