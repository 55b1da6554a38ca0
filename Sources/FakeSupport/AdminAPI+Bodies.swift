import Contracts
import Foundation
import LoopbackHTTP

/// A JSON body an admin route reads: `Decodable`, plus the members it knows, so the shared
/// decoder can name every unknown or misspelt member (with a did-you-mean) instead of
/// ignoring it.
package protocol AdminRequestBody: Decodable {
    /// Every member the route reads, as JSON Pointers from the body's root: `/count`,
    /// `/fault/kind`. A member of a nested object is listed with its full pointer; its parent
    /// (`/fault`) is known because a child is.
    static var members: [String] { get }
}

extension AdminRequestBody {
    /// The JSON Pointers of `keys`' cases under `parent` (`""`: the body's root): `/count`,
    /// or `/fault/kind` under `/fault`.
    package static func pointers<Keys: CodingKey & CaseIterable>(to keys: Keys.Type, under parent: String = "") -> [String] {
        keys.allCases.map { parent + "/" + $0.stringValue }
    }
}

/// An admin body whose members all sit at its root and are exactly its `CodingKeys`, so
/// ``AdminRequestBody/members`` comes from them.
package protocol FlatAdminRequestBody: AdminRequestBody {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

extension FlatAdminRequestBody {
    /// The `CodingKeys` as pointers from the root: `/token`, `/topic`.
    package static var members: [String] { pointers(to: CodingKeys.self) }
}

/// `POST /offline` and `POST /apns/offline`: `{"offline": true}` refuses connections on the
/// fake's port, `false` accepts them again.
package struct AdminOfflineBody: Codable, FlatAdminRequestBody {
    package enum CodingKeys: String, CodingKey, CaseIterable { case offline }
    /// Whether the fake refuses connections.
    package var offline: Bool
}

// What every admin route shares: JSON answers, problem answers, one strict body decoder and
// query parsing. A fake's route only says what its body is and what it does with it.
extension AdminAPI {
    /// A JSON response: pretty-printed, sorted keys, `/` unescaped, dates as millisecond
    /// ISO 8601 in UTC (`2026-12-01T14:53:08.123Z`).
    package static func json<Value: Encodable>(_ value: Value, status: HTTPStatus = .ok) -> HTTPResponse {
        do {
            let body = try AdminJSON.encoder.encode(value)
            return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(body) + [0x0A])
        } catch {
            return problem(status: 500, detail: "cannot encode the answer: \(error)")
        }
    }

    /// An `application/problem+json` response titled with the status's reason phrase, listing
    /// `violations` (the admin body's mistakes) when there are any.
    ///
    /// Every 400 lists at least one violation (the docs promise a `violations` list on each):
    /// one given none gets a violation of the whole request (`""`, `admin.request`) saying
    /// `detail`.
    package static func problem(status: Int, detail: String, headers: [(String, String)] = [],
                                violations: [ViolationRecord] = []) -> HTTPResponse {
        var listed = violations
        if status == 400, listed.isEmpty { listed = [ViolationRecord(pointer: "", rule: "admin.request", message: detail)] }
        let document = AdminProblem(title: HTTPStatus(code: status).reasonPhrase, status: status, detail: detail,
                                    violations: listed.isEmpty ? nil : listed)
        return ProblemResponse.make(document, status: status, headers: headers)
    }

    /// 400 for one mistake at `pointer` (`/pem`, `/query/token`): `detail` is
    /// `pointer: message`, and `violations` lists it with `rule`.
    package static func badRequest(_ pointer: String, rule: String = "admin.value", _ message: String) -> HTTPResponse {
        problem(status: 400, detail: pointer.isEmpty ? message : "\(pointer): \(message)",
                violations: [ViolationRecord(pointer: pointer, rule: rule, message: message)])
    }

    /// Decodes the request's JSON body as `Body` and answers with `run`, or answers 400
    /// naming what is wrong: not JSON (with line and column), a member `Body` does not know
    /// (each one, with a did-you-mean), a missing member, or a value of the wrong JSON type.
    ///
    /// A member whose value is `null` counts as absent.
    package static func withBody<Body: AdminRequestBody>(_ type: Body.Type, of request: HTTPRequest,
                                                         _ run: (Body) -> HTTPResponse) -> HTTPResponse {
        switch AdminBodyDecoder.decode(type, from: request.body) {
        case .success(let body): return run(body)
        case .failure(let error): return error.response
        }
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

    /// The query parameter `name` as a whole number of at least `minimum`: nil when absent,
    /// a 400 naming the parameter when it is not one (`?since=abc`, `?since=-1`). Its
    /// violation points at `/query/NAME`, as FakeBackend's point at `/path/token`.
    package static func integerQuery(_ request: HTTPRequest, _ name: String, minimum: Int = 0) -> Result<Int?, AdminRequestError> {
        guard let text = query(request)[name] else { return .success(nil) }
        guard let value = Int(text), value >= minimum else {
            return .failure(AdminRequestError("?\(name)=\(text): expected a whole number, \(minimum) or more",
                                              violations: [ViolationRecord(pointer: "/query/\(name)", rule: "admin.query",
                                                                           message: "?\(name) must be a whole number, \(minimum) or more; found \"\(text)\"")]))
        }
        return .success(value)
    }
}

/// The admin API's JSON writer, shared by answers and problems.
package enum AdminJSON {
    /// Pretty, sorted, `/` unescaped, dates as ``timestamp(_:)``.
    package static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(timestamp(date))
        }
        return encoder
    }

    /// `2026-12-01T14:53:08.123Z`: the one time format of the journals and admin answers.
    package static func timestamp(_ date: Date) -> String {
        let ms = (date.timeIntervalSince1970 * 1000).rounded(.down)
        return timestamp(milliseconds: Int64(exactly: ms) ?? (ms > 0 ? .max : .min))
    }

    /// ``timestamp(_:)`` for milliseconds since 1970, clamped to the years 0000–9999 that
    /// ISO 8601's four digits hold (so an extreme `at` cannot overflow).
    package static func timestamp(milliseconds unclamped: Int64) -> String {
        let milliseconds = min(max(unclamped, -62_167_219_200_000), 253_402_300_799_999)
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let ms = Int(milliseconds - seconds * 1000)
        // Civil date from days since 1970 (Howard Hinnant's algorithm), no locale or calendar.
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ n: Int64, _ width: Int) -> String {
            let text = String(n)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(Int64(secondOfDay / 3600), 2)):"
            + "\(pad(Int64(secondOfDay / 60 % 60), 2)):\(pad(Int64(secondOfDay % 60), 2)).\(pad(Int64(ms), 3))Z"
    }
}
