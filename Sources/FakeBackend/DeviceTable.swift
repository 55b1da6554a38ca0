import Foundation

/// The registered devices: by lowercase token (what snapshots show), and again by
/// ``HexKey`` for every token of at most 64 hex digits, so the handler finds a device from
/// the path's bytes without making a String of them (and hashes four words, not 64 bytes):
/// an app registers its device again at every launch, and each PUT looks it up.
///
/// Beside a device found by key, the table keeps the plain body it was registered with (by
/// the handler's plain path, ``register(_:key:body:)``): an app's next launch sends the same
/// bytes, and a body byte for byte the one a device was registered with, from its account,
/// is the same valid registration without being read again (``sameRegistration(key:account:body:)``).
/// The devices registered so lately are found again without a key at all: in a small table of
/// slots, by the last bytes of their token (``recentRegistration(token:account:body:)``).
///
/// Every change goes through the table, so the two indexes hold the same devices (a token
/// with a key is in both, any other only in ``byToken``) and a recent slot holds a device only
/// as its key's index does: any change to the device empties its slot.
struct DeviceTable {
    /// Lowercase token → device.
    private(set) var byToken: [String: RegisteredDevice] = [:]
    /// The devices whose token has a ``HexKey``, by that key, with their registration's body.
    private var byKey: [HexKey: Keyed] = [:]

    /// The devices registered lately with a plain body, each in the slot of its token
    /// (``recentSlot(_:)``; empty until the first). A later one in the same slot replaces it;
    /// any change to the device empties its slot. What misses here is found by key.
    private var recent: [Keyed?] = []

    /// A device found by key, and the body of the request that registered it (empty when
    /// another path set it, or the body was over ``maxRememberedBodyBytes``). Shared by the
    /// key's index and a recent slot, never changed.
    private final class Keyed: Sendable {
        let device: RegisteredDevice
        let body: [UInt8]

        init(device: RegisteredDevice, body: [UInt8]) {
            self.device = device
            self.body = body
        }
    }

    /// How many recent slots there are (a power of two).
    static let recentSlotCount = 256

    /// Bodies of at most this many bytes are kept beside their device (a registration is
    /// ~200): a device's memory stays bounded whatever its body.
    static let maxRememberedBodyBytes = 1024

    /// The device registered under `token` (lowercase); setting one adds, replaces or
    /// (nil) removes it in both indexes (keeping no body: the next plain registration reads
    /// its body).
    subscript(token: String) -> RegisteredDevice? {
        get { byToken[token] }
        set {
            byToken[token] = newValue
            if let key = HexKey(lowercaseToken: token) { byKey[key] = newValue.map { Keyed(device: $0, body: []) } }
            forgetRecent(token)
        }
    }

    /// The device whose token has `key`, or when there is no key, the one registered under
    /// `token` (lowercase).
    func device(key: HexKey?, token: String?) -> RegisteredDevice? {
        if let key { return byKey[key]?.device }
        guard let token else { return nil }
        return byToken[token]
    }

    /// The device whose token has `key` when it is `account`'s and was registered with a
    /// body of exactly these bytes (``register(_:key:body:)``): then `body` is that same
    /// registration, valid as it was. Nil otherwise (the body is then read).
    func sameRegistration(key: HexKey, account: String, body: UnsafeBufferPointer<UInt8>) -> RegisteredDevice? {
        guard let keyed = byKey[key], keyed.device.account == account, keyed.body.count == body.count, !body.isEmpty,
              Self.same(keyed.body, body) else { return nil }
        return keyed.device
    }

