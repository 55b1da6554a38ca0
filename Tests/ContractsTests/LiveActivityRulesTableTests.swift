import Contracts
import Foundation
import Testing

/// Docs/readme/live-activities.md lists the contract's rules; the table is checked against the
/// contract's catalogue, the one place the ids come from.
@Suite struct LiveActivityRulesTableTests {
    @Test func theDocsTableListsEveryRuleOnceWithItsSeverity() throws {
        let contract = try #require(ContractSet.v1.contract(named: "live-activity-payload"))
        let path = FixtureCatalog.root + "/../Docs/readme/live-activities.md"
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var rows: [String: String] = [:]
        var repeated: [String] = []
        for line in text.split(separator: "\n") where line.hasPrefix("| `live-activity-payload.") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            let id = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            if rows.updateValue(cells[1], forKey: id) != nil { repeated.append(id) }
        }
        #expect(repeated.isEmpty, "listed twice: \(repeated)")
        let catalog = Dictionary(uniqueKeysWithValues: contract.ruleCatalog.map { ($0.id, $0.severity == .error ? "error" : "warning") })
        #expect(Set(rows.keys) == Set(catalog.keys),
                "missing from the docs: \(Set(catalog.keys).subtracting(rows.keys).sorted()); not rules: \(Set(rows.keys).subtracting(catalog.keys).sorted())")
        for (id, severity) in catalog {
            #expect(rows[id] == nil || rows[id] == severity, "\(id): the docs say \(rows[id] ?? "") but it is \(severity)")
        }
    }
}
