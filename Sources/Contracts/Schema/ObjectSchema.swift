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
    public var unknownMembers: UnknownMembers

    public init(members: [Member], unknownMembers: UnknownMembers = .reject) {
        self.members = members
        self.unknownMembers = unknownMembers
    }

    /// The declared member called `name`, if any.
    public func member(named name: String) -> Member? {
        guard let index = members.firstIndex(where: { $0.name == name }) else { return nil }
        return members[index]
    }

    /// Names of the required members, in declaration order.
    public var requiredNames: [String] { members.filter(\.isRequired).map(\.name) }
}
