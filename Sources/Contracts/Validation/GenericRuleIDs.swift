/// The generic rule ids of one namespace. Each id is built only when a violation is
/// reported, so a clean document costs no string work.
struct GenericRuleIDs: Sendable {
    let namespace: String

    var type: String { namespace + ".type" }
    var required: String { namespace + ".required" }
    var unknownMember: String { namespace + ".unknown-member" }
    var duplicateKey: String { namespace + ".duplicate-key" }
    var enumeration: String { namespace + ".enum" }
    var format: String { namespace + ".format" }
    var length: String { namespace + ".length" }
    var range: String { namespace + ".range" }
    var integerFlag: String { namespace + ".integer-flag" }
    var forbidden: String { namespace + ".forbidden" }
}
