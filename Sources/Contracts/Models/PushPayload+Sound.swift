extension PushPayload {
    /// The sound: a file name or, for critical alerts, a dictionary.
    public struct Sound: Sendable, Hashable, Codable {
        /// The sound file name, or `default`.
        public var name: String?
        /// `critical: 1` (needs Apple's critical-alerts entitlement).
        public var critical: Bool
        /// 0 to 1, for critical alerts.
        public var volume: Double?

        /// A sound; `critical` needs Apple's critical-alerts entitlement.
        public init(name: String?, critical: Bool = false, volume: Double? = nil) {
            self.name = name
            self.critical = critical
            self.volume = volume
        }

        enum CodingKeys: String, CodingKey {
            case name, critical, volume
        }

        /// Reads a file name string or a critical-alert dictionary.
        public init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
                self.init(name: text)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(name: try container.decodeIfPresent(String.self, forKey: .name),
                      critical: try APS.decodeFlag(container, .critical),
                      volume: try container.decodeIfPresent(Double.self, forKey: .volume))
        }

        public func encode(to encoder: any Encoder) throws {
            if !critical, volume == nil, let name {
                var single = encoder.singleValueContainer()
                try single.encode(name)
                return
            }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(name, forKey: .name)
            if critical { try container.encode(1, forKey: .critical) }
            try container.encodeIfPresent(volume, forKey: .volume)
        }
    }
}
