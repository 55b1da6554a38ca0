import Contracts

extension ParsedValueDecoder {
    /// An object's members, looked up as the decoder's `[String: …]` does (Swift string
    /// equality); a key given twice diverges. A few members are scanned in order, more are
    /// put in a dictionary.
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        static var scannedMembers: Int { 16 }

        var members: [JSONMember]
        var byKey: [String: JSONValue]?
        var decoder: Node
        var codingPath: [any CodingKey] { decoder.codingPath }

        init(members: [JSONMember], decoder: Node) throws {
            self.members = members
            self.decoder = decoder
            if members.count <= Self.scannedMembers {
                for index in members.indices {
                    for earlier in 0..<index where members[earlier].key == members[index].key {
                        throw decoder.run.diverge()
                    }
                }
            } else {
                var byKey: [String: JSONValue] = [:]
                byKey.reserveCapacity(members.count)
                for member in members where byKey.updateValue(member.value.value, forKey: member.key) != nil {
                    throw decoder.run.diverge()
                }
                self.byKey = byKey
            }
        }

        var allKeys: [Key] {
            byKey.map { $0.keys.compactMap { Key(stringValue: $0) } } ?? members.compactMap { Key(stringValue: $0.key) }
        }

        func lookUp(_ key: Key) -> JSONValue? {
            let name = key.stringValue
            if let byKey { return byKey[name] }
            for index in members.indices where members[index].key == name {
                return members[index].value.value
            }
            return nil
        }

        func contains(_ key: Key) -> Bool { lookUp(key) != nil }

        func value(_ key: Key) throws -> JSONValue {
            guard let value = lookUp(key) else { throw decoder.run.diverge() }
            return value
        }

        func node(_ key: Key) throws -> Node {
            decoder.child(try value(key), key: key)
        }

        /// Nil when absent or null, as the decoder's `decodeIfPresent`, else `read` of it.
        func ifPresent<T>(_ key: Key, _ read: (JSONValue) throws -> T) throws -> T? {
            guard let value = lookUp(key), !ParsedValueDecoder.isNull(value) else { return nil }
            return try read(value)
        }

        func decodeNil(forKey key: Key) throws -> Bool { ParsedValueDecoder.isNull(try value(key)) }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.run.read(value(key), as: type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.run.read(value(key), as: type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder.run.read(value(key), as: type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.run.read(value(key), as: type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.run.read(value(key), as: type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.run.read(value(key), as: type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.run.read(value(key), as: type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.run.read(value(key), as: type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.run.read(value(key), as: type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.run.read(value(key), as: type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.run.read(value(key), as: type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.run.read(value(key), as: type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.run.read(value(key), as: type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.run.read(value(key), as: type) }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let value = try value(key)
            if ParsedValueDecoder.Run.readsDirectly(T.self) { return try decoder.run.direct(type, value) }
            return try decoder.child(value, key: key).unwrap(type)
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try ifPresent(key) { try decoder.run.read($0, as: type) } }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let value = lookUp(key), !ParsedValueDecoder.isNull(value) else { return nil }
            if ParsedValueDecoder.Run.readsDirectly(T.self) { return try decoder.run.direct(type, value) }
            return try decoder.child(value, key: key).unwrap(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try node(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { try node(key).unkeyedContainer() }
        func superDecoder() throws -> any Decoder { throw decoder.run.diverge() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw decoder.run.diverge() }
    }
}
