/// What changed between two emitted schemas at one place. Whether a kind breaks depends on
/// the contract's direction: see ``ChangeKind/isBreaking(for:hasFallback:)``.
///
/// A finding's id is `breaking.<direction>.<kind>` when it breaks and `info.<direction>.<kind>`
/// when it does not, e.g. `breaking.app-to-backend.required-added`.
public enum ChangeKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A member is new and required (or an optional member became required).
    case requiredAdded = "required-added"
    /// A new optional member.
    case memberAdded = "member-added"
    /// An optional member is gone.
    case memberRemoved = "member-removed"
    /// A required member is gone (removed or renamed).
    case requiredMemberRemoved = "required-member-removed"
    /// A required member became optional.
    case requiredRemoved = "required-removed"
    /// A member that was accepted is now forbidden.
    case memberForbidden = "member-forbidden"
    /// A value is accepted that was not (new enum value, or the enum dropped).
    case enumValueAdded = "enum-value-added"
    /// A value that was accepted is not (removed enum value, or a new enum).
    case enumValueRemoved = "enum-value-removed"
    /// Shorter maximum or longer minimum length (strings or arrays).
    case lengthTightened = "length-tightened"
    /// Longer maximum or shorter minimum length.
    case lengthLoosened = "length-loosened"
    /// A pattern where there was none.
    case patternAdded = "pattern-added"
    /// A pattern is gone.
    case patternRemoved = "pattern-removed"
    /// A different pattern (neither is known to contain the other).
    case patternChanged = "pattern-changed"
    /// A higher minimum or lower maximum.
    case rangeTightened = "range-tightened"
    /// A lower minimum or higher maximum.
    case rangeLoosened = "range-loosened"
    /// A JSON type is no longer accepted.
    case typeNarrowed = "type-narrowed"
    /// A JSON type is accepted that was not.
    case typeWidened = "type-widened"
    /// An object that accepted undeclared members now rejects them.
    case unknownMembersRejected = "unknown-members-rejected"
    /// An object that rejected undeclared members now accepts them.
    case unknownMembersAllowed = "unknown-members-allowed"
    /// A new cross-field rule.
    case ruleAdded = "rule-added"
    /// A cross-field rule is gone.
    case ruleRemoved = "rule-removed"
    /// A cross-field rule with the same id says something else.
    case ruleChanged = "rule-changed"
    /// The contract now flows the other way.
    case directionChanged = "direction-changed"
    /// The contract is gone.
    case contractRemoved = "contract-removed"
    /// A new contract.
    case contractAdded = "contract-added"

    /// Whether this change breaks a peer of a contract flowing in `direction`.
    ///
    /// - `appToBackend`: old app versions keep sending the old shape, so anything the server
    ///   no longer accepts breaks (tightening).
    /// - `backendToApp`: every installed app reads the new shape, so anything an old app may
    ///   not read breaks (loosening), unless the node declares an unknown-value fallback.
    /// - `providerToAPNs`: the provider and APNs are both ends (the provider sends payloads and
    ///   reads APNs' answers, neither side upgrades with us), so a change that breaks either
    ///   way breaks.
    /// - Parameters:
    ///   - direction: which way the contract's messages travel.
    ///   - hasFallback: the old schema marks the node (or an ancestor) with
    ///     `x-unknown-value-fallback`, so old apps handle values they cannot read.
    public func isBreaking(for direction: ContractDirection, hasFallback: Bool = false) -> Bool {
        switch direction {
        case .appToBackend: return breaksSenders
        case .backendToApp: return breaksReaders && !(hasFallback && isLoosening)
        case .providerToAPNs: return breaksSenders || breaksReaders
        }
    }

    /// Old senders send something that is no longer accepted.
    var breaksSenders: Bool {
        switch self {
        case .requiredAdded, .memberForbidden, .enumValueRemoved, .lengthTightened, .patternAdded, .patternChanged,
             .rangeTightened, .typeNarrowed, .unknownMembersRejected, .ruleAdded, .ruleChanged, .directionChanged,
             .contractRemoved, .memberRemoved, .requiredMemberRemoved:
            return true
        default:
            return false
        }
    }

    /// Old readers receive something they do not expect or miss something they rely on.
    var breaksReaders: Bool {
        switch self {
        case .requiredMemberRemoved, .requiredRemoved, .enumValueAdded, .lengthLoosened, .patternRemoved, .patternChanged,
             .rangeLoosened, .typeWidened, .ruleRemoved, .ruleChanged, .directionChanged, .contractRemoved:
            return true
        default:
            return false
        }
    }

    /// A change that lets through values an old reader may not read.
    var isLoosening: Bool {
        switch self {
        case .enumValueAdded, .lengthLoosened, .patternRemoved, .patternChanged, .rangeLoosened, .typeWidened: return true
        default: return false
        }
    }

    /// The id segment of a direction: `app-to-backend`, `backend-to-app`, `provider-to-apns`.
    public static func segment(_ direction: ContractDirection) -> String {
        switch direction {
        case .appToBackend: return "app-to-backend"
        case .backendToApp: return "backend-to-app"
        case .providerToAPNs: return "provider-to-apns"
        }
    }

    /// The finding id: `breaking.<direction>.<kind>` or `info.<direction>.<kind>`.
    public func id(direction: ContractDirection, breaking: Bool) -> String {
        (breaking ? "breaking." : "info.") + ChangeKind.segment(direction) + "." + rawValue
    }
}
