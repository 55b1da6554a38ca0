import Contracts
import Foundation

/// The admin API's one strict JSON-body decoder: reads the body with positions, names every
/// unknown member (with a did-you-mean among the members its level knows), then decodes it,
/// saying type mistakes in JSON's words ("expected a boolean, found a string").
enum AdminBodyDecoder {
    static func decode<Body: AdminRequestBody>(_ type: Body.Type, from bytes: [UInt8]) -> Result<Body, AdminRequestError> {
        let root: JSONNode
        do {
            root = try JSONReader.parse(bytes)
        } catch {
            let message = error.kind == .emptyDocument
                ? "the body is empty; send a JSON object"
                : "the body is not valid JSON: \(error.message); send a JSON object"
            return .failure(failure([ViolationRecord(pointer: "", rule: "admin.json", message: message, position: error.position)]))
        }
        guard case .object = root.value else {
            return .failure(failure([ViolationRecord(pointer: "", rule: "admin.type",
                                                     message: "expected an object, found \(describe(root.value))",
                                                     position: root.position)]))
        }
        var problems = unknownMembers(in: root, at: "", known: Body.members)
        do {
            let body = try JSONDecoder().decode(type, from: Data(bytes))
            if problems.isEmpty { return .success(body) }
        } catch let error as DecodingError {
            problems.append(unrepresentableNumber(for: error, in: bytes, root: root, as: type) ?? record(error, root: root))
        } catch {
            problems.append(ViolationRecord(pointer: "", rule: "admin.value", message: "\(error)"))
        }
        return .failure(failure(problems))
    }

    /// One 400 naming every problem: the detail joins them, `violations` lists them.
    private static func failure(_ problems: [ViolationRecord]) -> AdminRequestError {
        let lines = problems.map { problem in
            problem.pointer.isEmpty ? problem.message : "\(problem.pointer): \(problem.message)"
        }
        let detail = problems.count == 1
            ? lines[0]
            : "\(problems.count) problems: " + lines.joined(separator: "; ")
        return AdminRequestError(detail, violations: problems)
    }

    /// Every member of an object at or under `pointer` that `known` does not list.
    private static func unknownMembers(in node: JSONNode, at pointer: String, known: [String]) -> [ViolationRecord] {
        switch node.value {
        case .object(let members):
            let here = knownNames(under: pointer, in: known)
            return members.flatMap { member -> [ViolationRecord] in
                let path = pointer + "/" + escape(member.key)
                guard here.contains(member.key) else {
                    var message = "unknown member \"\(member.key)\""
                    if let suggestion = Suggestion.closest(to: member.key, among: here, maxEdits: 2, acceptingUniquePrefix: true) {
                        message += "; did you mean \"\(suggestion)\"?"
                    } else {
                        message += "; this route reads " + (here.isEmpty ? "no members here" : here.map { "\"\($0)\"" }.joined(separator: ", "))
                    }
                    return [ViolationRecord(pointer: path, rule: "admin.unknown-member", message: message,
                                            position: member.keyPosition)]
                }
                return unknownMembers(in: member.value, at: path, known: known)
            }
        case .array(let items):
            return items.enumerated().flatMap { index, item in unknownMembers(in: item, at: "\(pointer)/\(index)", known: known) }
        default:
            return []
        }
    }

    /// The member names directly under `pointer` that `known` lists (in its order).
    private static func knownNames(under pointer: String, in known: [String]) -> [String] {
        var names: [String] = []
        for member in known where member.hasPrefix(pointer + "/") {
            let rest = member.dropFirst(pointer.count + 1)
            let name = unescape(String(rest.prefix { $0 != "/" }))
            if !names.contains(name) { names.append(name) }
        }
        return names
    }

