// TEMPORARY STUB — delete this file when branches `json` and `contracts` are merged.
// It stands in for `JSONReader` and `ContractSet` (promised in Sources/Contracts) so the CLI
// compiles and its framework tests run; it checks syntax only, with Foundation, and knows
// no rules.
import Contracts
import Foundation

/// Stand-in for the promised `ContractSet` value (names only).
package struct ContractSet: Sendable {
    package var names: [String]
    package static let v1 = ContractSet(names: ["device-registration", "device-token", "notification-opened", "notification-id", "payload", "apns-file", "apns-error"])
}

/// Adapts a contract set to ``DocumentChecker``. STUB: syntax only, no rules, no positions.
package struct ContractSetChecker: DocumentChecker {
    package let contracts: ContractSet
    package init(_ contracts: ContractSet) { self.contracts = contracts }
    package var contractNames: [String] { contracts.names }

    package func check(_ bytes: [UInt8], contract: String) -> DocumentCheck {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
            return .checked([])
        } catch {
            return .syntaxError(position: SourcePosition(line: 1, column: 1, offset: 0), message: "not valid JSON (stub reader)")
        }
    }
}
