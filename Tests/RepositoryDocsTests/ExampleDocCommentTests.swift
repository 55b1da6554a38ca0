import Foundation
import Testing
import PushTestSupport

/// The example app's doc comments call initializers that exist: each `Type(label: …)` in a
/// ```` ```swift ```` block of a `///` comment matches one of `Type`'s `init`s in
/// `Examples/GroceryApp/Sources` (`URLSessionHTTPClient`'s showed
/// `RemoteDeviceRepository(http:device:)`, which never existed).
@Suite struct ExampleDocCommentTests {
    static let sources = packageRoot + "/Examples/GroceryApp/Sources"

    @Test func everyInitializerCalledInADocCommentExists() throws {
        let files = (FileManager.default.enumerator(atPath: Self.sources)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".swift") }.sorted()
        var texts: [String: String] = [:]
        for file in files { texts[file] = try String(contentsOfFile: Self.sources + "/" + file, encoding: .utf8) }
        let initializers = texts.values.reduce(into: [String: [[SwiftCalls.Parameter]]]()) { result, text in
            result.merge(SwiftCalls.initializers(in: text)) { $0 + $1 }
        }
        #expect(initializers["RemoteDeviceRepository"] != nil && initializers["URLSessionHTTPClient"] != nil, "\(initializers.keys.sorted())")
        var checked = 0
        for file in files {
            for call in SwiftCalls.docCommentCalls(in: texts[file] ?? "") {
                guard let inits = initializers[call.type] else { continue }
                checked += 1
                #expect(inits.contains { SwiftCalls.matches(call.labels, $0) },
                        "\(file): \(call.type)(\(call.labels.map { "\($0):" }.joined())) is not an initializer of \(call.type)")
            }
        }
        #expect(checked >= 2, "the doc comments' calls were found")
    }

    @Test func theCheckBites() {
        let inits = SwiftCalls.initializers(in: """
            public actor Repository {
                public init(http: any HTTPClient, registration: Body, retry: RetryPolicy = RetryPolicy()) {}
            }
            """)
        let parameters = try? #require(inits["Repository"]?.first)
        #expect(parameters.map { SwiftCalls.matches(["http", "registration"], $0) } == true)
        #expect(parameters.map { SwiftCalls.matches(["http", "device"], $0) } == false)
        #expect(parameters.map { SwiftCalls.matches(["http"], $0) } == false)
        let calls = SwiftCalls.docCommentCalls(in: "/// ```swift\n/// let d = Repository(http: http, device: .current)\n/// ```\n")
        #expect(calls.map(\.type) == ["Repository"] && calls.first?.labels == ["http", "device"])
    }
}

/// Just enough Swift reading for initializer calls and declarations.
enum SwiftCalls {
    struct Parameter: Equatable {
        var label: String
        var hasDefault: Bool
    }

    struct Call {
        var type: String
        var labels: [String]
    }

    /// `init(…)` parameter lists by the type (or extension) they are declared in.
    static func initializers(in text: String) -> [String: [[Parameter]]] {
        var result: [String: [[Parameter]]] = [:]
        var owner: String?
        for line in text.split(separator: "\n").map(String.init) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "{" || $0 == "<" }).map(String.init)
            // Top-level declarations only: a nested type's init is not its parent's.
            if line.first.map({ !$0.isWhitespace }) == true, !line.hasPrefix("//"),
               let index = words.firstIndex(where: { ["struct", "class", "actor", "enum", "extension"].contains($0) }), index + 1 < words.count {
                owner = words[index + 1]
            }
            if line.hasPrefix("        ") { continue }  // deeper than a top-level type's members
            guard let owner, let start = line.range(of: "init(")?.upperBound,
                  !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
            let arguments = balanced(String(line[start...]))
            result[owner, default: []].append(split(arguments).map { parameter in
                let label = parameter.split(separator: " ").first.map { String($0).replacingOccurrences(of: ":", with: "") } ?? "_"
                return Parameter(label: label, hasDefault: parameter.contains("="))
            })
        }
        return result
    }

    /// `Type(label: …)` calls in the ```` ```swift ```` blocks of `///` comments.
    static func docCommentCalls(in text: String) -> [Call] {
        var calls: [Call] = []
        var inCode = false
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix("///") else { continue }
            let content = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
            if content.hasPrefix("```") {
                inCode.toggle()
                continue
            }
            guard inCode else { continue }
            var rest = Substring(content)
            while let match = rest.range(of: #"[A-Z][A-Za-z0-9]*\("#, options: .regularExpression) {
                let type = String(rest[match].dropLast())
                let arguments = balanced(String(rest[match.upperBound...]))
                calls.append(Call(type: type, labels: split(arguments).map { argument in
                    guard let colon = argument.firstIndex(of: ":"),
                          argument[..<colon].allSatisfy({ $0.isLetter || $0.isNumber }) else { return "_" }
                    return String(argument[..<colon])
                }))
                rest = rest[match.upperBound...]
            }
        }
        return calls
    }

    /// Whether a call with `labels` can call an initializer with `parameters`: in order, each
    /// parameter either takes the next label or has a default.
    static func matches(_ labels: [String], _ parameters: [Parameter]) -> Bool {
        var remaining = labels[...]
        for parameter in parameters {
            if remaining.first == parameter.label {
                remaining.removeFirst()
            } else if !parameter.hasDefault {
                return false
            }
        }
        return remaining.isEmpty
    }

    /// The text up to the parenthesis that closes an already opened one.
    private static func balanced(_ text: String) -> String {
        var depth = 1
        var result = ""
        for character in text {
            if character == "(" || character == "[" { depth += 1 }
            if character == ")" || character == "]" { depth -= 1 }
            if depth == 0 { break }
            result.append(character)
        }
        return result
    }

    /// Comma-separated items at depth 0, trimmed; none for an empty list.
    private static func split(_ text: String) -> [String] {
        var items: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            if character == "(" || character == "[" { depth += 1 }
            if character == ")" || character == "]" { depth -= 1 }
            if character == ",", depth == 0 {
                items.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        let last = current.trimmingCharacters(in: .whitespaces)
        if !last.isEmpty { items.append(last) }
        return items
    }
}
