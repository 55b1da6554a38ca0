import Testing
@testable import FakeBackend

/// The registered devices' second index: a hex token's key made from the path's bytes is the
/// key of the token as stored (lowercased), and only of that token; the two indexes hold the
/// same devices through every change.
@Suite struct DeviceTableTests {
    static func key(_ text: String) -> DeviceTable.HexKey? {
        var text = text
        return text.withUTF8 { DeviceTable.HexKey($0) }
    }

    static func device(_ token: String, account: String = "a1") -> RegisteredDevice {
        RegisteredDevice(token: token, account: account, environment: "production", appVersion: "1.0.0",
                         publicKey: "", updatedAt: .init(timeIntervalSince1970: 0))
    }

    @Test func aKeyIsTheTokensIgnoringCaseAndOnlyItsOwn() {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdefABCDEF")
        var seen: [DeviceTable.HexKey: String] = [:]
        for round in 0..<4_000 {
            let count = round < 64 ? round + 1 : Int.random(in: 1...64, using: &generator)
            // Few distinct digits, so tokens repeat and differ in one place or in length.
            let alphabet = round % 2 == 0 ? digits : ["0", "1", "A", "a"]
            let token = String((0..<count).map { _ in alphabet.randomElement(using: &generator) ?? "0" })
            let lowercase = token.lowercased()
            let key = Self.key(token)
            #expect(key != nil, "\(token)")
            #expect(key == DeviceTable.HexKey(lowercaseToken: lowercase), "\(token)")
            #expect(key == Self.key(lowercase), "\(token)")
            if let key {
                // One key, one lowercase token.
                #expect(seen[key, default: lowercase] == lowercase, "\(token)")
                seen[key] = lowercase
            }
        }
        #expect(seen.count > 1_000)
    }

    /// Every digit has a place of its own: one digit changed anywhere, in a token of any
    /// length, gives another key.
    @Test func aDigitAnywhereChangesTheKey() {
        for count in 1...64 {
            var keys: Set<DeviceTable.HexKey> = []
            for position in 0..<count {
                for digit in ["1", "f"] {
                    var token = Array(repeating: "0", count: count)
                    token[position] = digit
                    if let key = Self.key(token.joined()) { keys.insert(key) }
                }
            }
            if let zeros = Self.key(String(repeating: "0", count: count)) { keys.insert(zeros) }
            #expect(keys.count == count * 2 + 1, "\(count) digits")
        }
    }

    @Test func onlyOneTo64HexDigitsHaveAKey() {
        let token = String(repeating: "ab", count: 32)
        #expect(Self.key(token) != nil)
        #expect(Self.key(token + "0") == nil)  // 65 digits: the String index only
        #expect(Self.key("") == nil)
        #expect(DeviceTable.HexKey(lowercaseToken: "") == nil)
        for bad in ["g", "G", "/", ":", "@", "`", "-", " ", "é", "\u{0}"] {
            for position in [0, 7, 8, 15, 40, 63] {
                var bytes = Array(token.utf8)
                let replaced = Array(bad.utf8)
                bytes.replaceSubrange(position..<(position + 1), with: replaced)
                bytes = Array(bytes.prefix(64))
                #expect(Self.key(String(decoding: bytes, as: UTF8.self)) == nil, "\(bad) at \(position)")
            }
        }
        // A stored token is lowercase: an uppercase one has no key of its own.
        #expect(DeviceTable.HexKey(lowercaseToken: "00FA11CE") == nil)
        #expect(DeviceTable.HexKey(lowercaseToken: "00fa11ce") == Self.key("00FA11CE"))
    }

    @Test func bothIndexesHoldTheSameDevicesThroughEveryChange() {
        var table = DeviceTable()
        let short = "00fa11ce", long = String(repeating: "cd", count: 40)
        table[short] = Self.device(short)
        table[long] = Self.device(long)
        #expect(table.device(key: Self.key("00FA11CE"), token: nil) == Self.device(short))
        #expect(table.device(key: nil, token: long) == Self.device(long))
        table[short] = Self.device(short, account: "a2")
        #expect(table.device(key: Self.key(short), token: nil)?.account == "a2")
        table[short] = nil
        #expect(table.device(key: Self.key(short), token: nil) == nil)
        table.register(Self.device(short, account: "a3"), key: Self.key(short))
        #expect(table[short]?.account == "a3")
        #expect(table.device(key: Self.key(short), token: nil)?.account == "a3")
        table.removeAll()
        #expect(table.device(key: Self.key(short), token: nil) == nil)
        #expect(table.byToken.isEmpty)
    }

