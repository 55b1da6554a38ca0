/// An object node: its declared members and what happens to members it does not declare.
public struct ObjectSchema: Sendable, Hashable {
    /// Whether members the schema does not declare are accepted.
    public enum UnknownMembers: String, Sendable, Hashable {
        /// Undeclared members are violations (`<contract>.unknown-member`), e.g. a request body.
        case reject
        /// Undeclared members are accepted, e.g. custom keys at the top of an APNs payload.
        case allow
    }

    /// Declared members, in the order they are documented and emitted.
    public var members: [Member]
    /// Whether undeclared members are violations.
    public var unknownMembers: UnknownMembers

    /// An object with `members`; undeclared members are rejected unless told otherwise.
    public init(members: [Member], unknownMembers: UnknownMembers = .reject) {
        self.members = members
        self.unknownMembers = unknownMembers
    }

    /// The declared member called `name`, if any.
    public func member(named name: String) -> Member? {
        memberIndex(named: name).map { members[$0] }
    }

    /// The index in ``members`` of the member called `name`, if any.
    public func memberIndex(named name: String) -> Int? {
        // Comparing byte counts first (O(1) for native strings) skips String's slower
        // comparison for almost every non-match.
        let count = name.utf8.count
        return members.firstIndex { $0.name.utf8.count == count && $0.name == name }
    }

    /// Names of the required members, in declaration order.
    public var requiredNames: [String] { members.filter(\.isRequired).map(\.name) }
}