    /// The device whose token is these bytes exactly (lowercase, as stored) when it was
    /// registered lately, from `account`, with a body of exactly these bytes
    /// (``register(_:key:body:)``): then `body` is that same registration, valid as it was.
    /// What ``sameRegistration(key:account:body:)`` answers, without making a key or hashing
    /// one; nil when the device is not in its slot (then the key finds it).
    func recentRegistration(token: UnsafeBufferPointer<UInt8>, account: String, body: UnsafeBufferPointer<UInt8>) -> RegisteredDevice? {
        guard !recent.isEmpty, let keyed = recent[Self.recentSlot(token)],
              // A stored token is a native String: its bytes are read where they lie.
              keyed.device.token.utf8.withContiguousStorageIfAvailable({ Self.same($0, token) }) == true,
              keyed.body.count == body.count, !body.isEmpty, Self.same(keyed.body, body),
              keyed.device.account == account else { return nil }
        return keyed.device
    }

    /// Registers `device` under its token, whose key `key` is (the caller made both of the
    /// same bytes; nil when the token has none), keeping `body` beside it when it is the
    /// plain body `device` was made of (and at most ``maxRememberedBodyBytes``): then the
    /// device also takes its recent slot.
    mutating func register(_ device: RegisteredDevice, key: HexKey?, body: UnsafeBufferPointer<UInt8>? = nil) {
        byToken[device.token] = device
        forgetRecent(device.token)
        guard let key else { return }
        let kept = body.flatMap { $0.count <= Self.maxRememberedBodyBytes ? Array($0) : nil } ?? []
        let keyed = Keyed(device: device, body: kept)
        byKey[key] = keyed
        guard !kept.isEmpty else { return }
        if recent.isEmpty { recent = Array(repeating: nil, count: Self.recentSlotCount) }
        var token = device.token
        recent[token.withUTF8 { Self.recentSlot($0) }] = keyed
    }

    /// Keeps `body`, the plain body of a registration the device whose token has `key` is
    /// already, beside that device when it keeps none (another path stored it); a body it
    /// keeps stays (a client may send the same fields in other bytes, in turns).
    mutating func keep(_ body: UnsafeBufferPointer<UInt8>, key: HexKey) {
        guard let keyed = byKey[key], keyed.body.isEmpty else { return }
        register(keyed.device, key: key, body: body)
    }

    /// Forgets every device.
    mutating func removeAll() {
        byToken.removeAll()
        byKey.removeAll()
        recent = []
    }

    /// Empties the recent slot of `token` (lowercase), whichever device is in it.
    private mutating func forgetRecent(_ token: String) {
        guard !recent.isEmpty else { return }
        var token = token
        recent[token.withUTF8 { Self.recentSlot($0) }] = nil
    }

    /// The recent slot of a token's bytes: its last eight (of a real token, random hex
    /// digits; fewer when it is shorter) as one word, multiplied by an odd constant, whose
    /// top bits choose. Tokens that share a slot only take it from each other: a miss costs
    /// a compare of the token's bytes and then the lookup by key, whatever tokens a client picks.
    static func recentSlot(_ token: UnsafeBufferPointer<UInt8>) -> Int {
        var word: UInt64 = 0
        if token.count >= 8, let base = token.baseAddress {
            word = UnsafeRawPointer(base + (token.count - 8)).loadUnaligned(as: UInt64.self)
        } else {
            for byte in token { word = word << 8 | UInt64(byte) }
        }
        let bits = UInt64(recentSlotCount.trailingZeroBitCount)
        return Int(truncatingIfNeeded: (word &* 0x9E37_79B9_7F4A_7C15) >> (64 &- bits))
    }

    /// Whether two byte runs of the same count are equal.
    private static func same(_ kept: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        kept.withUnsafeBufferPointer { same($0, bytes) }
    }

    private static func same(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard let left = lhs.baseAddress, let right = rhs.baseAddress else { return lhs.isEmpty }
        return memcmp(left, right, lhs.count) == 0
    }

    /// A token of at most 64 hex digits, four bits a digit, and how many digits it has: equal for tokens that are equal
    /// ignoring case.
    struct HexKey: Hashable {
        private var digits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        private var count: UInt8 = 0

        /// The key of a path parameter's bytes (hex digits in any case); nil when they are
        /// not 1 to 64 hex digits.
        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.init(bytes, lowercaseOnly: false)
        }

