/// One difference between an old and a new emitted schema, classified for its direction.
public struct SchemaChange: Sendable, Hashable {
    /// The contract (the schema's `title`).
    public var contract: String
    /// Who sends documents of the contract.
    public var direction: ContractDirection
    /// What changed.
    public var kind: ChangeKind
    /// JSON Pointer of the instance place that changed (`/aps/category`; `/*` for array
    /// items; `""` for the document). For rule changes, `#<rule id>`.
    public var pointer: String
    /// True when the change breaks a peer in this direction (its sender or its reader).
    public var isBreaking: Bool
    /// What changed and, when it breaks, who it breaks.
    public var message: String

    /// A change from its parts.
    public init(contract: String, direction: ContractDirection, kind: ChangeKind, pointer: String, isBreaking: Bool, message: String) {
        self.contract = contract
        self.direction = direction
        self.kind = kind
        self.pointer = pointer
        self.isBreaking = isBreaking
        self.message = message
    }

    /// `breaking.<direction>.<kind>` or `info.<direction>.<kind>`.
    public var id: String { kind.id(direction: direction, breaking: isBreaking) }

    /// The spelling `--allow` takes: `<id>@<pointer>`.
    public var allowKey: String { id + "@" + pointer }
}
