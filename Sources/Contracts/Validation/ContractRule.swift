/// A named cross-field rule: what the schema alone cannot say, e.g. "`secret` needs
/// `mutable-content: 1`".
///
/// The check closure is what validates. The optional ``form`` is the same rule as data, for
/// the rules JSON Schema can express (`if`/`then`); exporters emit it, and the tests keep
/// the form and the check in agreement over every fixture. Rules without a form are listed
/// in the emitted schema's description with their ids.
public struct ContractRule: Sendable, Hashable {
    /// What the rule does with the document and the options.
    public typealias Check = @Sendable (_ document: JSONNode, _ report: inout RuleReport) -> Void

    /// Stable id, e.g. `payload.secret-needs-mutable-content`. Never reworded once published.
    public var id: String
    /// Whether the rule's violations are errors or warnings.
    public var severity: Violation.Severity
    /// One line saying what the rule requires.
    public var summary: String
    /// The rule as JSON Schema can express it, when it can.
    public var form: RuleForm?
    /// The check; it reports every violation it finds.
    public var check: Check

    /// A rule with its stable `id`, `severity`, one-line `summary`, optional JSON Schema `form` and its `check`.
    public init(id: String, severity: Violation.Severity = .error, summary: String, form: RuleForm? = nil, check: @escaping Check) {
        self.id = id
        self.severity = severity
        self.summary = summary
        self.form = form
        self.check = check
    }

    /// Runs the check on `document`.
    public func evaluate(_ document: JSONNode, options: ValidationOptions = ValidationOptions()) -> [Violation] {
        var report = RuleReport(ruleID: id, severity: severity, options: options)
        check(document, &report)
        return report.violations
    }

    public static func == (lhs: ContractRule, rhs: ContractRule) -> Bool {
        lhs.id == rhs.id && lhs.severity == rhs.severity && lhs.summary == rhs.summary && lhs.form == rhs.form
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
