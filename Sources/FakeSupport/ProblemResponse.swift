import Foundation
import LoopbackHTTP

/// The one builder of `application/problem+json` answers (RFC 9457): FakeBackend's API
/// errors (`BackendProblemDetails`) and every admin route's errors (``AdminAPI/problem(status:detail:headers:)``)
/// are encoded here, with sorted keys so bodies are stable for tests and diffs.
package enum ProblemResponse {
    /// The media type of a problem document.
    package static let mediaType = "application/problem+json"

    /// `document` as a response with `status`, the problem content type and `headers` after it.
    package static func make<Document: Encodable>(_ document: Document, status: Int,
                                                  headers: [(String, String)] = []) -> HTTPResponse {
        var fields = HTTPFields()
        fields.append(name: "Content-Type", value: mediaType)
        for (name, value) in headers { fields.append(name: name, value: value) }
        return HTTPResponse(status: HTTPStatus(code: status), headers: fields, body: encoded(document))
    }

    /// The longest part of what a client sent that a problem detail quotes.
    package static let maxQuotedCharacters = 64

    /// `clientText` (a path, a method) as a detail may quote it: at most
    /// ``maxQuotedCharacters`` characters, then `…` when cut, so an answer never grows with
    /// what the client sent (unquoted, a 15,000-character path would make every 404 15 KB).
    package static func quoted(_ clientText: some StringProtocol) -> String {
        guard clientText.utf8.count > maxQuotedCharacters, clientText.count > maxQuotedCharacters else { return String(clientText) }
        return clientText.prefix(maxQuotedCharacters) + "…"
    }

    /// The document's sorted-key JSON; a fixed 500 document if it cannot be encoded.
    package static func encoded<Document: Encodable>(_ document: Document) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? Array(encoder.encode(document))) ?? Array(#"{"status":500,"title":"Unencodable problem"}"#.utf8)
    }
}

/// The problem document of an admin answer: type, title (the status's reason phrase),
/// status, what to send instead and, for a bad body, each mistake as a ``ViolationRecord``.
struct AdminProblem: Encodable {
    /// Every admin error of both fakes has this type (the same `urn:push-contracts:problem:`
    /// scheme as FakeBackend's own problems); the detail says which.
    static let type = "urn:push-contracts:problem:admin"

    var type = AdminProblem.type
    var title: String
    var status: Int
    var detail: String
    var violations: [ViolationRecord]?
}
