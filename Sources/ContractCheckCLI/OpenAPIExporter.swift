import Contracts
import FakeBackend

/// The OpenAPI 3.1 document of the backend endpoints, built from the same contract
/// declarations as the JSON Schemas: path parameters from the path contracts, request bodies
/// from the body contracts, and error responses in the problem+json shape FakeBackend sends
/// (``BackendProblemDetails``).
///
/// ```swift
/// let text = JSONTreeWriter.prettyText(OpenAPIExporter.document(for: .v1))
/// ```
package enum OpenAPIExporter {
    /// The contract that describes each endpoint's request body, if it has one.
    static func bodyContract(for endpoint: FakeBackend.Endpoint) -> String? {
        switch endpoint {
        case .putDevice: return "device-registration"
        case .deleteDevice: return nil
        case .opened: return "notification-opened"
        }
    }

    static func summary(of endpoint: FakeBackend.Endpoint) -> String {
        switch endpoint {
        case .putDevice: return "Register this phone's device token for the signed-in account (idempotent)."
        case .deleteDevice: return "Remove a device token at sign-out."
        case .opened: return "Report that a notification was opened (once per notification id)."
        }
    }

    /// The error responses every operation declares, with their component names.
    static let errorResponses: [(status: String, name: String, description: String)] = [
        ("400", "ContractViolation", "The request breaks a contract; `violations` lists each break with its rule id."),
        ("401", "Unauthorized", "No bearer token, or one that names no session."),
        ("404", "NotFound", "No such endpoint, or a device registered to another account."),
        ("405", "MethodNotAllowed", "The path exists but not with this method; `Allow` lists the methods."),
        ("413", "ContentTooLarge", "The body is over the backend's limit (1 MiB by default) and was not read."),
        ("415", "UnsupportedMediaType", "The body is not sent as application/json (a charset parameter is fine; no Content-Type is read as JSON)."),
        ("429", "TooManyRequests", "Rate limited; retry after `Retry-After` seconds."),
    ]

    /// The whole document.
    package static func document(for contracts: ContractSet) -> JSONTree {
        var schemas: [String: JSONTree] = [
            "Problem": problemSchema,
            "ProblemViolation": violationSchema,
        ]
        var paths: [String: [String: JSONTree]] = [:]
        for endpoint in FakeBackend.Endpoint.allCases {
            var operation: [String: JSONTree] = [
                "operationId": .string(endpoint.rawValue),
                "summary": .string(summary(of: endpoint)),
                "security": .array([.object(["bearer": .array([])])]),
            ]
            if let bodyName = bodyContract(for: endpoint), let contract = contracts.contract(named: bodyName) {
                schemas[bodyName] = componentSchema(contract)
                operation["requestBody"] = .object([
                    "required": .bool(true),
                    "description": .string(contract.summary),
                    "content": .object(["application/json": .object(["schema": reference(bodyName)])]),
                ])
            }
            var responses: [String: JSONTree] = ["204": .object(["description": .string("Done; no body.")])]
            // 415 is about a body's media type: an endpoint without a body never answers it.
            for error in errorResponses where error.status != "415" || operation["requestBody"] != nil {
                responses[error.status] = .object(["$ref": .string("#/components/responses/\(error.name)")])
            }
            operation["responses"] = .object(responses)

            var pathItem = paths[endpoint.pathTemplate] ?? [:]
            if pathItem["parameters"] == nil {
                pathItem["parameters"] = .array(pathParameters(endpoint.pathTemplate, contracts: contracts, schemas: &schemas))
            }
            pathItem[endpoint.method.lowercased()] = .object(operation)
            paths[endpoint.pathTemplate] = pathItem
        }
        var responses: [String: JSONTree] = [:]
        for error in errorResponses {
            var response: [String: JSONTree] = [
                "description": .string(error.description),
                "content": .object([BackendProblemDetails.mediaType: .object(["schema": reference("Problem")])]),
            ]
            switch error.status {
            case "401": response["headers"] = .object(["WWW-Authenticate": header("The bearer challenge, e.g. Bearer error=\"invalid_token\".", required: true)])
            case "405": response["headers"] = .object(["Allow": header("The methods the path answers, e.g. PUT, DELETE.", required: true)])
            case "415": response["headers"] = .object(["Accept": header("The media type to send: application/json.", required: true)])
            case "429": response["headers"] = .object(["Retry-After": header("Seconds to wait before retrying.", required: false)])
            default: break
            }
            responses[error.name] = .object(response)
        }
        return .object([
            "openapi": .string("3.1.0"),
            "jsonSchemaDialect": .string(JSONSchemaExporter.dialect),
            "info": .object([
                "title": .string("PushContracts backend"),
                "version": .string("1.0.0"),
                "description": .string("The seed app's backend endpoints (seed 000), generated by contract-check openapi from the v1 contracts. Request bodies and path parameters are the contracts' JSON Schemas; errors are RFC 9457 problem documents."),
            ]),
            "security": .array([.object(["bearer": .array([])])]),
            "paths": .object(paths.mapValues { .object($0) }),
            "components": .object([
                "schemas": .object(schemas),
                "responses": .object(responses),
                "securitySchemes": .object([
                    "bearer": .object([
                        "type": .string("http"),
                        "scheme": .string("bearer"),
                        "description": .string("The app's session token; it names the account (never the body)."),
                    ]),
                ]),
            ]),
        ])
    }

    /// The `{name}` parameters of `template`, each from the contract whose `pathParameter` is the name.
    static func pathParameters(_ template: String, contracts: ContractSet, schemas: inout [String: JSONTree]) -> [JSONTree] {
        var result: [JSONTree] = []
        for segment in template.split(separator: "/") where segment.hasPrefix("{") && segment.hasSuffix("}") {
            let name = String(segment.dropFirst().dropLast())
            guard let contract = contracts.contracts.first(where: { $0.pathParameter == name }) else { continue }
            schemas[contract.name] = componentSchema(contract)
            result.append(.object([
                "name": .string(name),
                "in": .string("path"),
                "required": .bool(true),
                "description": .string(contract.summary),
                "schema": reference(contract.name),
            ]))
        }
        return result
    }

    /// A contract's emitted schema without `$schema` and `$id` (a component is not a resource).
    static func componentSchema(_ contract: Contract) -> JSONTree {
        guard case .object(var fields) = JSONSchemaExporter.document(for: contract) else { return .object([:]) }
        fields["$schema"] = nil
        fields["$id"] = nil
        return .object(fields)
    }

    static func reference(_ name: String) -> JSONTree { .object(["$ref": .string("#/components/schemas/\(name)")]) }

    static func header(_ description: String, required: Bool) -> JSONTree {
        .object(["description": .string(description), "required": .bool(required), "schema": .object(["type": .string("string")])])
    }

    /// ``BackendProblemDetails`` as FakeBackend encodes it (absent optionals are left out).
    static let problemSchema: JSONTree = .object([
        "type": .string("object"),
        "description": .string("An RFC 9457 problem document."),
        "required": .strings(["type", "title", "status", "detail"]),
        "additionalProperties": .bool(false),
        "properties": .object([
            "type": .object(["type": .string("string"), "description": .string("A URI naming the kind of problem, e.g. urn:push-contracts:problem:contract-violation.")]),
            "title": .object(["type": .string("string")]),
            "status": .object(["type": .string("integer"), "minimum": .integer(100), "maximum": .integer(599)]),
            "detail": .object(["type": .string("string")]),
            "violations": .object(["type": .string("array"), "items": reference("ProblemViolation"),
                                   "description": .string("On 400: every violation of the request's contracts.")]),
        ]),
    ])

    /// ``BackendProblemDetails/Item``.
    static let violationSchema: JSONTree = .object([
        "type": .string("object"),
        "required": .strings(["pointer", "rule", "message"]),
        "additionalProperties": .bool(false),
        "properties": .object([
            "pointer": .object(["type": .string("string"), "description": .string("JSON Pointer into the body, or /path/{name} for a path parameter.")]),
            "rule": .object(["type": .string("string"), "description": .string("The stable rule id.")]),
            "message": .object(["type": .string("string")]),
            "line": .object(["type": .string("integer"), "minimum": .integer(1)]),
            "column": .object(["type": .string("integer"), "minimum": .integer(1)]),
        ]),
    ])
}
