@testable import Contracts
import Testing

/// ``PersonalKeys/contains(_:)`` lowercases byte by byte (a key with a hash is ASCII): the
/// same answer as the Unicode lowercase mapping it replaced, for every listed name however it
/// is cased or separated, and for near misses.
@Suite struct PersonalKeysTests {
    /// The definition before issue 41: Unicode lowercase mapping, '_' and '-' removed.
    static func unicodeNormalized(_ key: String) -> String {
        var normalized = ""
        for scalar in key.unicodeScalars where scalar != "_" && scalar != "-" {
            normalized.unicodeScalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
        }
        return normalized
    }

    @Test func asciiLoweringAnswersAsTheUnicodeMapping() {
        var keys: [String] = []
        for name in PersonalKeys.names.sorted() {
            keys += [name, name.uppercased(), "_" + name, name + "-", name.capitalized, String(name.dropLast()), name + "s", "x" + name]
        }
        keys += ["rider_Name", "RIDER-NAME", "Ridername", "riderNäme", "ṙiderName", "rider name", ""]
        var found = 0
        for key in keys {
            let expected = PersonalKeys.names.contains(Self.unicodeNormalized(key))
            if expected { found += 1 }
            #expect(PersonalKeys.contains(key) == expected, "\(key)")
            var bytes = key
            #expect(bytes.withUTF8 { PersonalKeys.contains($0) } == expected, "\(key) as bytes")
        }
        #expect(found > 100)
    }
}