    private static func record(_ error: DecodingError, root: JSONNode) -> ViolationRecord {
        func pointer(_ path: [any CodingKey]) -> String {
            path.map { "/" + escape($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = pointer(context.codingPath)
            return ViolationRecord(pointer: parent + "/" + escape(key.stringValue), rule: "admin.missing-member",
                                   message: "required; add \"\(key.stringValue)\"",
                                   position: node(at: parent, in: root)?.position)
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let at = pointer(context.codingPath)
            let found = node(at: at, in: root)
            if let found, case .null = found.value, let key = context.codingPath.last {
                // null counts as absent (as the docs say): a required member set to null is missing.
                return ViolationRecord(pointer: at, rule: "admin.missing-member",
                                       message: "required; add \"\(key.stringValue)\" (null counts as absent)",
                                       position: found.position)
            }
            return ViolationRecord(pointer: at, rule: "admin.type",
                                   message: "expected \(jsonType(type)), found \(found.map { describe($0.value) } ?? "nothing")",
                                   position: found?.position)
        case .dataCorrupted(let context):
            let at = pointer(context.codingPath)
            if context.codingPath.isEmpty {
                return ViolationRecord(pointer: "", rule: "admin.value", message: "the body does not match this route: \(context.debugDescription)")
            }
            let found = node(at: at, in: root)
            return ViolationRecord(pointer: at, rule: "admin.value", message: context.debugDescription, position: found?.position)
        @unknown default:
            return ViolationRecord(pointer: "", rule: "admin.value", message: "\(error)")
        }
    }

    /// Foundation reports a number its target type cannot hold (`1.5` or `1e30` for an `Int`)
    /// as "not valid JSON" with no path. The reader parsed the body, so the culprit is such a
    /// number: the first whose replacement by `0` changes that error is named.
    private static func unrepresentableNumber<Body: Decodable>(for error: DecodingError, in bytes: [UInt8], root: JSONNode,
                                                              as type: Body.Type) -> ViolationRecord? {
        guard case .dataCorrupted(let context) = error, context.codingPath.isEmpty else { return nil }
        for (pointer, node, number) in numbers(in: root, at: "") where !number.isIntegerLiteral || number.integerValue == nil {
            let start = node.position.offset
            let end = start + number.literal.utf8.count
            guard start >= 0, end <= bytes.count else { continue }
            var patched = bytes
            patched.replaceSubrange(start..<end, with: [UInt8(ascii: "0")])
            do {
                _ = try JSONDecoder().decode(type, from: Data(patched))
            } catch let DecodingError.dataCorrupted(after) where after.codingPath.isEmpty {
                continue
            } catch {}
            let message = number.isIntegerLiteral ? "expected an integer that fits in 64 bits, found \(number.literal)"
                                                  : "expected an integer, found \(number.literal)"
            return ViolationRecord(pointer: pointer, rule: "admin.type", message: message, position: node.position)
        }
        return nil
    }

    /// Every number in `node`, with its pointer, in document order.
    private static func numbers(in node: JSONNode, at pointer: String) -> [(String, JSONNode, JSONNumber)] {
        switch node.value {
        case .number(let number): return [(pointer, node, number)]
        case .object(let members):
            return members.flatMap { numbers(in: $0.value, at: pointer + "/" + escape($0.key)) }
        case .array(let items):
            return items.enumerated().flatMap { numbers(in: $0.element, at: "\(pointer)/\($0.offset)") }
        default: return []
        }
    }

    /// The node `pointer` names in `root`, if there is one.
    private static func node(at pointer: String, in root: JSONNode) -> JSONNode? {
        var current = root
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let name = unescape(String(token))
            switch current.value {
            case .object(let members):
                guard let member = members.last(where: { $0.key == name }) else { return nil }
                current = member.value
            case .array(let items):
                guard let index = Int(name), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }

    /// A Swift type as JSON says it: `Bool` → "a boolean", a dictionary → "an object".
    static func jsonType(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: return "a boolean"
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt64.Type, is UInt32.Type, is UInt.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
            if name.hasPrefix("Array") || name.contains("UnkeyedDecodingContainer") { return "an array" }
            return "another type"
        }
    }

    /// A found value in JSON's words: `a string ("yes")`, `1.5`, `an object`.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return "a boolean (\(flag))"
        case .number(let number): return "a number (\(number.literal))"
        case .string(let text): return text.count > 40 ? "a string" : "a string (\"\(text)\")"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    private static func escape(_ name: String) -> String {
        name.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    private static func unescape(_ token: String) -> String {
        token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
    }
}
