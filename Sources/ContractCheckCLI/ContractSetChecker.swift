import Contracts

/// Checks documents with a ``Contracts/ContractSet`` (the v1 set by default, or a team's own):
/// ``Contracts/JSONReader`` for syntax, then every schema rule and cross-field rule of the
/// contract, with size rules measured on the bytes as read.
package struct ContractSetChecker: DocumentChecker {
    package let contracts: ContractSet
    /// Each contract's validation, captured once: the call borrows the captured contract,
    /// where reading it out of the array copied it (retaining every part) once per file.
    /// (The third argument skips the clean check on the tree: see ``check(_:contract:knownNotClean:)``.)
    private let validators: [@Sendable (JSONNode, ValidationOptions, Bool) -> [Violation]]
    /// Each contract's clean check on bytes (``Contracts/Contract/cleanAnswer(_:options:)``), captured alike.
    private let cleanChecks: [@Sendable (UnsafeBufferPointer<UInt8>, ValidationOptions) -> Bool?]

    package init(_ contracts: ContractSet) {
        self.contracts = contracts
        self.validators = contracts.contracts.map { contract in { contract.validate($0, options: $1, skippingCleanCheck: $2) } }
        self.cleanChecks = contracts.contracts.map { contract in { contract.cleanAnswer($0, options: $1) } }
    }

    package var contractNames: [String] { contracts.contracts.map(\.name) }

    package var folderNames: [String] { contracts.contracts.compactMap(\.folderName) }

    package var fileExtensions: [String] { contracts.contracts.compactMap(\.fileExtension) }

    package func contractName(forFolder folder: String) -> String? {
        contracts.contract(forFolder: folder)?.name
    }

    package func folderName(forContract name: String) -> String? {
        contracts.contracts.first { $0.name == name }?.folderName
    }

    package func contractName(forFileExtension fileExtension: String) -> String? {
        contracts.contract(forFileExtension: fileExtension)?.name
    }

    /// How many times over its limit a document must be to be reported unparsed. Compacting
    /// can shrink JSON (whitespace, `\u00e9` escapes at most 6 : 1), so only a margin this
    /// wide is certain without reading it; parsing 50 MB in a debug build takes half a minute.
    static let unparsedSizeFactor = 16

    package func sizeViolation(byteCount: Int, contract name: String) -> Violation? {
        let limit = ValidationOptions.standardPayloadLimit
        guard byteCount > limit * Self.unparsedSizeFactor,
              let contract = contracts.contracts.first(where: { $0.name == name }),
              let rule = contract.rules.first(where: { $0.id.hasSuffix(".size") }) else { return nil }
        return Violation(pointer: "", ruleID: rule.id, position: SourcePosition(line: 1, column: 1, offset: 0),
                         message: "expected at most \(limit) bytes, found a \(byteCount)-byte file — more than \(Self.unparsedSizeFactor) times the limit, so it was not parsed; APNs answers 413 PayloadTooLarge; send an id the app fetches with.")
    }

    /// A plain clean document (most of a CI run) is answered without a tree to build and free.
    package func isClean(_ bytes: UnsafeBufferPointer<UInt8>, contract name: String) -> Bool {
        cleanAnswer(bytes, contract: name) == true
    }

    /// A document found not clean on its bytes (one in ten of a CI run, the ones with findings)
    /// is validated without the quick clean check on its tree, which would say no again.
    package func cleanAnswer(_ bytes: UnsafeBufferPointer<UInt8>, contract name: String) -> Bool? {
        guard let index = index(of: name) else { return nil }
        return cleanChecks[index](bytes, ValidationOptions(sourceByteCount: bytes.count))
    }

    /// The index of the contract called `name`. Lengths first: names of another length are
    /// told apart without a string compare.
    private func index(of name: String) -> Int? {
        let length = name.utf8.count
        return contracts.contracts.firstIndex { $0.name.utf8.count == length && $0.name == name }
    }

    package func check(_ bytes: [UInt8], contract name: String) -> DocumentCheck {
        check(bytes, contract: name, knownNotClean: false)
    }

    package func check(_ bytes: [UInt8], contract name: String, knownNotClean: Bool) -> DocumentCheck {
        guard let index = index(of: name) else {
            return .checked([Violation(pointer: "", ruleID: "file.unknown-contract", message: "no contract named '\(name)' in this contract set")])
        }
        let document: JSONNode
        do throws(JSONSyntaxError) {
            document = try JSONReader.parse(bytes)
        } catch {
            return .syntaxError(position: error.position, message: Contract.syntaxViolation(error).message)
        }
        return .checked(validators[index](document, ValidationOptions(sourceByteCount: bytes.count), knownNotClean))
    }
}
