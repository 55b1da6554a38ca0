/// One rule a contract can report: its stable id, severity and a one-line summary.
public struct RuleDescriptor: Sendable, Hashable, Codable {
    /// Where a rule comes from.
    public enum Origin: String, Sendable, Hashable, Codable {
        /// The JSON reader: the document is not JSON.
        case reader
        /// The schema walk (types, required and unknown members, formats, ranges).
        case schema
        /// A named cross-field rule.
        case crossField
    }

    public var id: String
    public var severity: Violation.Severity
    public var summary: String
    public var origin: Origin

    public init(id: String, severity: Violation.Severity, summary: String, origin: Origin) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.origin = origin
    }
}