        /// The key of a token as the table stores it; nil unless it is 1 to 64 lowercase
        /// hex digits (an uppercase letter never reaches the table: tokens are lowercased).
        init?(lowercaseToken token: String) {
            var token = token
            guard let key = token.withUTF8({ HexKey($0, lowercaseOnly: true) }) else { return nil }
            self = key
        }

        private init?(_ bytes: UnsafeBufferPointer<UInt8>, lowercaseOnly: Bool) {
            guard let base = bytes.baseAddress, !bytes.isEmpty, bytes.count <= 64 else { return nil }
            count = UInt8(truncatingIfNeeded: bytes.count)
            let packed = withUnsafeMutableBytes(of: &digits) { digits in
                Self.pack(base, count: bytes.count, lowercaseOnly: lowercaseOnly, into: digits)
            }
            guard packed else { return nil }
        }

        /// Writes the values of `count` (at most 64) hex digits at `base` into `digits`, two
        /// a byte; false when one is not a hex digit (or, `lowercaseOnly`, is `A`-`F`).
        private static func pack(_ base: UnsafePointer<UInt8>, count: Int, lowercaseOnly: Bool,
                                 into digits: UnsafeMutableRawBufferPointer) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits: UInt64 = 0x8080_8080_8080_8080
            // 0x80 in each byte of an ASCII `word` within `low...high`.
            func within(_ word: UInt64, _ low: UInt8, _ high: UInt8) -> UInt64 {
                (word &+ ones &* UInt64(0x80 &- low)) & ~(word &+ ones &* UInt64(0x7F &- high)) & highBits
            }
            let caseBit: UInt64 = lowercaseOnly ? 0 : ones &* 0x20
            var index = 0
            // Digit i's value goes into byte i % 8 of word i / 16: its low four bits for an
            // even i / 8, its high four for an odd one. Eight digits at a time: checked, turned
            // into their values (a letter's low four bits plus 9) and added to their word; a
            // byte that is no digit sets a high bit of `wrong` (checked once, after them all:
            // what it put in its word then does not matter).
            var wrong: UInt64 = 0
            while count &- index >= 8 {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let letters = within(word | caseBit, 0x61, 0x66)
                wrong |= (word & highBits) | ((within(word, 0x30, 0x39) | letters) ^ highBits)
                let values = (word & (ones &* 0x0F)) &+ (letters >> 7) &* 9
                add(values << UInt64((index & 8) >> 1), toWordOf: index, digits)
                index &+= 8
            }
            guard wrong == 0 else { return false }
            while index < count {
                let byte = base[index]
                let value: UInt8
                if byte &- 0x30 < 10 {
                    value = byte &- 0x30
                } else if (lowercaseOnly ? byte : byte | 0x20) &- 0x61 < 6 {
                    value = (byte | 0x20) &- 0x57
                } else {
                    return false
                }
                add(UInt64(value) << UInt64((index & 7) << 3 | (index & 8) >> 1), toWordOf: index, digits)
                index &+= 1
            }
            return true
        }

        /// ORs `bits` into the word of digit `index` (four words of 16 digits).
        @inline(__always)
        private static func add(_ bits: UInt64, toWordOf index: Int, _ digits: UnsafeMutableRawBufferPointer) {
            let offset = (index >> 4) << 3
            digits.storeBytes(of: digits.load(fromByteOffset: offset, as: UInt64.self) | bits, toByteOffset: offset, as: UInt64.self)
        }

        static func == (lhs: HexKey, rhs: HexKey) -> Bool {
            lhs.digits == rhs.digits && lhs.count == rhs.count
        }

        /// The four words only: keys that differ in count alone (trailing zero digits) are at
        /// most 64 a class, so the hash skips it.
        func hash(into hasher: inout Hasher) {
            hasher.combine(digits.0)
            hasher.combine(digits.1)
            hasher.combine(digits.2)
            hasher.combine(digits.3)
        }
    }
}
