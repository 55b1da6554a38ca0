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
struct ParsedValueDecoder {
    static func decode<Value: Decodable>(_: Value.Type, from value: JSONValue) -> Value? {
        let run = Run()
        let decoder = Node(value: value, codingPath: [], run: run)
        guard let decoded = try? decoder.unwrap(value, as: Value.self, at: []), !run.diverged else { return nil }
        return decoded
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

    /// The decoder at one value; also its single-value container.
    struct Node: Decoder, SingleValueDecodingContainer {
        var value: JSONValue
        var codingPath: [any CodingKey]
        var run: Run
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func unwrap<T: Decodable>(_ value: JSONValue, as _: T.Type, at path: [any CodingKey]) throws -> T {
            if T.self == Data.self || T.self == URL.self || T.self == Decimal.self { throw run.diverge() }
            return try T(from: Node(value: value, codingPath: path, run: run))
        }

        func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = value else { throw run.diverge() }
            var byKey: [String: JSONValue] = [:]
            byKey.reserveCapacity(members.count)
            for member in members {
                guard byKey.updateValue(member.value.value, forKey: member.key) == nil else { throw run.diverge() }
            }
            return KeyedDecodingContainer(Keyed<Key>(members: byKey, decoder: self))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw run.diverge() }
            return Unkeyed(elements: elements, decoder: self)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

        func decodeNil() -> Bool { value == .null }

        func decode(_: Bool.Type) throws -> Bool {
            guard case .bool(let flag) = value else { throw run.diverge() }
            return flag
        }

        func decode(_: String.Type) throws -> String {
            guard case .string(let text) = value else { throw run.diverge() }
            return text
        }

        func decode(_: Double.Type) throws -> Double {
            guard case .number(let number) = value, number.doubleValue.isFinite,
                  number.doubleValue != 0 || !number.literal.hasPrefix("-") else { throw run.diverge() }
            return number.doubleValue
        }

        func decode(_: Float.Type) throws -> Float { throw run.diverge() }

        func integer<T: FixedWidthInteger>(_: T.Type) throws -> T {
            guard case .number(let number) = value, number.isIntegerLiteral, number.literal != "-0",
                  let integer = number.integerValue.flatMap(T.init(exactly:)) ?? T(number.literal) else { throw run.diverge() }
            return integer
        }

        func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try unwrap(value, as: type, at: codingPath) }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        var members: [String: JSONValue]
        var decoder: Node
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

        func node(_ key: Key) throws -> Node {
            guard let value = members[key.stringValue] else { throw decoder.run.diverge() }
            return Node(value: value, codingPath: decoder.codingPath + [key], run: decoder.run)
        }

        func decodeNil(forKey key: Key) throws -> Bool { try node(key).decodeNil() }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try node(key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try node(key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try node(key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try node(key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try node(key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try node(key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try node(key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try node(key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try node(key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try node(key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try node(key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try node(key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try node(key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try node(key).decode(type) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let node = try node(key)
            return try node.unwrap(node.value, as: type, at: node.codingPath)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try node(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try node(key).unkeyedContainer() }
        func superDecoder() throws -> any Decoder { throw decoder.run.diverge() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.run.diverge() }
    }
}
