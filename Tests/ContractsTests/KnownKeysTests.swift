@testable import PushCore
@testable import Contracts
import Testing

/// The parser's known keys (v1 member names read without building a String) against the
/// parser reading every key as a string: the same tree, or the same error, for every input.
@Suite struct KnownKeysTests {
    static func parse(_ bytes: [UInt8], _ keys: KnownKeys) -> Result<JSONNode, JSONSyntaxError> {
        bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(buffer, maxDepth: JSONReader.defaultMaxDepth, knownKeys: keys)
            do throws(JSONSyntaxError) {
                return .success(try parser.parseDocument())
            } catch {
                return .failure(error)
            }
        }
    }

    @Test func knownKeysReadTheSameTreesAndErrors() {
        var g = SplitMix64(seed: 0x4B45)
        let none = KnownKeys(names: [])
        let interesting: [UInt8] = Array("{}[]\":,\\ \n\tuaeé".utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xFF]
        var inputs: [[UInt8]] = FixtureCatalog.all.map(\.bytes)
        for _ in 0..<1_000 {
            var bytes = Array(PayloadFastPathTests.randomPayload(&g).utf8)
            for _ in 0..<Int.random(in: 0...3, using: &g) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &g)
                switch Int.random(in: 0..<3, using: &g) {
                case 0: bytes[index] = interesting.randomElement(using: &g) ?? 0
                case 1: bytes.remove(at: index)
                default: bytes.insert(interesting.randomElement(using: &g) ?? 0, at: index)
                }
            }
            inputs.append(bytes)
        }
        inputs.append(Array(#"{"aps":1,"aps\u0041":2,"apns-topic":3,"alert""#.utf8))  // escaped, unknown, unterminated
        inputs.append(Array("{\"aps".utf8))
        var known = 0
        for bytes in inputs {
            let fast = Self.parse(bytes, .v1)
            let slow = Self.parse(bytes, none)
            switch (fast, slow) {
            case (.success(let a), .success(let b)):
                #expect(a == b)
                if case .object(let members) = a.value, members.contains(where: { $0.key == "aps" }) { known += 1 }
            case (.failure(let a), .failure(let b)):
                #expect(a.kind == b.kind && a.position == b.position && a.message == b.message, "\(a) vs \(b)")
            default:
                Issue.record("\(String(decoding: bytes, as: UTF8.self)): \(fast) vs \(slow)")
            }
        }
        #expect(known > 300)
        // The table is in use: v1 names are found, other keys are not.
        #expect(Array("mutable-content".utf8).withUnsafeBufferPointer { KnownKeys.v1.key($0) } == "mutable-content")
        #expect(Array("pad".utf8).withUnsafeBufferPointer { KnownKeys.v1.key($0) } == nil)
    }

    /// The table lists exactly the v1 member names; every key one letter away from one is
    /// found only when it spells a name exactly.
    @Test func nearMissesAreNotKnownKeys() {
        var names = Set<String>()
        var pending = ContractSet.v1.contracts.map(\.schema)
        while let schema = pending.popLast() {
            switch schema.kind {
            case .object(let object):
                names.formUnion(object.members.map(\.name))
                pending += object.members.map(\.schema)
            case .array(let array): pending.append(array.items)
            case .nullable(let inner): pending.append(inner)
            case .anyOf(let alternatives): pending += alternatives
            default: break
            }
        }
        #expect(Set(KnownKeys.v1Names) == names)
        var found = 0
        for name in names {
            let original = Array(name.utf8)
            #expect(original.withUnsafeBufferPointer { KnownKeys.v1.key($0) } == (original.count <= KnownKeys.longest ? name : nil))
            for position in original.indices {
                for letter in UInt8(ascii: "a")...UInt8(ascii: "z") {
                    var bytes = original
                    bytes[position] = letter
                    guard let key = bytes.withUnsafeBufferPointer({ KnownKeys.v1.key($0) }) else { continue }
                    found += 1
                    #expect(Array(key.utf8) == bytes)
                }
            }
        }
        #expect(found >= names.count)
    }
}
