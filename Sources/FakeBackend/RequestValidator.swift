import Contracts

/// Checks a request's path parameter and body against the backend's contracts.
///
/// Valid input as apps send it is accepted on each contract's ``PlainInputAcceptor`` (no
/// document, no violations built); anything else goes through ``JSONReader`` and the
/// contract's validator, which give every violation.
struct RequestValidator: Sendable {
    private let deviceToken: Contract?
    private let registration: Contract?
    private let notificationID: Contract?
    private let opened: Contract?
    private let deviceTokenAcceptor: PlainInputAcceptor?
    private let registrationAcceptor: PlainInputAcceptor?
    private let notificationIDAcceptor: PlainInputAcceptor?
    private let openedAcceptor: PlainInputAcceptor?
    /// Where each of ``RegistrationFields/names`` sits in the registration acceptor's values.
    private let registrationIndices: [Int?]
    private let openedIndices: [Int?]

    init(contracts: ContractSet) {
        deviceToken = contracts.contract(named: "device-token")
        registration = contracts.contract(named: "device-registration")
        notificationID = contracts.contract(named: "notification-id")
        opened = contracts.contract(named: "notification-opened")
        deviceTokenAcceptor = deviceToken.map(PlainInputAcceptor.init)
        registrationAcceptor = registration.map(PlainInputAcceptor.init)
        notificationIDAcceptor = notificationID.map(PlainInputAcceptor.init)
        openedAcceptor = opened.map(PlainInputAcceptor.init)
        registrationIndices = RegistrationFields.names.map { [registrationAcceptor] in registrationAcceptor?.memberIndex(named: $0) }
        openedIndices = OpenedFields.names.map { [openedAcceptor] in openedAcceptor?.memberIndex(named: $0) }
    }

    /// The violations of `token` as a `{token}` path parameter.
    func validate(token: String) -> [Violation] {
        if deviceTokenAcceptor?.admits(pathParameter: token) == true { return [] }
        return pathViolations(deviceToken?.validate(pathParameter: token) ?? [], name: "token")
    }

    /// The violations of `id` as a `{id}` path parameter.
    func validate(notificationID id: String) -> [Violation] {
        if notificationIDAcceptor?.admits(pathParameter: id) == true { return [] }
        return pathViolations(notificationID?.validate(pathParameter: id) ?? [], name: "id")
    }

    /// Parses a registration body and checks it; the fields are nil when it is not JSON.
    /// `fastPath: false` is for the tests that hold the two paths together.
    func validate(registrationBody body: [UInt8], fastPath: Bool = true) -> (RegistrationFields?, [Violation]) {
        validate(body: body, against: registration, fastPath ? registrationAcceptor : nil, registrationIndices)
    }

    /// Parses an "opened" body and checks it.
    func validate(openedBody body: [UInt8], fastPath: Bool = true) -> (OpenedFields?, [Violation]) {
        validate(body: body, against: opened, fastPath ? openedAcceptor : nil, openedIndices)
    }

    /// `indices` places `Fields.names` among the acceptor's values.
    private func validate<Fields: RequestFields>(body: [UInt8], against contract: Contract?, _ acceptor: PlainInputAcceptor?,
                                                 _ indices: [Int?]) -> (Fields?, [Violation]) {
        if let values = acceptor?.values(of: body) {
            return (Fields { field in indices[field].flatMap { values[$0] } }, [])
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
    private func pathViolations(_ violations: [Violation], name: String) -> [Violation] {
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
    /// Reads `value(i)`, the string member `names[i]` (nil when absent or not a string).
    init(_ value: (Int) -> String?)
}

/// What the handler keeps from a registration body.
struct RegistrationFields: RequestFields {
    static let names = ["platform", "environment", "appVersion", "publicKey"]
    var platform: String?
    var environment: String?
    var appVersion: String?
    var publicKey: String?

    init(_ value: (Int) -> String?) {
        platform = value(0)
        environment = value(1)
        appVersion = value(2)
        publicKey = value(3)
    }
}

/// What the handler keeps from an "opened" body.
struct OpenedFields: RequestFields {
    static let names = ["action"]
    var action: String?

    init(_ value: (Int) -> String?) {
        action = value(0)
    }
}

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
