// TEMPORARY: stand-ins for APIs promised by other branches (json, contracts, http1).
// Deleted when those branches are merged. Internal, so nothing outside sees them.
import Foundation
import Contracts

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
