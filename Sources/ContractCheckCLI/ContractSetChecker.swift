import Contracts

/// Checks documents with a ``Contracts/ContractSet`` (the v1 set by default, or a team's own):
/// ``Contracts/JSONReader`` for syntax, then every schema rule and cross-field rule of the
/// contract, with size rules measured on the bytes as read.
package struct ContractSetChecker: DocumentChecker {
    package let contracts: ContractSet

    package init(_ contracts: ContractSet) {
        self.contracts = contracts
    }

    package var contractNames: [String] { contracts.contracts.map(\.name) }

    package var folderNames: [String] { contracts.contracts.compactMap(\.folderName) }

    package var fileExtensions: [String] { contracts.contracts.compactMap(\.fileExtension) }

    package func contractName(forFolder folder: String) -> String? {
        contracts.contract(forFolder: folder)?.name
    }

    package func contractName(forFileExtension fileExtension: String) -> String? {
        contracts.contract(forFileExtension: fileExtension)?.name
    }

    package func check(_ bytes: [UInt8], contract name: String) -> DocumentCheck {
        // By index: copying a Contract out of the set (once per file) retains all its parts.
        guard let index = contracts.contracts.firstIndex(where: { $0.name == name }) else {
            return .checked([Violation(pointer: "", ruleID: "file.unknown-contract", message: "no contract named '\(name)' in this contract set")])
        }
        let document: JSONNode
        do throws(JSONSyntaxError) {
            document = try JSONReader.parse(bytes)
        } catch {
            return .syntaxError(position: error.position, message: Contract.syntaxViolation(error).message)
        }
        return .checked(contracts.contracts[index].validate(document, options: ValidationOptions(sourceByteCount: bytes.count)))
    }
}
