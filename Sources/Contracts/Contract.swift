/// One message that crosses a boundary: its schema, its cross-field rules, and its direction.
///
/// ```swift
/// let violations = ContractSet.v1.contract(named: "payload")?.validate(document) ?? []
/// for violation in violations { print(violation) }
/// ```
public struct Contract: Sendable, Hashable {
    /// Stable name, e.g. `payload`, `device-registration`.
    public var name: String
    /// Who writes the message and who reads it; decides what a breaking change is.
    public var direction: ContractDirection
    /// One line saying what the message is.
    public var summary: String
    /// The shape of the message, walked by the validator and translated by the exporters.
    public var schema: Schema {
        didSet { cleanCheck = CleanCheck() }
    }
    /// Cross-field rules, run after the schema walk on every document.
    public var rules: [ContractRule] {
        didSet { cleanCheck = CleanCheck() }
    }
    /// A fast test that a document has no violation at all (the v1 payload's), dropped
    /// when ``schema`` or ``rules`` change.
    var cleanCheck = CleanCheck()
    /// Prefix of the generic rule ids (`<namespace>.type`, `.required`, …); usually the name.
    /// The `.apns` file contract shares `payload` because its rules are the payload's.
    public var ruleNamespace: String {
        didSet { genericRuleIDs = GenericRuleIDs(namespace: ruleNamespace) }
    }
    /// The generic rule ids of ``ruleNamespace``, built once here rather than per document.
    private(set) var genericRuleIDs: GenericRuleIDs
    /// For a URL path parameter contract, the parameter's name (`token` in `/v1/devices/{token}`).
    public var pathParameter: String?
    /// The fixture folder name that selects this contract in `contract-check validate`, e.g. `payloads`.
    public var folderName: String?
    /// The file extension that selects this contract regardless of folder, e.g. `apns`.
    public var fileExtension: String?

    /// Declares a contract; `ruleNamespace` defaults to `name`.
    public init(name: String, direction: ContractDirection, summary: String, schema: Schema, rules: [ContractRule] = [],
                ruleNamespace: String? = nil, pathParameter: String? = nil, folderName: String? = nil, fileExtension: String? = nil) {
        self.name = name
        self.direction = direction
        self.summary = summary
        self.schema = schema
        self.rules = rules
        self.ruleNamespace = ruleNamespace ?? name
        self.genericRuleIDs = GenericRuleIDs(namespace: ruleNamespace ?? name)
        self.pathParameter = pathParameter
        self.folderName = folderName
        self.fileExtension = fileExtension
    }

    /// Every violation of the schema and of every rule, in document order.
    public func validate(_ document: JSONNode) -> [Violation] {
        validate(document, options: ValidationOptions())
    }

    /// Every violation; `sourceByteCount` is the document's size as sent, for size rules.
    public func validate(_ document: JSONNode, sourceByteCount: Int?) -> [Violation] {
        validate(document, options: ValidationOptions(sourceByteCount: sourceByteCount))
    }

    /// Every violation of the schema and of every rule, in document order.
    public func validate(_ document: JSONNode, options: ValidationOptions) -> [Violation] {
        validate(document, options: options, skippingCleanCheck: false)
    }

    /// ``validate(_:options:)``; `skippingCleanCheck` for a document ``cleanAnswer(_:options:)``
    /// already found not clean on its bytes, whose quick check on the tree would say no again.
    package func validate(_ document: JSONNode, options: ValidationOptions, skippingCleanCheck: Bool) -> [Violation] {
        if !skippingCleanCheck, let isClean = cleanCheck.isClean, isClean(document, options) { return [] }
        return validateFully(document, options: options)
    }

    /// True only when `bytes` are one JSON document that ``JSONReader`` reads and `validate`
    /// passes without a violation, decided without building its tree (plain payloads as
    /// written: see ``FlatJSON``). False means nothing: parse and validate to know.
    package func isClean(_ bytes: UnsafeBufferPointer<UInt8>, options: ValidationOptions) -> Bool {
        cleanAnswer(bytes, options: options) == true
    }

    /// ``isClean(_:options:)``, telling apart "checked, not clean" (false: the document was
    /// read on its bytes and breaks a rule, or the check cannot vouch for it) from "not
    /// checked" (nil: no check on bytes, a size the rules would report, or a document
    /// ``FlatJSON`` does not read).
    package func cleanAnswer(_ bytes: UnsafeBufferPointer<UInt8>, options: ValidationOptions) -> Bool? {
        guard let isCleanFlat = cleanCheck.isCleanFlat else { return nil }
        // A size rule would report it: not read at all.
        if cleanCheck.isSizeLimited, !(options.sourceByteCount.map { $0 <= options.maximumPayloadBytes } ?? false) { return nil }
        guard let document = FlatJSON(bytes) else { return nil }
        return isCleanFlat(document, options)
    }

    /// The schema walk and every rule, without ``cleanCheck``.
    func validateFully(_ document: JSONNode, options: ValidationOptions) -> [Violation] {
        var walker = SchemaValidator(ids: genericRuleIDs)
        walker.validate(document, against: schema)
        var violations = walker.violations
        for index in rules.indices {
            var report = RuleReport(ruleID: rules[index].id, severity: rules[index].severity, options: options)
            rules[index].check(document, &report)
            if !report.violations.isEmpty { violations += report.violations }
        }
        return Contract.inDocumentOrder(violations)
    }

    /// Every violation of a URL path parameter (e.g. a device token). Violations carry no
    /// source position, and the pointer is "" (the parameter itself).
    public func validate(pathParameter value: String) -> [Violation] {
        // A valid parameter (every request has one) is answered without building a document.
        if rules.isEmpty, case .string(let string) = schema.kind, string.admits(value) { return [] }
        return validate(JSONNode(.string(value))).map { violation in
            var copy = violation
            copy.position = nil
            return copy
        }
    }

    /// Sorted by source position (violations without one last), keeping the order of equals.
    static func inDocumentOrder(_ violations: [Violation]) -> [Violation] {
        guard violations.count > 1 else { return violations }
        return violations.enumerated().sorted { lhs, rhs in
            let left = lhs.element.position?.offset ?? Int.max
            let right = rhs.element.position?.offset ?? Int.max
            return left != right ? left < right : lhs.offset < rhs.offset
        }.map(\.element)
    }
}

/// A contract's optional fast path: true only when the schema walk and every rule would
/// report nothing (a false only sends the document down the full validation). Not part of
/// a contract's identity: every two checks are equal.
struct CleanCheck: Sendable, Hashable {
    var isClean: (@Sendable (_ document: JSONNode, _ options: ValidationOptions) -> Bool)?
    /// The same question on a ``FlatJSON`` document (no tree), when the contract has one.
    var isCleanFlat: (@Sendable (_ document: FlatJSON, _ options: ValidationOptions) -> Bool)?
    /// Both say false when the size sent is not given or is over the options' limit (the
    /// payload's size rule): bytes over it are not read for the flat check.
    var isSizeLimited: Bool

    init(_ isClean: (@Sendable (_ document: JSONNode, _ options: ValidationOptions) -> Bool)? = nil,
         flat isCleanFlat: (@Sendable (_ document: FlatJSON, _ options: ValidationOptions) -> Bool)? = nil,
         isSizeLimited: Bool = false) {
        self.isClean = isClean
        self.isCleanFlat = isCleanFlat
        self.isSizeLimited = isSizeLimited
    }

    static func == (lhs: CleanCheck, rhs: CleanCheck) -> Bool { true }
    func hash(into hasher: inout Hasher) {}
}
