/// Where a cross-field rule's check writes what it finds. The rule's id and severity are
/// filled in for it, so a check only says where and what.
public struct RuleReport: Sendable {
    /// The id of the rule being checked; every violation reported here carries it.
    public let ruleID: String
    /// The rule's severity; every violation reported here carries it.
    public let severity: Violation.Severity
    /// What the validation knows beyond the document (its size as sent, the payload limit).
    public let options: ValidationOptions
    /// The violations reported so far, in order.
    public private(set) var violations: [Violation] = []

    /// An empty report for the rule `ruleID`.
    public init(ruleID: String, severity: Violation.Severity, options: ValidationOptions) {
        self.ruleID = ruleID
        self.severity = severity
        self.options = options
    }

    /// Records a violation at `pointer`, positioned at `position` (a value's or a key's start).
    /// - Parameters:
    ///   - pointer: the JSON Pointer of the offending value.
    ///   - position: where it starts in the source, if known.
    ///   - message: what was expected, what was found, and what to do.
    public mutating func add(_ pointer: String, at position: SourcePosition?, _ message: String) {
        violations.append(Violation(pointer: pointer, ruleID: ruleID, severity: severity, position: position, message: message))
    }
}
