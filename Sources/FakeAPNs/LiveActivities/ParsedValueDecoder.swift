import Contracts
import Foundation

/// Decodes a push's `content-state` or `attributes` from the value the contract already
/// parsed, instead of writing it out as JSON text and having a `JSONDecoder` parse it again.
///
/// It only answers when it is certain the default `JSONDecoder` would decode the same value
/// from that text: any request it cannot answer exactly — an error of any kind (even one the
/// type's `init(from:)` catches), a key given twice, a number other than a plain integer or a
/// finite non-zero-signed double, `Float`, `Data`, `URL`, `Decimal`, a super decoder —
/// makes ``decode(_:from:)`` return nil, and the caller decodes the text with `JSONDecoder`
/// as before, so values and messages stay exactly its own. Dates are the default strategy's
/// `Double` since 2001, which `Date(from:)` itself reads.
///
/// Cheap per value (issue 41): a ``Node`` is one reference (boxed as a decoder or a
/// single-value container without an allocation), and the containers read strings,
/// numbers, booleans and dates straight from the parsed values without a node at all.
struct ParsedValueDecoder {
    static func decode<Value: Decodable>(_: Value.Type, from value: JSONValue) -> Value? {
        try? decodeCertain(Value.self, from: value)
    }

    /// ``decode(_:from:)`` as a throwing call: an error where it returns nil. No optional of
    /// `Value` on the way (in generic code each costs a run-time metadata look-up).
    static func decodeCertain<Value: Decodable>(_: Value.Type, from value: JSONValue) throws -> Value {
        let run = Run()
        let decoded = try Node(value: value, parent: nil, key: nil, run: run).unwrap(Value.self)
        guard !run.diverged else { throw Diverged() }
        return decoded
    }

    /// `value` is JSON's null.
    static func isNull(_ value: JSONValue) -> Bool {
        if case .null = value { return true }
        return false
    }

    /// One decode: set once anything was not certain.
    final class Run {
        var diverged = false
        func diverge() -> any Error {
            diverged = true
            return Diverged()
        }
    }

    struct Diverged: Error {}

    /// The index keys `JSONDecoder` puts in a coding path.
    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String
        init(index: Int) { intValue = index; stringValue = "Index \(index)" }
        init?(stringValue: String) { return nil }
        init?(intValue: Int) { self.init(index: intValue) }
    }

    /// The decoder at one value; also its single-value container. Its coding path is its
    /// parents' keys, collected only when asked for.
    final class Node: Decoder, SingleValueDecodingContainer {
        let value: JSONValue
        let parent: Node?
        let key: (any CodingKey)?
        let run: Run

        init(value: JSONValue, parent: Node?, key: (any CodingKey)?, run: Run) {
            self.value = value
            self.parent = parent
            self.key = key
            self.run = run
        }

        var codingPath: [any CodingKey] {
            var keys: [any CodingKey] = []
            var node: Node? = self
            while let current = node {
                if let key = current.key { keys.append(key) }
                node = current.parent
            }
            return keys.reversed()
        }

        var userInfo: [CodingUserInfoKey: Any] { [:] }

        /// A child at `value` under `key` (a member's key or an index).
        func child(_ value: JSONValue, key: any CodingKey) -> Node {
            Node(value: value, parent: self, key: key, run: run)
        }

        /// `T` as the decoder reads a value of it: through `init(from:)`, except the types
        /// it reads its own way.
        func unwrap<T: Decodable>(_: T.Type) throws -> T {
            if T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw run.diverge() }
            return try T(from: self)
        }

        func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else { throw run.diverge() }
            return KeyedDecodingContainer(try Keyed<Key>(members: members, decoder: self))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw run.diverge() }
            return Unkeyed(elements: elements, decoder: self)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func decodeNil() -> Bool { ParsedValueDecoder.isNull(value) }
        func decode(_ type: Bool.Type) throws -> Bool { try run.read(value, as: type) }
        func decode(_ type: String.Type) throws -> String { try run.read(value, as: type) }
        func decode(_ type: Double.Type) throws -> Double { try run.read(value, as: type) }
        func decode(_ type: Float.Type) throws -> Float { try run.read(value, as: type) }
        func decode(_ type: Int.Type) throws -> Int { try run.read(value, as: type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try run.read(value, as: type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try run.read(value, as: type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try run.read(value, as: type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try run.read(value, as: type) }
        func decode(_ type: UInt.Type) throws -> UInt { try run.read(value, as: type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try run.read(value, as: type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try run.read(value, as: type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try run.read(value, as: type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try run.read(value, as: type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try unwrap(type) }
    }
}

extension ParsedValueDecoder.Run {
    func read(_ value: JSONValue, as _: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw diverge() }
        return flag
    }

    func read(_ value: JSONValue, as _: String.Type) throws -> String {
        guard case .string(let text) = value else { throw diverge() }
        return text
    }

    func read(_ value: JSONValue, as _: Double.Type) throws -> Double {
        guard case .number(let number) = value, number.doubleValue.isFinite,
              number.doubleValue != 0 || !number.literal.hasPrefix("-") else { throw diverge() }
        return number.doubleValue
    }

    func read(_: JSONValue, as _: Float.Type) throws -> Float { throw diverge() }

    func read<T: FixedWidthInteger>(_ value: JSONValue, as _: T.Type) throws -> T {
        guard case .number(let number) = value, number.isIntegerLiteral, number.literal != "-0",
              let integer = number.integerValue.flatMap(T.init(exactly:)) ?? T(number.literal) else { throw diverge() }
        return integer
    }

    /// True for the types ``direct(_:_:)`` reads: those the decoder reads without a decoder of
    /// their own — a `Date` (the default strategy: `Date(from:)` reads a `Double` since
    /// 2001), `String`, `Bool`, `Double`, `Int`, `Int64` — as their `init(from:)` reads them
    /// from a single-value container.
    static func readsDirectly(_ type: Any.Type) -> Bool {
        type == Date.self || type == String.self || type == Int.self || type == Double.self || type == Bool.self || type == Int64.self
    }

    /// `value` read as a `T` of ``readsDirectly(_:)``, without a node; any other type diverges.
    func direct<T>(_: T.Type, _ value: JSONValue) throws -> T {
        let read: Any
        if T.self == Date.self {
            read = Date(timeIntervalSinceReferenceDate: try self.read(value, as: Double.self))
        } else if T.self == String.self {
            read = try self.read(value, as: String.self)
        } else if T.self == Int.self {
            read = try self.read(value, as: Int.self)
        } else if T.self == Double.self {
            read = try self.read(value, as: Double.self)
        } else if T.self == Bool.self {
            read = try self.read(value, as: Bool.self)
        } else if T.self == Int64.self {
            read = try self.read(value, as: Int64.self)
        } else {
            throw diverge()
        }
        // Cast in a pattern: no optional of `T` (a run-time metadata look-up in generic code).
        switch read {
        case let typed as T: return typed
        default: throw diverge()
        }
    }
}
