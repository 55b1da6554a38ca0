import Foundation

// What every admin route shares: JSON answers, problem answers, one strict body decoder and
// query parsing. A fake's route only says what its body is and what it does with it.
extension AdminAPI {
    /// A JSON response (sorted keys, ISO 8601 dates).
    package static func json<Value: Encodable>(_ value: Value, status: HTTPStatus = .ok) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        do {
            let body = try encoder.encode(value)
            return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body))
        } catch {
            return problem(status: 500, detail: "cannot encode the answer: \(error)")
        }
    }

    /// An `application/problem+json` response titled with the status's reason phrase.
    package static func problem(status: Int, detail: String, headers: [(String, String)] = []) -> HTTPResponse {
        let document = AdminProblem(title: HTTPStatus(code: status).reasonPhrase, status: status, detail: detail)
        return ProblemResponse.make(document, status: status, headers: headers)
    }

    /// Decodes the request's JSON body as `Body` and answers with `run`, or answers 400
    /// naming what is wrong: not JSON, a missing key, a value of the wrong type, or a key
    /// `Body` does not know (so a misspelt optional key is not silently ignored).
    ///
    /// A key is known when decoding `Body` and encoding it again writes it; a key whose value
    /// is `null` counts as absent.
    package static func withBody<Body: Codable>(_ type: Body.Type, of request: HTTPRequest,
                                                _ run: (Body) -> HTTPResponse) -> HTTPResponse {
        switch decode(type, from: request) {
        case .success(let body): return run(body)
        case .failure(let error): return error.response
        }
    }

    private static func decode<Body: Codable>(_ type: Body.Type, from request: HTTPRequest) -> Result<Body, AdminRequestError> {
        let body: Body
        let sent: Any
        do {
            sent = try JSONSerialization.jsonObject(with: Data(request.body), options: [.fragmentsAllowed])
            body = try JSONDecoder().decode(type, from: Data(request.body))
        } catch let error as DecodingError {
            return .failure(AdminRequestError(describe(error)))
        } catch {
            return .failure(AdminRequestError("the body is not valid JSON; send a JSON object"))
        }
        let known = (try? JSONEncoder().encode(body)).flatMap { try? JSONSerialization.jsonObject(with: $0) } ?? [:]
        if let unknown = unknownKeys(in: sent, knownFrom: known, at: "").first {
            return .failure(AdminRequestError("\(unknown) is not a key this route reads; check its spelling or remove it"))
        }
        return .success(body)
    }

    /// The pointers (`/fault/kind`) of the object keys in `sent` that `known` lacks.
    private static func unknownKeys(in sent: Any, knownFrom known: Any, at pointer: String) -> [String] {
        if let sent = sent as? [String: Any] {
            let known = known as? [String: Any] ?? [:]
            return sent.keys.sorted().flatMap { key -> [String] in
                guard let value = sent[key], !(value is NSNull) else { return [] }
                guard let knownValue = known[key] else { return ["\(pointer)/\(key)"] }
                return unknownKeys(in: value, knownFrom: knownValue, at: "\(pointer)/\(key)")
            }
        }
        if let sent = sent as? [Any], let known = known as? [Any] {
            return zip(sent, known).enumerated().flatMap { index, pair in
                unknownKeys(in: pair.0, knownFrom: pair.1, at: "\(pointer)/\(index)")
            }
        }
        return []
    }

    /// The query parameters of a request target (`?id=91&x=1`), percent-decoded, `+` as a space.
    package static func query(_ request: HTTPRequest) -> [String: String] {
        guard let mark = request.path.firstIndex(of: "?") else { return [:] }
        var items: [String: String] = [:]
        for pair in request.path[request.path.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first?.removingPercentEncoding else { continue }
            items[name] = parts.count > 1 ? (parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
        }
        return items
    }

    private static func describe(_ error: DecodingError) -> String {
        func at(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "the body" : "/" + path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(at(context.codingPath + [key])) is required"
        case .typeMismatch(let type, let context):
            return "\(at(context.codingPath)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(at(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "the body is not valid JSON; send a JSON object" }
            return "\(at(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "the body does not match: \(error)"
        }
    }
}
