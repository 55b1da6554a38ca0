// TEMPORARY STUB — delete this file when branch `contracts` is merged.
// It stands in for `ContractSet` (promised in Sources/Contracts) so the CLI compiles and its
// framework tests run; it checks JSON syntax with the real JSONReader and knows no rules.
import Contracts

/// Stand-in for the promised `ContractSet` value (names only).
package struct ContractSet: Sendable {
    package var names: [String]
    package static let v1 = ContractSet(names: ["device-registration", "device-token", "notification-opened", "notification-id", "payload", "apns-file", "apns-error"])
}

/// Adapts a contract set to ``DocumentChecker``. STUB: syntax only, no rules.
package struct ContractSetChecker: DocumentChecker {
    package let contracts: ContractSet
    package init(_ contracts: ContractSet) { self.contracts = contracts }
    package var contractNames: [String] { contracts.names }

    package func check(_ bytes: [UInt8], contract: String) -> DocumentCheck {
        do throws(JSONSyntaxError) {
            _ = try JSONReader.parse(bytes)
            return .checked([])
        } catch {
            return .syntaxError(position: error.position, message: error.message)
        }
    }
}
