import Contracts
import Foundation

/// What FakeAPNs learns from a payload's bytes: whether APNs could read it, and what the
/// Contracts' `payload` rules say about it.
public struct PayloadInspection: Sendable, Hashable {
    /// True when the bytes are one JSON object (APNs reads nothing else).
    public var isJSONObject: Bool
    /// Contract violations (empty when the payload keeps the contract or is not JSON).
    public var violations: [Violation]

    public init(isJSONObject: Bool, violations: [Violation] = []) {
        self.isJSONObject = isJSONObject
        self.violations = violations
    }
}

/// Reads a payload; runs for every push whose size APNs accepts, before the state checks.
public typealias PayloadInspector = @Sendable ([UInt8]) -> PayloadInspection

/// The inspectors FakeAPNs ships with.
public enum PayloadInspectors {
    /// What FakeAPNs uses unless told otherwise.
    public static let `default`: PayloadInspector = jsonOnly

    /// JSON-object check only, no contract.
    public static let jsonOnly: PayloadInspector = { bytes in
        let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
        return PayloadInspection(isJSONObject: object != nil)
    }
}
