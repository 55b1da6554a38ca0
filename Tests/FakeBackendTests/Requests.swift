import Contracts
import LoopbackHTTP
import Foundation
import FakeBackend

/// Requests and bodies the tests send, valid unless their name says otherwise.
enum Requests {
    /// Base64 of a 65-byte uncompressed P-256 point shape (first byte 0x04).
    static let publicKey = Data([0x04] + (1...64).map { UInt8($0) }).base64EncodedString()

    static func registration(environment: String = "production", appVersion: String = "4.2.0") -> [UInt8] {
        Array(#"{"platform":"ios","environment":"\#(environment)","appVersion":"\#(appVersion)","publicKey":"\#(publicKey)"}"#.utf8)
    }

    static func put(_ token: String, bearer: String? = "s1", body: [UInt8] = registration()) -> HTTPRequest {
        HTTPRequest(method: "PUT", path: "/v1/devices/\(token)", headers: headers(bearer, json: true), body: body)
    }

    static func delete(_ token: String, bearer: String? = "s1") -> HTTPRequest {
        HTTPRequest(method: "DELETE", path: "/v1/devices/\(token)", headers: headers(bearer, json: false))
    }

    static func opened(_ id: String, action: String = "open", bearer: String? = "s1") -> HTTPRequest {
        HTTPRequest(method: "POST", path: "/v1/notifications/\(id)/opened", headers: headers(bearer, json: true),
                    body: Array(#"{"action":"\#(action)"}"#.utf8))
    }

    static func headers(_ bearer: String?, json: Bool) -> HTTPFields {
        var fields = HTTPFields()
        if let bearer { fields.append(name: "Authorization", value: "Bearer \(bearer)") }
        if json { fields.append(name: "Content-Type", value: "application/json") }
        return fields
    }

    /// Two accounts: s1 → a1, s2 → a2.
    static let sessions = ["s1": "a1", "s2": "a2"]

    static let token = "00fa11ce" + String(repeating: "ab", count: 28)

    /// The response body as a JSON object.
    static func json(_ response: HTTPResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
    }

    /// The `violations` array of a problem body.
    static func violations(_ response: HTTPResponse) -> [[String: Any]] {
        json(response)["violations"] as? [[String: Any]] ?? []
    }
}
