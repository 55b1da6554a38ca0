/// One way a JSON document (or a path parameter, or a request) breaks a contract.
///
/// Every violation names where (JSON Pointer and source position), which rule (a stable
/// id such as `payload.secret-needs-mutable-content`), how bad (error or warning), and a
/// message that says what was expected, what was found and what to do.
public struct Violation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How a violation counts: errors fail a check, warnings are reported only.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// Fails the check (exit status 1, a 400 from the fakes).
        case error
        /// Reported, but the check passes.
        case warning
    }

    /// RFC 6901 JSON Pointer to the offending value ("" is the whole document).
    public var pointer: String
    /// Stable rule id, e.g. `payload.integer-flag`. Never reworded once published.
    public var ruleID: String
    /// Whether the violation fails the document (error) or only warns.
    public var severity: Severity
    /// Where the offending value (or key) starts in the source, when there is a source.
    public var position: SourcePosition?
    /// What was expected, what was found, and what to do.
    public var message: String

    /// A violation from its parts.
    public init(pointer: String, ruleID: String, severity: Severity = .error, position: SourcePosition? = nil, message: String) {
        self.pointer = pointer
        self.ruleID = ruleID
        self.severity = severity
        self.position = position
        self.message = message
    }

    /// `3:17 /aps/mutable-content: expected 0 or 1, found true [payload.integer-flag]`
    public var description: String {
        let place = position.map { "\($0.line):\($0.column) " } ?? ""
        let where_ = pointer.isEmpty ? "(document)" : pointer
        return "\(place)\(where_): \(message) [\(ruleID)]"
    }
}

