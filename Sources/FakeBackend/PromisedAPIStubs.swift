// TEMPORARY: stand-ins for APIs promised by other branches (json, contracts, http1).
// Deleted when those branches are merged. Internal, so nothing outside sees them.
import Foundation
import Contracts

struct JSONSyntaxError: Error {
    var position: SourcePosition
    var message: String
}

enum JSONReader {
    static func parse(_ bytes: [UInt8], maxDepth: Int = 128) throws(JSONSyntaxError) -> JSONNode {
        guard let any = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) else {
            throw JSONSyntaxError(position: SourcePosition(line: 1, column: 1, offset: 0), message: "not JSON")
        }
        return JSONNode(convert(any))
    }

    private static func convert(_ any: Any) -> JSONValue {
        switch any {
        case let s as String: return .string(s)
        case let d as [String: Any]:
            return .object(d.keys.sorted().map { JSONMember(key: $0, keyPosition: SourcePosition(line: 1, column: 1, offset: 0), value: JSONNode(convert(d[$0] ?? NSNull()))) })
        case let a as [Any]: return .array(a.map { JSONNode(convert($0)) })
        case let n as NSNumber: return .number(JSONNumber(n.int64Value))
        default: return .null
        }
    }
}

public struct Contract: Sendable {
    var name: String
    func validate(_ document: JSONNode) -> [Violation] {
        guard case .object(let members) = document.value else {
            return [Violation(pointer: "", ruleID: "\(name).type", message: "expected an object")]
        }
        let allowed: Set<String> = name == "device-registration"
            ? ["platform", "environment", "appVersion", "publicKey"] : ["action"]
        var out: [Violation] = []
        for m in members where !allowed.contains(m.key) {
            out.append(Violation(pointer: "/\(m.key)", ruleID: "\(name).unknown-key", message: "unknown key"))
        }
        for key in allowed where !members.contains(where: { $0.key == key }) {
            out.append(Violation(pointer: "/\(key)", ruleID: "\(name).required", message: "missing"))
        }
        return out
    }
    func validate(pathParameter: String) -> [Violation] {
        let ok: Bool
        if name == "device-token" {
            ok = !pathParameter.isEmpty && pathParameter.count % 2 == 0 && pathParameter.count <= 200
                && pathParameter.allSatisfy(\.isHexDigit)
        } else {
            ok = !pathParameter.isEmpty && pathParameter.count <= 64
                && pathParameter.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        }
        return ok ? [] : [Violation(pointer: "", ruleID: "\(name).pattern", message: "bad \(name)")]
    }
}

public struct ContractSet: Sendable {
    public static let v1 = ContractSet()
    func contract(named name: String) -> Contract? { Contract(name: name) }
}

struct HTTPServerConfiguration: Sendable {
    var host = "127.0.0.1"
    var port: UInt16 = 0
    var maxBodyBytes = 1 << 20
    var maxHeaderBytes = 16 << 10
}

final class HTTPServer: Sendable {
    static func start(configuration: HTTPServerConfiguration = .init(), handler: @escaping HTTPHandler) throws -> HTTPServer {
        HTTPServer()
    }
    var port: UInt16 { 0 }
    func stop() {}
    func stop() async {}
    func refuseConnections(_ refuse: Bool) {}
}
