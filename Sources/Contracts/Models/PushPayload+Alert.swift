extension PushPayload {
    /// The visible alert. On the wire it is a dictionary, or a plain string read as the body.
    public struct Alert: Sendable, Hashable, Codable {
        /// The title line.
        public var title: String?
        /// The subtitle line.
        public var subtitle: String?
        /// The body text; generic, because it shows if the service extension fails.
        public var body: String?
        /// `launch-image`.
        public var launchImage: String?
        /// `title-loc-key`.
        public var titleLocKey: String?
        /// `title-loc-args`.
        public var titleLocArgs: [String]?
        /// `subtitle-loc-key`.
        public var subtitleLocKey: String?
        /// `subtitle-loc-args`.
        public var subtitleLocArgs: [String]?
        /// `loc-key`.
        public var locKey: String?
        /// `loc-args`.
        public var locArgs: [String]?

        /// An alert with a title, subtitle and body.
        public init(title: String? = nil, subtitle: String? = nil, body: String? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.body = body
        }

        enum CodingKeys: String, CodingKey {
            case title, subtitle, body
            case launchImage = "launch-image"
            case titleLocKey = "title-loc-key"
            case titleLocArgs = "title-loc-args"
            case subtitleLocKey = "subtitle-loc-key"
            case subtitleLocArgs = "subtitle-loc-args"
            case locKey = "loc-key"
            case locArgs = "loc-args"
        }

        /// Reads a dictionary, or a plain string as the body.
        public init(from decoder: any Decoder) throws {
            if let single = try? decoder.singleValueContainer(), let text = try? single.decode(String.self) {
                self.init(body: text)
                return
            }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(title: try container.decodeIfPresent(String.self, forKey: .title),
                      subtitle: try container.decodeIfPresent(String.self, forKey: .subtitle),
                      body: try container.decodeIfPresent(String.self, forKey: .body))
            launchImage = try container.decodeIfPresent(String.self, forKey: .launchImage)
            titleLocKey = try container.decodeIfPresent(String.self, forKey: .titleLocKey)
            titleLocArgs = try container.decodeIfPresent([String].self, forKey: .titleLocArgs)
            subtitleLocKey = try container.decodeIfPresent(String.self, forKey: .subtitleLocKey)
            subtitleLocArgs = try container.decodeIfPresent([String].self, forKey: .subtitleLocArgs)
            locKey = try container.decodeIfPresent(String.self, forKey: .locKey)
            locArgs = try container.decodeIfPresent([String].self, forKey: .locArgs)
        }
    }
}
