import Contracts

/// Checks a request's path parameter and body against the backend's contracts.
///
/// Valid input as apps send it is accepted on each contract's ``PlainInputAcceptor`` (no
/// document, no violations built); anything else goes through ``JSONReader`` and the
/// contract's validator, which give every violation.
///
/// A class: the handler asks it on every request, and a struct this size (four contracts
/// and their acceptors, most of a kilobyte) was copied onto the stack for each call.
final class RequestValidator: Sendable {
    private let deviceToken: Contract?
    private let registration: Contract?
    private let notificationID: Contract?
    private let opened: Contract?
    private let deviceTokenAcceptor: PlainInputAcceptor?
    private let registrationAcceptor: PlainInputAcceptor?
    private let notificationIDAcceptor: PlainInputAcceptor?
    private let openedAcceptor: PlainInputAcceptor?
    /// Which of ``RegistrationFields/names`` each of the registration acceptor's members
    /// is, by member index (-1: none).
    private let registrationFieldOfMember: [Int]
    private let openedFieldOfMember: [Int]
    /// The Live Activity endpoints' contracts (``RequestValidator+LiveActivities``): read
    /// rarely, so checked on the document without acceptors.
    let orderID: Contract?
    let liveActivityRegistration: Contract?
    let pushToStartRegistration: Contract?
    /// The `{orderId}` parameter's name, for its violations' pointer.
    let orderIDName: String

    /// The path parameters' names, for the pointer of their violations (`/path/token`).
    private let tokenName: String
    private let notificationIDName: String

    /// Reads which contract checks what from ``FakeBackend/Endpoint/table``: a device token
    /// is `putDevice`'s path parameter (`deleteDevice` has the same one), a notification id
    /// is `opened`'s.
    init(contracts: ContractSet) {
        let put = FakeBackend.Endpoint.putDevice.declaration
        let report = FakeBackend.Endpoint.opened.declaration
        deviceToken = contracts.contract(named: put.parameterContract)
        registration = put.bodyContract.flatMap(contracts.contract(named:))
        notificationID = contracts.contract(named: report.parameterContract)
        opened = report.bodyContract.flatMap(contracts.contract(named:))
        tokenName = put.pathParts.parameter ?? ""
        notificationIDName = report.pathParts.parameter ?? ""
        deviceTokenAcceptor = deviceToken.map(PlainInputAcceptor.init)
        registrationAcceptor = registration.map(PlainInputAcceptor.init)
        notificationIDAcceptor = notificationID.map(PlainInputAcceptor.init)
        openedAcceptor = opened.map(PlainInputAcceptor.init)
        registrationFieldOfMember = Self.fieldOfMember(RegistrationFields.names, registrationAcceptor)
        openedFieldOfMember = Self.fieldOfMember(OpenedFields.names, openedAcceptor)
        let activity = FakeBackend.Endpoint.putLiveActivity.declaration
        orderID = contracts.contract(named: activity.parameterContract)
        liveActivityRegistration = activity.bodyContract.flatMap(contracts.contract(named:))
        pushToStartRegistration = FakeBackend.Endpoint.putPushToStart.declaration.bodyContract.flatMap(contracts.contract(named:))
        orderIDName = activity.pathParts.parameter ?? ""
    }

    private static func fieldOfMember(_ names: [String], _ acceptor: PlainInputAcceptor?) -> [Int] {
        let members = names.map { acceptor?.memberIndex(named: $0) }
        var fields = [Int](repeating: -1, count: (members.compactMap { $0 }.max() ?? -1) + 1)
        for (field, member) in members.enumerated() {
            if let member { fields[member] = field }
        }
        return fields
    }

    /// True when `token`, a `{token}` path parameter's bytes (valid UTF-8), has no
    /// violation: ``validate(token:)`` is empty. No String is made for an ASCII one.
    func admits(token: UnsafeBufferPointer<UInt8>) -> Bool {
        deviceTokenAcceptor?.admits(pathParameterBytes: token) == true
    }

    /// ``admits(token:)`` for `count` bytes known to be hex digits (a token with a
    /// ``DeviceTable/HexKey``), from the count alone when the token's schema allows it; nil
    /// otherwise (ask ``admits(token:)``).
    func admits(hexTokenOfCount count: Int) -> Bool? {
        deviceTokenAcceptor?.admits(hexDigitCount: count)
    }

    /// True when `id`, an `{id}` path parameter's bytes (valid UTF-8), has no violation:
    /// ``validate(notificationID:)`` is empty.
    func admits(notificationID id: UnsafeBufferPointer<UInt8>) -> Bool {
        notificationIDAcceptor?.admits(pathParameterBytes: id) == true
    }

    /// The violations of `token` as a `{token}` path parameter.
    func validate(token: String) -> [Violation] {
        if deviceTokenAcceptor?.admits(pathParameter: token) == true { return [] }
        return pathViolations(deviceToken?.validate(pathParameter: token) ?? [], name: tokenName)
    }

    /// The violations of `id` as a `{id}` path parameter.
    func validate(notificationID id: String) -> [Violation] {
        if notificationIDAcceptor?.admits(pathParameter: id) == true { return [] }
        return pathViolations(notificationID?.validate(pathParameter: id) ?? [], name: notificationIDName)
    }

    /// Parses a registration body and checks it; the fields are nil when it is not JSON.
    /// `fastPath: false` is for the tests that hold the two paths together.
    func validate(registrationBody body: [UInt8], fastPath: Bool = true) -> (RegistrationFields?, [Violation]) {
        validate(body: body, against: registration, fastPath ? registrationAcceptor : nil, registrationFieldOfMember)
    }

