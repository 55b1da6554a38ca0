import LoopbackHTTP
import Foundation
import Contracts
import FakeSupport

/// An RFC 9457 problem document (`application/problem+json`), the body of every error the
/// backend answers, with the contract violations that caused a 400.
public struct BackendProblemDetails: Sendable, Hashable, Codable {
    /// One violation as a client reads it: where, which rule, what to do.
    public struct Item: Sendable, Hashable, Codable {
        /// JSON Pointer into the body, or `/path/{name}` for a path parameter.
        public var pointer: String
        /// The stable rule id, e.g. `device-registration.unknown-key`.
        public var rule: String
        /// What is wrong, and what to send instead.
        public var message: String
        /// Line and column in the body, when the violation has a source position.
        public var line: Int?
        /// The column of `line`, when known.
        public var column: Int?

        /// One listed violation.
        public init(pointer: String, rule: String, message: String, line: Int? = nil, column: Int? = nil) {
            self.pointer = pointer
            self.rule = rule
            self.message = message
            self.line = line
            self.column = column
        }

        init(_ violation: Violation) {
            self.init(pointer: violation.pointer, rule: violation.ruleID, message: violation.message,
                      line: violation.position?.line, column: violation.position?.column)
        }
    }

    /// A URI naming the kind of problem.
    public var type: String
    /// A short summary of the problem kind, e.g. `Contract violation`.
    public var title: String
    /// The HTTP status code.
    public var status: Int
    /// This occurrence, in words.
    public var detail: String
    /// Present on 400s: each violation of the request's contracts.
    public var violations: [Item]?

    /// A problem (RFC 9457) to answer with.
    public init(type: String, title: String, status: Int, detail: String, violations: [Item]? = nil) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.violations = violations
    }

    /// The media type of a problem document.
    public static let mediaType = ProblemResponse.mediaType

    /// The problem as a response, with the right content type and any extra headers.
    func response(_ extraHeaders: [(String, String)] = []) -> HTTPResponse {
        ProblemResponse.make(self, status: status, headers: extraHeaders)
    }

    static func typeURI(_ slug: String) -> String { "urn:push-contracts:problem:\(slug)" }
}
