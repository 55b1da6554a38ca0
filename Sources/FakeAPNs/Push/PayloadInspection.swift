import Contracts

/// What FakeAPNs learns from a payload's bytes: whether APNs could read it, and what the
/// Contracts' `payload` rules say about it.
public struct PayloadInspection: Sendable, Hashable {
    /// True when the bytes are one JSON object (APNs reads nothing else).
    public var isJSONObject: Bool
    /// Contract violations (empty when the payload keeps the contract or is not JSON).
    public var violations: [Violation]

    /// An inspection verdict, e.g. from a custom ``PayloadInspector``.
    public init(isJSONObject: Bool, violations: [Violation] = []) {
        self.isJSONObject = isJSONObject
        self.violations = violations
    }
}

/// Reads a payload; runs for every push whose size APNs accepts, before the state checks.
public typealias PayloadInspector = @Sendable ([UInt8]) -> PayloadInspection

/// The inspectors FakeAPNs ships with.
public enum PayloadInspectors {
    /// What FakeAPNs uses unless told otherwise: the v1 `payload` contract.
    public static let `default`: PayloadInspector = contract(in: .v1)

    /// JSON-object check, then the set's `payload` contract (every rule, sizes as sent).
    /// - Parameters:
    ///   - contracts: a team's own set, or `ContractSet.v1`.
    ///   - name: the contract payloads are checked against.
    public static func contract(in contracts: ContractSet, named name: String = "payload") -> PayloadInspector {
        let contract = contracts.contract(named: name)
        return { bytes in
            guard let node = parseObject(bytes) else { return PayloadInspection(isJSONObject: false) }
            let violations = contract?.validate(node, sourceByteCount: bytes.count) ?? []
            return PayloadInspection(isJSONObject: true, violations: violations)
        }
    }

    /// JSON-object check only (strict RFC 8259, via the Contracts' `JSONReader`), no contract.
    public static let jsonOnly: PayloadInspector = { bytes in
        PayloadInspection(isJSONObject: parseObject(bytes) != nil)
    }

    /// The payload as a JSON node when it is one JSON object.
    static func parseObject(_ bytes: [UInt8]) -> JSONNode? {
        guard let node = try? JSONReader.parse(bytes), case .object = node.value else { return nil }
        return node
    }
}
