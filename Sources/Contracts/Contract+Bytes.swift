extension Contract {
    /// Parses `bytes` with ``JSONReader`` and validates the document, measuring size rules on
    /// `bytes.count`. A document that is not JSON yields one `json.syntax` violation at the
    /// reader's line and column.
    ///
    /// ```swift
    /// let violations = ContractSet.v1.contract(named: "payload")!.validate(bytes: Array(body))
    /// ```
    /// - Parameters:
    ///   - bytes: The document as sent or as read from a file.
    ///   - maximumPayloadBytes: APNs' limit for this push (4096, or 5120 for VoIP).
    ///   - maxDepth: The deepest nesting the reader accepts.
    public func validate(bytes: [UInt8], maximumPayloadBytes: Int = ValidationOptions.standardPayloadLimit,
                         maxDepth: Int = JSONReader.defaultMaxDepth) -> [Violation] {
        let document: JSONNode
        do {
            document = try JSONReader.parse(bytes, maxDepth: maxDepth)
        } catch {
            return [Contract.syntaxViolation(error)]
        }
        return validate(document, options: ValidationOptions(sourceByteCount: bytes.count, maximumPayloadBytes: maximumPayloadBytes))
    }

    /// The `json.syntax` violation for a reader error: where it is, what the reader expected,
    /// and what to do.
    public static func syntaxViolation(_ error: JSONSyntaxError) -> Violation {
        guard error.kind != .tooDeep else {
            // Valid JSON, only deeper than the reader follows: say that, not "not JSON".
            return Violation(pointer: "", ruleID: ContractSet.syntaxRuleID, position: error.position,
                             message: "\(error.message) — JSON may nest deeper, but no contract's message does, so the reader stops at \(error.position); flatten the document.")
        }
        return Violation(pointer: "", ruleID: ContractSet.syntaxRuleID, position: error.position,
                         message: "\(error.message) — the document is not JSON (RFC 8259); fix it at \(error.position).")
    }
}
