/// A set of contracts that every tool takes: the validator, the exporters, the fakes and
/// `contract-check`. ``v1`` is the seed app's set; a team declares its own with the same DSL.
///
/// ```swift
/// let mine = ContractSet(contracts: ContractSet.v1.contracts + [myContract])
/// ```
public struct ContractSet: Sendable, Hashable {
    /// The rule id of a document that is not JSON at all.
    public static let syntaxRuleID = "json.syntax"

    /// The contracts, in catalogue order.
    public var contracts: [Contract]

    /// A set of `contracts` (names should be unique: ``contract(named:)`` returns the first).
    public init(contracts: [Contract]) {
        self.contracts = contracts
    }

    /// The contract called `name`, if the set has one.
    public func contract(named name: String) -> Contract? {
        contracts.first { $0.name == name }
    }

    /// The contract whose ``Contract/folderName`` is `folder` (e.g. `payloads`), if any.
    public func contract(forFolder folder: String) -> Contract? {
        contracts.first { $0.folderName == folder }
    }

    /// The contract whose ``Contract/fileExtension`` is `fileExtension` (e.g. `apns`), if any.
    public func contract(forFileExtension fileExtension: String) -> Contract? {
        contracts.first { $0.fileExtension == fileExtension }
    }

    /// The contract a file's path selects, as `contract-check validate` infers it: the file
    /// extension first (`x.apns` → `apns-file`), then the nearest enclosing folder that names
    /// a contract (`Fixtures/invalid/payloads/x.json` → `payload`). Nil when nothing matches.
    public func contract(forFilePath path: String) -> Contract? {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard let file = components.last else { return nil }
        if let dot = file.lastIndex(of: "."), dot != file.startIndex,
           let byExtension = contract(forFileExtension: String(file[file.index(after: dot)...])) {
            return byExtension
        }
        for folder in components.dropLast().reversed() {
            if let byFolder = contract(forFolder: String(folder)) { return byFolder }
        }
        return nil
    }

    /// Every rule any contract of the set can report, plus `json.syntax`, each once.
    public var ruleCatalog: [RuleDescriptor] {
        var seen = Set<String>()
        var result: [RuleDescriptor] = []
        let syntax = RuleDescriptor(id: ContractSet.syntaxRuleID, severity: .error,
                                    summary: "The document is UTF-8 JSON as RFC 8259 defines it.", origin: .reader)
        for descriptor in [syntax] + contracts.flatMap(\.ruleCatalog) where seen.insert(descriptor.id).inserted {
            result.append(descriptor)
        }
        return result
    }
}