    /// A body is the device's registration again only byte for byte, from the device's
    /// account, while no other change reached the device; a large one is not kept.
    @Test func aDeviceKeepsTheBodyItWasRegisteredWith() {
        var table = DeviceTable()
        let token = "00fa11ce"
        guard let key = Self.key(token) else { Issue.record("no key"); return }
        let body = Array(#"{"platform":"ios"}"#.utf8)
        func same(_ bytes: [UInt8], _ account: String = "a1") -> RegisteredDevice? {
            bytes.withUnsafeBufferPointer { table.sameRegistration(key: key, account: account, body: $0) }
        }
        body.withUnsafeBufferPointer { table.register(Self.device(token), key: key, body: $0) }
        #expect(same(body) == Self.device(token))
        #expect(same(body, "a2") == nil)
        #expect(same(Array(#"{"platform":"iOS"}"#.utf8)) == nil)
        #expect(same(body + [0x20]) == nil)
        #expect(same([]) == nil)
        // Changed another way: the body is no longer the device's.
        table[token] = Self.device(token)
        #expect(same(body) == nil)
        body.withUnsafeBufferPointer { table.register(Self.device(token), key: key, body: $0) }
        table.register(Self.device(token, account: "a2"), key: key)
        #expect(same(body, "a2") == nil)
        let large = Array(repeating: UInt8(ascii: " "), count: DeviceTable.maxRememberedBodyBytes + 1)
        large.withUnsafeBufferPointer { table.register(Self.device(token), key: key, body: $0) }
        #expect(same(large) == nil)
        let largest = Array(large.dropLast())
        largest.withUnsafeBufferPointer { table.register(Self.device(token), key: key, body: $0) }
        #expect(same(largest) == Self.device(token))
        table[token] = nil
        #expect(same(largest) == nil)
    }

    /// A device registered lately with a plain body is found again by its token's bytes as
    /// stored (lowercase), with the same body from the same account, without a key; any
    /// change to the device, or another device taking its slot, leaves the key to find it.
    @Test func aRecentRegistrationIsFoundByItsTokensBytes() throws {
        var table = DeviceTable()
        let token = "00fa11ce" + String(repeating: "ab", count: 28)
        let body = Array(#"{"platform":"ios"}"#.utf8)
        func recent(_ token: String, _ bytes: [UInt8] = body, _ account: String = "a1") -> RegisteredDevice? {
            var token = token
            return token.withUTF8 { token in bytes.withUnsafeBufferPointer { table.recentRegistration(token: token, account: account, body: $0) } }
        }
        func register(_ token: String, account: String = "a1", body: [UInt8]? = body) {
            guard let body else { return table.register(Self.device(token, account: account), key: Self.key(token)) }
            body.withUnsafeBufferPointer { table.register(Self.device(token, account: account), key: Self.key(token), body: $0) }
        }
        func slot(_ token: String) -> Int {
            var token = token
            return token.withUTF8 { DeviceTable.recentSlot($0) }
        }
        #expect(recent(token) == nil)
        register(token)
        #expect(recent(token) == Self.device(token))
        #expect(recent(token.uppercased()) == nil)
        #expect(recent(token, body + [0x20]) == nil)
        #expect(recent(token, Array(#"{"platform":"iOS"}"#.utf8)) == nil)
        #expect(recent(token, body, "a2") == nil)
        #expect(recent(token, []) == nil)
        // Another token in the same slot takes it; the first is found by key.
        let rival = try #require((1..<100_000).lazy.map { number -> String in
            let digits = String(number, radix: 16)
            return String(repeating: "0", count: 64 - digits.count) + digits
        }.first { slot($0) == slot(token) })
        register(rival)
        #expect(recent(rival) == Self.device(rival))
        #expect(recent(token) == nil)
        let key = try #require(Self.key(token))
        #expect(body.withUnsafeBufferPointer { table.sameRegistration(key: key, account: "a1", body: $0) } == Self.device(token))
        // Every other change to the device empties its slot.
        register(token)
        table[token] = Self.device(token, account: "a2")
        #expect(recent(token) == nil)
        #expect(recent(token, body, "a2") == nil)
        register(token)
        table[token] = nil
        #expect(recent(token) == nil)
        register(token)
        register(token, body: nil)
        #expect(recent(token) == nil)
        register(token)
        table.removeAll()
        #expect(recent(token) == nil)
        // A token shorter than a word has its slot too.
        register("ab12")
        #expect(recent("ab12") == Self.device("ab12"))
        #expect(recent("ab1") == nil)
    }

    /// A device another path stored keeps the first plain body it is registered with again;
    /// a body it keeps stays (the same fields in other bytes do not replace it).
    @Test func aDeviceStoredWithoutABodyKeepsTheNextOne() throws {
        var table = DeviceTable()
        let token = "00fa11ce"
        let key = try #require(Self.key(token))
        let body = Array(#"{"platform":"ios"}"#.utf8), spaced = Array(#"{"platform": "ios"}"#.utf8)
        func same(_ bytes: [UInt8]) -> RegisteredDevice? {
            bytes.withUnsafeBufferPointer { table.sameRegistration(key: key, account: "a1", body: $0) }
        }
        table[token] = Self.device(token)
        #expect(same(body) == nil)
        body.withUnsafeBufferPointer { table.keep($0, key: key) }
        #expect(same(body) == Self.device(token))
        var stored = token
        #expect(stored.withUTF8 { token in body.withUnsafeBufferPointer { table.recentRegistration(token: token, account: "a1", body: $0) } }
                == Self.device(token))
        spaced.withUnsafeBufferPointer { table.keep($0, key: key) }
        #expect(same(body) == Self.device(token))
        #expect(same(spaced) == nil)
        // No device, nothing kept.
        let other = try #require(Self.key("ab12"))
        body.withUnsafeBufferPointer { table.keep($0, key: other) }
        #expect(table.byToken.count == 1)
    }
}
