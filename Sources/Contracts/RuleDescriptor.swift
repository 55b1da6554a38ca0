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

    /// The stable rule id, e.g. `payload.integer-flag`.
    public var id: String
    /// The severity its violations carry.
    public var severity: Violation.Severity
    /// One line saying what the rule requires.
    public var summary: String
    /// Which part of the validation reports it.
    public var origin: Origin

    /// A descriptor from its parts.
    public init(id: String, severity: Violation.Severity, summary: String, origin: Origin) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.origin = origin
    }
}
