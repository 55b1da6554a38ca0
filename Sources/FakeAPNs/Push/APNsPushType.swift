import Foundation

/// The `apns-push-type` values APNs accepts, with the topic suffix each one requires.
public enum APNsPushType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A visible notification (topic: the bundle id).
    case alert
    /// A silent, content-available push (topic: the bundle id).
    case background
    /// A VoIP call (topic suffix `.voip`).
    case voip
    /// A watchOS complication update (topic suffix `.complication`).
    case complication
    /// A File Provider change (topic suffix `.pushkit.fileprovider`).
    case fileprovider
    /// A location query (topic suffix `.location-query`).
    case location
    /// A Live Activity start, update or end (topic suffix `.push-type.liveactivity`).
    case liveactivity
    /// A Push to Talk update (topic suffix `.voip-ptt`).
    case pushtotalk
    /// A widget reload (topic suffix `.push-type.widgets`).
    case widgets
    /// A control reload (topic suffix `.push-type.controls`).
    case controls
    /// A device management push (topic: the MDM certificate's topic).
    case mdm

    /// The suffix `apns-topic` must carry after the bundle id (nil: the bare bundle id).
    ///
    /// `mdm` topics are MDM certificate topics, not bundle ids, so no suffix is checked.
    public var topicSuffix: String? { staticTopicSuffix.map { "\($0)" } }

    /// ``topicSuffix`` as a static string: its bytes are read in place on every push.
    var staticTopicSuffix: StaticString? {
        switch self {
        case .alert, .background, .mdm: return nil
        case .voip: return ".voip"
        case .complication: return ".complication"
        case .fileprovider: return ".pushkit.fileprovider"
        case .location: return ".location-query"
        case .liveactivity: return ".push-type.liveactivity"
        case .pushtotalk: return ".voip-ptt"
        case .widgets: return ".push-type.widgets"
        case .controls: return ".push-type.controls"
        }
    }

    /// The largest payload APNs accepts for this push type: 5120 bytes for VoIP, else 4096.
    public var maximumPayloadBytes: Int { self == .voip ? 5120 : 4096 }

    /// Whether the notification is shown to the user (so `apns-collapse-id` replaces what
    /// the device shows). Background and service pushes are not shown.
    public var isUserVisible: Bool {
        switch self {
        case .alert, .liveactivity, .widgets, .controls: return true
        default: return false
        }
    }

    /// Every suffix a topic may carry, longest first, so `.voip-ptt` is not read as `.voip`
    /// (static strings: read in place, no reference counting on the way).
    static let allSuffixes: [StaticString] = allCases.compactMap(\.staticTopicSuffix)
        .sorted { $0.utf8CodeUnitCount > $1.utf8CodeUnitCount }

    /// The bundle id a topic names: the topic without any known push-type suffix.
    /// Byte-wise (suffixes are ASCII): this runs on every request.
    static func bundleID(ofTopic topic: String) -> String {
        var contiguous = topic
        guard let cut = contiguous.withUTF8({ knownSuffixLength(of: $0) }) else { return topic }
        return String(decoding: topic.utf8.dropLast(cut), as: UTF8.self)
    }

    /// The length of the known push-type suffix `topic` ends with (longest first, and never
    /// the whole topic), or nil: what ``bundleID(ofTopic:)`` cuts off. A suffix whose last
    /// byte differs is passed over without a comparison.
    static func knownSuffixLength(of topic: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let last = topic.last else { return nil }
        for suffix in allSuffixes {
            let count = suffix.utf8CodeUnitCount
            if topic.count > count && suffix.utf8Start[count - 1] == last && hasByteSuffix(topic, suffix) { return count }
        }
        return nil
    }

    /// Whether `bytes` ends with `suffix`, compared as memory.
    static func hasByteSuffix(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard count > 0 else { return true }
        guard bytes.count >= count, let base = bytes.baseAddress else { return false }
        return memcmp(base + (bytes.count - count), suffix.utf8Start, count) == 0
    }
}
