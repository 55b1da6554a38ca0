import Contracts
import LoopbackHTTP

extension AdminAPI {
    /// The largest document `POST /contracts/check` reads: far above APNs' 5120-byte limit,
    /// so an oversized payload is still checked (and told it is too large), and bounded.
    package static let contractCheckMaximumBytes = 65_536

    /// `POST /contracts/check?contract=NAME` (`payload` when absent): checks the body against
    /// the v1 contract `NAME` as `contract-check validate` does, and answers 200 with
    /// `{"contract": NAME, "violations": [{pointer, rule, severity, message, line, column}]}`
    /// (empty when it conforms; one `json.syntax` violation at its line and column when the
    /// body is not JSON). The dashboard's send-a-push form calls it as the payload is typed.
    ///
    /// An unknown contract is a 400 naming the known ones; a body over
    /// ``contractCheckMaximumBytes`` is a 413.
    package static func checkContract(_ request: HTTPRequest) -> HTTPResponse {
        let name = query(request)["contract"] ?? "payload"
        guard let contract = ContractSet.v1.contract(named: name) else {
            let names = ContractSet.v1.contracts.map(\.name)
            let hint = Suggestion.closest(to: name, among: names, maxEdits: 3).map { "did you mean \"\($0)\"? " } ?? ""
            return badRequest("/query/contract", rule: "admin.query",
                              "no contract named \"\(name)\"; \(hint)use one of \(names.joined(separator: ", "))")
        }
        guard request.body.count <= contractCheckMaximumBytes, !request.bodyLimitExceeded else {
            return problem(status: 413, detail: "the document is over \(contractCheckMaximumBytes) bytes; APNs takes at most 5120")
        }
        let violations = contract.validate(bytes: request.body).map(ViolationRecord.init(journaling:))
        return json(ContractCheckAnswer(contract: name, violations: violations))
    }
}

/// The answer of `POST /contracts/check`.
struct ContractCheckAnswer: Encodable {
    var contract: String
    var violations: [ViolationRecord]
}
