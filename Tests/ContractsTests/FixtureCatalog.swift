import Contracts
import Foundation

/// One finding a fixture's `NAME.expect` declares: a rule id and the JSON Pointer it is reported at.
struct ExpectedFinding: Sendable, Hashable, Comparable, CustomStringConvertible {
    let ruleID: String
    /// "" for the whole document.
    let pointer: String

    var description: String { pointer.isEmpty ? ruleID : "\(ruleID) \(pointer)" }

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.ruleID, lhs.pointer) < (rhs.ruleID, rhs.pointer) }
}

/// One file under `Fixtures/valid` or `Fixtures/invalid`, with the contract its folder (or
/// `.apns` extension) selects and the findings its `NAME.expect` sidecar declares.
struct Fixture: Sendable, CustomStringConvertible {
    /// Relative to `Fixtures/`, e.g. `invalid/payloads/too-large.json`.
    let relativePath: String
    let path: String
    let isValid: Bool
    /// Nil when the folder names no contract of `ContractSet.v1` (a test fails on that).
    let contractName: String?
    /// Every finding the sidecar declares, sorted: one line each, so one finding of a rule
    /// cannot stand in for another of the same rule at another place.
    let expectedFindings: [ExpectedFinding]
    let hasExpectFile: Bool

    var description: String { relativePath }

    var bytes: [UInt8] {
        (FileManager.default.contents(atPath: path)).map { [UInt8]($0) } ?? []
    }

    var contract: Contract? { contractName.flatMap { ContractSet.v1.contract(named: $0) } }
}

enum FixtureCatalog {
    /// `Fixtures/` at the package root, found from this file's path.
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures").path
    }()

    static let all: [Fixture] = load(kind: "valid") + load(kind: "invalid")
    static let valid: [Fixture] = all.filter(\.isValid)
    static let invalid: [Fixture] = all.filter { !$0.isValid }

    static func load(kind: String) -> [Fixture] {
        let base = root + "/" + kind
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [] }
        var fixtures: [Fixture] = []
        for case let relative as String in enumerator {
            let ext = (relative as NSString).pathExtension
            guard ext == "json" || ext == "apns" else { continue }
            let folder = relative.split(separator: "/").first.map(String.init) ?? ""
            let contract = ContractSet.v1.contract(forFileExtension: ext) ?? ContractSet.v1.contract(forFolder: folder)
            let expectPath = base + "/" + (relative as NSString).deletingPathExtension + ".expect"
            let expectText = (try? String(contentsOfFile: expectPath, encoding: .utf8))
            fixtures.append(Fixture(
                relativePath: kind + "/" + relative, path: base + "/" + relative, isValid: kind == "valid",
                contractName: contract?.name, expectedFindings: expectText.map(parseExpect) ?? [],
                hasExpectFile: expectText != nil))
        }
        return fixtures.sorted { $0.relativePath < $1.relativePath }
    }

    /// `RULE-ID POINTER` lines (a rule id alone is a finding at "", the whole document);
    /// blank lines and `#` comments are ignored. Sorted, duplicates kept.
    static func parseExpect(_ text: String) -> [ExpectedFinding] {
        var findings: [ExpectedFinding] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let parts = trimmed.split(separator: " ", maxSplits: 1)
            let pointer = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            findings.append(ExpectedFinding(ruleID: String(parts[0]), pointer: pointer))
        }
        return findings.sorted()
    }
}
