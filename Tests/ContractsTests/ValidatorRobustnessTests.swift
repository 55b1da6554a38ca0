@testable import PushCore
import Contracts
import Testing

/// Whatever a client sends, validation returns violations and never traps.
@Suite struct ValidatorRobustnessTests {
    @Test func mutatedFixturesNeverTrapAnyContract() {
        var generator = SplitMix64(seed: 2024)
        let interesting: [UInt8] = Array("{}[]\",:0123456789-+.eE truefalsnul\\u/~é".utf8) + [0x00, 0x1F, 0x80, 0xFF]
        var checked = 0
        for fixture in FixtureCatalog.all {
            let original = fixture.bytes
            guard !original.isEmpty else { continue }
            for _ in 0..<20 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[index] = interesting.randomElement(using: &generator) ?? 0
                    case 1: bytes.remove(at: index)
                    default: bytes.insert(interesting.randomElement(using: &generator) ?? 0, at: index)
                    }
                    if bytes.isEmpty { bytes = [0x7B] }
                }
                for contract in ContractSet.v1.contracts {
                    for violation in contract.validate(bytes: bytes) {
                        #expect(!violation.ruleID.isEmpty && !violation.message.isEmpty)
                    }
                    checked += 1
                }
            }
        }
        #expect(checked > 10_000)
    }

    @Test func deepAndWideDocumentsAreWalkedWithoutRecursionLimits() throws {
        let depth = 1000
        let text = #"{"aps": {"alert": "x"}, "notificationId": "1", "x": "# + String(repeating: #"[{"phone": 1, "y": "#, count: depth)
            + "0" + String(repeating: "}]", count: depth) + "}"
        let document = try JSONReader.parse(Array(text.utf8), maxDepth: JSONReader.depthCeiling)
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let found = payload.validate(document, sourceByteCount: 100)
        #expect(found.filter { $0.ruleID == "payload.personal-data" }.count == depth)
        let wide = "{" + (0..<5000).map { "\"k\($0)\": \($0)" }.joined(separator: ",") + ", \"k7\": 1}"
        let duplicates = payload.validate(bytes: Array(wide.utf8)).filter { $0.ruleID == "payload.duplicate-key" }
        #expect(duplicates.map(\.pointer) == ["/k7"])
    }
}
