import Contracts

/// One violation as every JSON answer writes it: the journals of both fakes, FakeBackend's
/// 400 bodies and the admin API's 400 bodies all use these member names.
///
/// ```json
/// {"pointer": "/count", "rule": "admin.type", "message": "expected an integer, found 1.5", "line": 1, "column": 10}
/// ```
/// `pointer` is a JSON Pointer: `""` is the whole document (text output says `(document)`).
package struct ViolationRecord: Sendable, Hashable, Codable {
    /// JSON Pointer to the offending value; `""` is the document itself.
    package var pointer: String
    /// The stable rule id, e.g. `device-registration.unknown-key` or `admin.unknown-member`.
    package var rule: String
    /// `error` or `warning`; absent in problem bodies, which list what made the request fail.
    package var severity: String?
    /// What is wrong, and what to send instead.
    package var message: String
    /// The 1-based line where the offending value (or member name) starts, when known.
    package var line: Int?
    /// The 1-based column of `line`, when known.
    package var column: Int?

    /// A record from its parts.
    package init(pointer: String, rule: String, severity: String? = nil, message: String,
                 position: SourcePosition? = nil) {
        self.pointer = pointer
        self.rule = rule
        self.severity = severity
        self.message = message
        self.line = position?.line
        self.column = position?.column
    }

    /// A contract violation as a journal records it (with its severity).
    package init(journaling violation: Violation) {
        self.init(pointer: violation.pointer, rule: violation.ruleID, severity: violation.severity.rawValue,
                  message: violation.message, position: violation.position)
    }

    /// The violation this record describes (a record without a severity is an error).
    package var violation: Violation {
        let position = line.map { SourcePosition(line: $0, column: column ?? 1, offset: 0) }
        return Violation(pointer: pointer, ruleID: rule, severity: severity.flatMap(Violation.Severity.init(rawValue:)) ?? .error,
                         position: position, message: message)
    }

    /// How text output (the live log, `validate`) names a pointer: the root is `(document)`.
    package static func displayPointer(_ pointer: String) -> String {
        pointer.isEmpty ? "(document)" : pointer
    }
}
