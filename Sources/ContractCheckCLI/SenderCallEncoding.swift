import Foundation
import Contracts
import PushScenarios

/// `sender-check`'s JSON lines: a ``SenderCall`` as the line the child reads, and the child's
/// stdout lines read back as answers (DESIGN, "Checking a sender in any language").
enum SenderCallEncoding {
    /// What a stdout line is: an answer (an object with a numeric `id`), or the sender's log.
    enum Line {
        case notAnAnswer
        /// An answer to call `id`; `decode` reads it given the call's name.
        case answer(id: Int, decode: (_ call: String) -> Result<SenderAnswer, SenderMisbehaviour>)
    }

    /// `{"id":2,"call":"send","token":"…","pushType":"alert","payload":{…}}`, no newline.
    static func line(_ call: SenderCall, id: Int) -> String {
        var members = ["\"id\":\(id)", "\"call\":" + string(call.name)]
        switch call {
        case .tokenRegistered(let token):
            members.append("\"token\":" + string(token))
        case .send(let push):
            members += ["\"token\":" + string(push.token), "\"pushType\":" + string(push.pushType), "\"payload\":" + json(push.payload)]
            if let priority = push.priority { members.append("\"priority\":\(priority)") }
            if let collapseID = push.collapseID { members.append("\"collapseId\":" + string(collapseID)) }
            if let expiration = push.expiration { members.append("\"expiration\":\(expiration)") }
        case .pushToStartTokenRegistered(let token, let device):
            members += ["\"token\":" + string(token), "\"device\":" + string(device)]
        case .startTracking(let attributes, let state):
            members += ["\"attributes\":" + json(attributes), "\"state\":" + json(state)]
        case .activityTokenRegistered(let token, let orderId):
            members += ["\"token\":" + string(token), "\"orderId\":" + string(orderId)]
        case .orderChanged(let orderId, let state):
            members += ["\"orderId\":" + string(orderId), "\"state\":" + json(state)]
        case .orderDelivered(let orderId, let finalState):
            members += ["\"orderId\":" + string(orderId), "\"finalState\":" + json(finalState)]
        case .finish:
            break
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// Reads one stdout line of the child.
    static func answer(_ line: String) -> Line? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("{"),
              let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) as? [String: Any],
              let number = object["id"] as? NSNumber, let id = Int(exactly: number.doubleValue) else { return .notAnAnswer }
        return .answer(id: id) { call in decode(object, id: id, call: call, line: trimmed) }
    }

    private static func decode(_ object: [String: Any], id: Int, call: String, line: String) -> Result<SenderAnswer, SenderMisbehaviour> {
        if let unsupported = object["unsupported"] as? Bool, unsupported { return .success(.unsupported) }
        guard call == "send" else { return .success(.done) }
        let allowed = SendResult.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = object["result"] as? String else {
            return .failure(SenderMisbehaviour("the sender answered send \(id) without a result (\(SenderProcess.clip(line))); "
                                               + "answer {\"id\":\(id),\"result\":\"delivered\"} (or \(allowed))"))
        }
        guard let result = SendResult(rawValue: text) else {
            return .failure(SenderMisbehaviour("the sender answered send \(id) with result \"\(text)\"; answer one of \(allowed)"))
        }
        return .success(.sent(result, reason: object["reason"] as? String))
    }

    private static func string(_ text: String) -> String { json(text) }

    private static func json<Value: Encodable>(_ value: Value) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }
}
