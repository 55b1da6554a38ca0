extension PushPayload {
    /// The `aps` dictionary. Flags are Swift booleans written as the integers APNs reads
    /// (`"mutable-content": 1`), never as JSON booleans.
    public struct APS: Sendable, Hashable, Codable {
        /// The visible alert; absent for a silent push.
        public var alert: Alert?
        /// The number on the app icon; 0 clears it.
        public var badge: Int?
        /// The sound to play.
        public var sound: Sound?
        /// `thread-id`: groups one order's pushes (`order-<id>`).
        public var threadID: String?
        /// The category, which decides the action buttons.
        public var category: Category?
        /// `content-available: 1`: a silent push that wakes the app.
        public var contentAvailable: Bool
        /// `mutable-content: 1`: the service extension may change the push.
        public var mutableContent: Bool
        /// `interruption-level`.
        public var interruptionLevel: InterruptionLevel?
        /// `relevance-score`, 0 to 1.
        public var relevanceScore: Double?
        /// `target-content-id`.
        public var targetContentID: String?
        /// `filter-criteria` (Focus filters).
        public var filterCriteria: String?

        /// An `aps` dictionary; flags default to off.
        public init(alert: Alert? = nil, badge: Int? = nil, sound: Sound? = nil, category: Category? = nil,
                    threadID: String? = nil, contentAvailable: Bool = false, mutableContent: Bool = false,
                    interruptionLevel: InterruptionLevel? = nil, relevanceScore: Double? = nil,
                    targetContentID: String? = nil, filterCriteria: String? = nil) {
            self.alert = alert
            self.badge = badge
            self.sound = sound
            self.category = category
            self.threadID = threadID
            self.contentAvailable = contentAvailable
            self.mutableContent = mutableContent
            self.interruptionLevel = interruptionLevel
            self.relevanceScore = relevanceScore
            self.targetContentID = targetContentID
            self.filterCriteria = filterCriteria
        }

        enum CodingKeys: String, CodingKey {
            case alert, badge, sound, category
            case threadID = "thread-id"
            case contentAvailable = "content-available"
            case mutableContent = "mutable-content"
            case interruptionLevel = "interruption-level"
            case relevanceScore = "relevance-score"
            case targetContentID = "target-content-id"
            case filterCriteria = "filter-criteria"
        }

        /// Reads the wire form; flags must be the integers 0 or 1.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            alert = try container.decodeIfPresent(Alert.self, forKey: .alert)
            badge = try container.decodeIfPresent(Int.self, forKey: .badge)
            sound = try container.decodeIfPresent(Sound.self, forKey: .sound)
            threadID = try container.decodeIfPresent(String.self, forKey: .threadID)
            category = try container.decodeIfPresent(Category.self, forKey: .category)
            contentAvailable = try APS.decodeFlag(container, .contentAvailable)
            mutableContent = try APS.decodeFlag(container, .mutableContent)
            interruptionLevel = try container.decodeIfPresent(InterruptionLevel.self, forKey: .interruptionLevel)
            relevanceScore = try container.decodeIfPresent(Double.self, forKey: .relevanceScore)
            targetContentID = try container.decodeIfPresent(String.self, forKey: .targetContentID)
            filterCriteria = try container.decodeIfPresent(String.self, forKey: .filterCriteria)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(alert, forKey: .alert)
            try container.encodeIfPresent(badge, forKey: .badge)
            try container.encodeIfPresent(sound, forKey: .sound)
            try container.encodeIfPresent(threadID, forKey: .threadID)
            try container.encodeIfPresent(category, forKey: .category)
            if contentAvailable { try container.encode(1, forKey: .contentAvailable) }
            if mutableContent { try container.encode(1, forKey: .mutableContent) }
            try container.encodeIfPresent(interruptionLevel, forKey: .interruptionLevel)
            try container.encodeIfPresent(relevanceScore, forKey: .relevanceScore)
            try container.encodeIfPresent(targetContentID, forKey: .targetContentID)
            try container.encodeIfPresent(filterCriteria, forKey: .filterCriteria)
        }

        /// Reads an integer flag: 1 is true, 0 or absent false; anything else is an error.
        static func decodeFlag<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Bool {
            guard let value = try container.decodeIfPresent(Int.self, forKey: key) else { return false }
            guard value == 0 || value == 1 else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "expected 0 or 1, found \(value)")
            }
            return value == 1
        }
    }
}
