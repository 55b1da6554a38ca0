import Contracts

/// Checks a request's path parameter and body against the backend's contracts.
struct RequestValidator: Sendable {
    private let deviceToken: Contract?
    private let registration: Contract?
    private let notificationID: Contract?
    private let opened: Contract?

    init(contracts: ContractSet) {
        deviceToken = contracts.contract(named: "device-token")
        registration = contracts.contract(named: "device-registration")
        notificationID = contracts.contract(named: "notification-id")
        opened = contracts.contract(named: "notification-opened")
    }

    /// The violations of `token` as a `{token}` path parameter.
    func validate(token: String) -> [Violation] {
        pathViolations(deviceToken?.validate(pathParameter: token) ?? [], name: "token")
    }

    /// The violations of `id` as a `{id}` path parameter.
    func validate(notificationID id: String) -> [Violation] {
        pathViolations(notificationID?.validate(pathParameter: id) ?? [], name: "id")
    }

    /// Parses a registration body and checks it; the document is nil when it is not JSON.
    func validate(registrationBody body: [UInt8]) -> (JSONNode?, [Violation]) {
        validate(body: body, against: registration)
    }

    /// Parses an "opened" body and checks it.
    func validate(openedBody body: [UInt8]) -> (JSONNode?, [Violation]) {
        validate(body: body, against: opened)
    }

    private func validate(body: [UInt8], against contract: Contract?) -> (JSONNode?, [Violation]) {
        let document: JSONNode
        do {
            document = try JSONReader.parse(body)
        } catch {
            let message = body.isEmpty
                ? "the body is empty; send a JSON object"
                : "the body is not valid JSON: \(error.message)"
            return (nil, [Violation(pointer: "", ruleID: "json.syntax", position: error.position, message: message)])
        }
        return (document, contract?.validate(document) ?? [])
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