    /// The fields of a registration body that ``PlainInputAcceptor`` takes (plain, and
    /// without a violation: `validate(registrationBody:)` gives these fields and none), or
    /// nil: then ask that.
    func plainRegistration(_ body: UnsafeBufferPointer<UInt8>) -> PlainRegistration? {
        guard let registrationAcceptor else { return nil }
        var fields = PlainRegistration()
        let accepted = registrationAcceptor.withPlainValues(of: body) { member, value in
            if member < registrationFieldOfMember.count, registrationFieldOfMember[member] >= 0 {
                fields.set(registrationFieldOfMember[member], to: value)
            }
        }
        return accepted ? fields : nil
    }

    /// Parses an "opened" body and checks it.
    func validate(openedBody body: [UInt8], fastPath: Bool = true) -> (OpenedFields?, [Violation]) {
        validate(body: body, against: opened, fastPath ? openedAcceptor : nil, openedFieldOfMember)
    }

    /// `fieldOfMember` names the field of each of the acceptor's members.
    func validate<Fields: RequestFields>(body: [UInt8], against contract: Contract?, _ acceptor: PlainInputAcceptor?,
                                                 _ fieldOfMember: [Int]) -> (Fields?, [Violation]) {
        if let acceptor {
            var fields = Fields()
            let accepted = body.withUnsafeBufferPointer { bytes in
                acceptor.withValues(of: bytes) { member, value in
                    if member < fieldOfMember.count, fieldOfMember[member] >= 0 { fields.set(fieldOfMember[member], to: value) }
                }
            }
            if accepted { return (fields, []) }
        }
        let document: JSONNode
        do {
            document = try JSONReader.parse(body)
        } catch {
            let message = body.isEmpty
                ? "the body is empty; send a JSON object"
                : "the body is not valid JSON: \(error.message)"
            return (nil, [Violation(pointer: "", ruleID: "json.syntax", position: error.position, message: message)])
        }
        return (Fields { document.string(member: Fields.names[$0]) }, contract?.validate(document) ?? [])
    }

    /// A path parameter's violations point at `/path/{name}`, so a client can tell them
    /// from the body's.
    func pathViolations(_ violations: [Violation], name: String) -> [Violation] {
        violations.map { violation in
            var violation = violation
            if violation.pointer.isEmpty { violation.pointer = "/path/\(name)" }
            return violation
        }
    }
}

/// Top-level string members the handler keeps from a body.
protocol RequestFields: Equatable {
    /// The members' names.
    static var names: [String] { get }
    /// Every field nil.
    init()
    /// Sets the field of `names[field]`.
    mutating func set(_ field: Int, to value: String)
}

extension RequestFields {
    /// Reads `value(i)`, the string member `names[i]` (nil when absent or not a string).
    init(_ value: (Int) -> String?) {
        self.init()
        for field in Self.names.indices {
            if let text = value(field) { set(field, to: text) }
        }
    }
}

/// What the handler keeps from a registration body: the values as Strings
/// (``RegistrationFields``), or each where it sits in a plain body (``PlainRegistration``),
/// so that one matching the stored device never becomes a String.
struct Registration<Value> {
    var platform: Value?
    var environment: Value?
    var appVersion: Value?
    var publicKey: Value?

    init() {}

    /// Sets the field of `RegistrationFields.names[field]`.
    mutating func set(_ field: Int, to value: Value) {
        switch field {
        case 0: platform = value
        case 1: environment = value
        case 2: appVersion = value
        default: publicKey = value
        }
    }
}

typealias RegistrationFields = Registration<String>
typealias PlainRegistration = Registration<PlainValue>

extension Registration: Equatable where Value: Equatable {}

extension Registration: RequestFields where Value == String {
    static var names: [String] { registrationFieldNames }
}

/// ``RegistrationFields/names`` (a generic type keeps no static stored property).
private let registrationFieldNames = ["platform", "environment", "appVersion", "publicKey"]

extension Registration where Value == PlainValue {
    /// True when `device` is `account`'s registration of these fields as the handler would
    /// store them (absent ones as "", the platform as "ios"), compared as Strings compare:
    /// ``RegisteredDevice/sameRegistration(as:)`` without the device to compare.
    func isRegistration(of device: borrowing RegisteredDevice, account: String, in body: UnsafeBufferPointer<UInt8>) -> Bool {
        device.account == account
            && Self.field(platform, "ios", equals: device.platform, body)
            && Self.field(environment, "", equals: device.environment, body)
            && Self.field(appVersion, "", equals: device.appVersion, body)
            && Self.field(publicKey, "", equals: device.publicKey, body)
    }

    private static func field(_ value: PlainValue?, _ absent: String, equals stored: String,
                              _ body: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let value else { return stored == absent }
        return value.equals(stored, in: body)
    }
}

/// The one member a body's ``OneMemberFields`` keep.
protocol BodyMember {
    /// The member's name.
    static var name: String { get }
}

/// What the handler keeps from a body whose one string member it reads.
struct OneMemberFields<Member: BodyMember>: RequestFields {
    static var names: [String] { [Member.name] }
    /// The member's value.
    var value: String?

    init() {}

    mutating func set(_ field: Int, to value: String) {
        self.value = value
    }
}

/// An "opened" body's `action`.
enum OpenedAction: BodyMember {
    static let name = "action"
}

/// What the handler keeps from an "opened" body.
typealias OpenedFields = OneMemberFields<OpenedAction>

extension JSONNode {
    /// The string value of a top-level member, if this is an object that has it.
    func string(member key: String) -> String? {
        guard case .object(let members) = value else { return nil }
        for member in members where member.key == key {
            if case .string(let text) = member.value.value { return text }
        }
        return nil
    }
}
