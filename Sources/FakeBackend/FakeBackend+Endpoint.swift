extension FakeBackend {
    /// The backend's endpoints, named the same wherever a fault, a wait or the journal names one.
    ///
    /// What each one is (method, path, contracts, summary) is declared once, in
    /// `FakeBackend.Endpoint.table`: routing, validation and the OpenAPI document are
    /// derived from it, and a test holds the docs' endpoint table to it.
    public enum Endpoint: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
        /// Registers (or moves) a device token.
        case putDevice
        /// Removes a device token at sign-out.
        case deleteDevice
        /// Reports that a notification was opened.
        case opened
        /// Registers (or changes) the push token of an order's Live Activity.
        case putLiveActivity
        /// Forgets an order's Live Activity token when the activity ends.
        case deleteLiveActivity
        /// Registers the app's push-to-start token for a device of the account.
        case putPushToStart

        /// The HTTP method the endpoint answers.
        public var method: String { declaration.method }

        /// The path template, e.g. `/v1/devices/{token}`.
        public var pathTemplate: String { declaration.pathTemplate }

        public var description: String { rawValue }

        /// True when the endpoint reads a JSON body (so a body of another type is a 415).
        var readsJSONBody: Bool { declaration.bodyContract != nil }

        /// The endpoint's row in ``table``.
        package var declaration: EndpointDeclaration { Self.table[index] }

        /// Where the endpoint sits in ``table`` and in `allCases` (a switch: the handler
        /// counts every request by it). A test holds the three orders together.
        var index: Int {
            switch self {
            case .putDevice: return 0
            case .deleteDevice: return 1
            case .opened: return 2
            case .putLiveActivity: return 3
            case .deleteLiveActivity: return 4
            case .putPushToStart: return 5
            }
        }

        /// Every endpoint, in `allCases` order: the one place an endpoint's method, path,
        /// contracts and summary are written.
        package static let table: [EndpointDeclaration] = [
            EndpointDeclaration(
                .putDevice, "PUT", "/v1/devices/{token}",
                parameterContract: "device-token", bodyContract: "device-registration",
                summary: "Register this phone's device token for the signed-in account (idempotent)."),
            EndpointDeclaration(
                .deleteDevice, "DELETE", "/v1/devices/{token}",
                parameterContract: "device-token", bodyContract: nil,
                summary: "Remove a device token at sign-out."),
            EndpointDeclaration(
                .opened, "POST", "/v1/notifications/{id}/opened",
                parameterContract: "notification-id", bodyContract: "notification-opened",
                summary: "Report that a notification was opened (once per notification id)."),
            EndpointDeclaration(
                .putLiveActivity, "PUT", "/v1/orders/{orderId}/live-activity",
                parameterContract: "order-id", bodyContract: "live-activity-registration",
                summary: "Register the push token of the order's Live Activity when it starts or its token changes (idempotent)."),
            EndpointDeclaration(
                .deleteLiveActivity, "DELETE", "/v1/orders/{orderId}/live-activity",
                parameterContract: "order-id", bodyContract: nil,
                summary: "Forget the order's Live Activity token when the activity ends (404 when none is registered)."),
            EndpointDeclaration(
                .putPushToStart, "PUT", "/v1/devices/{token}/push-to-start",
                parameterContract: "device-token", bodyContract: "push-to-start-registration",
                summary: "Register the app's push-to-start token for a device registered to the account (idempotent)."),
        ]
    }
}

/// One row of `FakeBackend.Endpoint.table`: what a backend endpoint answers and checks.
package struct EndpointDeclaration: Sendable {
    /// The endpoint this row declares.
    package let endpoint: FakeBackend.Endpoint
    /// The HTTP method, e.g. `PUT`.
    package let method: String
    /// The path with its one parameter in braces, e.g. `/v1/devices/{token}`.
    package let pathTemplate: String
    /// The contract the path parameter is checked against.
    package let parameterContract: String
    /// The contract the JSON body is checked against; nil when the endpoint reads no body.
    package let bodyContract: String?
    /// One line for the OpenAPI document.
    package let summary: String

    init(_ endpoint: FakeBackend.Endpoint, _ method: String, _ pathTemplate: String,
         parameterContract: String, bodyContract: String?, summary: String) {
        self.endpoint = endpoint
        self.method = method
        self.pathTemplate = pathTemplate
        self.parameterContract = parameterContract
        self.bodyContract = bodyContract
        self.summary = summary
    }

    /// The template cut at its parameter: the bytes before `{`, the name between the braces,
    /// the bytes after `}`. A template without braces is all prefix, with no parameter.
    package var pathParts: (prefix: String, parameter: String?, suffix: String) {
        guard let open = pathTemplate.firstIndex(of: "{"),
              let close = pathTemplate[open...].firstIndex(of: "}") else { return (pathTemplate, nil, "") }
        return (String(pathTemplate[..<open]), String(pathTemplate[pathTemplate.index(after: open)..<close]),
                String(pathTemplate[pathTemplate.index(after: close)...]))
    }
}
