import Contracts
import Foundation
import PushCore

/// Where `contract-check breaking --against` reads the old schemas: a folder, or
/// `git:REF:PATH` (a folder at a commit, read through `git ls-tree` and `git show`).
package enum GoldenSchemaSource {
    /// Why the old schemas could not be read.
    package struct ReadError: Error, Sendable, CustomStringConvertible, CodedError {
        /// The kinds; `==` compares these, the message carries the details.
        package enum Code: Hashable, Sendable { case badSource, unreadable, notJSON, empty, git }

        package let code: Code
        /// The sentence after `Error: `.
        package let message: String

        /// `--against` is neither a folder nor `git:REF:PATH`.
        static func badSource(_ text: String) -> ReadError { ReadError(code: .badSource, message: text) }
        /// A schema file cannot be read.
        static func unreadable(_ text: String) -> ReadError { ReadError(code: .unreadable, message: text) }
        /// A schema file is not JSON.
        static func notJSON(_ text: String) -> ReadError { ReadError(code: .notJSON, message: text) }
        /// No schema file at all.
        static func empty(_ text: String) -> ReadError { ReadError(code: .empty, message: text) }
        /// git failed (unknown ref or path, no repository).
        static func git(_ text: String) -> ReadError { ReadError(code: .git, message: text) }
    }

    /// The old schemas, keyed by their `title` (the contract name).
    package static func load(_ source: String, currentDirectory: String) -> Result<[String: JSONTree], ReadError> {
        if source.hasPrefix("git:") {
            let rest = source.dropFirst(4)
            guard let colon = rest.firstIndex(of: ":") else {
                return .failure(.badSource("expected git:REF:PATH, found \(source)"))
            }
            return loadFromGit(ref: String(rest[..<colon]), path: String(rest[rest.index(after: colon)...]),
                               currentDirectory: currentDirectory)
        }
        let folder = TextFiles.resolve(source, in: currentDirectory)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return .failure(.badSource("\(source) is not a folder of *.schema.json files"))
        }
        var files: [(String, String)] = []
        for name in TextFiles.names(in: folder) where name.hasSuffix(".schema.json") {
            guard let text = TextFiles.read(folder + "/" + name) else {
                return .failure(.unreadable("cannot read \(source)/\(name)"))
            }
            files.append((name, text))
        }
        return parse(files, source: source)
    }

    static func loadFromGit(ref: String, path: String, currentDirectory: String) -> Result<[String: JSONTree], ReadError> {
        let folder = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard !ref.isEmpty, !ref.hasPrefix("-"), !folder.hasPrefix("-") else {
            return .failure(.badSource("expected git:REF:PATH with a ref and a path"))
        }
        let listing = runGit(["ls-tree", "--name-only", ref, "--", folder + "/"], in: currentDirectory)
        guard listing.status == 0 else {
            return .failure(.git("git ls-tree \(ref) \(folder)/ failed: \(listing.error.trimmingCharacters(in: .whitespacesAndNewlines))"))
        }
        var files: [(String, String)] = []
        for line in listing.output.split(separator: "\n") where line.hasSuffix(".schema.json") {
            let shown = runGit(["show", "\(ref):\(line)"], in: currentDirectory)
            guard shown.status == 0 else {
                return .failure(.git("git show \(ref):\(line) failed: \(shown.error)"))
            }
            files.append((String(line.split(separator: "/").last ?? line), shown.output))
        }
        return parse(files, source: "git:\(ref):\(folder)")
    }

    static func parse(_ files: [(name: String, text: String)], source: String) -> Result<[String: JSONTree], ReadError> {
        var result: [String: JSONTree] = [:]
        for file in files {
            let node: JSONNode
            do {
                node = try JSONReader.parse(Array(file.text.utf8))
            } catch {
                return .failure(.notJSON("\(source)/\(file.name): \(error.description)"))
            }
            let tree = JSONTree(node)
            let name = tree["title"]?.stringValue ?? String(file.name.dropLast(".schema.json".count))
            result[name] = tree
        }
        if result.isEmpty { return .failure(.empty("\(source) holds no *.schema.json files")) }
        return .success(result)
    }

    /// Runs git with `arguments` in `directory`; output and error as text.
    static func runGit(_ arguments: [String], in directory: String) -> (status: Int32, output: String, error: String) {
        let outcome = ChildProcess.run(["git"] + arguments, in: directory)
        return (outcome.status, outcome.output, outcome.error)
    }
}
