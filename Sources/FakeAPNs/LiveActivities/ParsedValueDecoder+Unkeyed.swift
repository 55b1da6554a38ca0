import Contracts

extension ParsedValueDecoder {
    /// An array's elements in order. Past the end every request diverges (also
    /// `decodeIfPresent`, whose answer there is the decoder's own affair).
    struct Unkeyed: UnkeyedDecodingContainer {
        var elements: [JSONNode]
        var decoder: Node
        var currentIndex = 0
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        init(elements: [JSONNode], decoder: Node) {
            self.elements = elements
            self.decoder = decoder
        }

        func current() throws -> Node {
            guard currentIndex < elements.count else { throw decoder.run.diverge() }
            return Node(value: elements[currentIndex].value, parentPath: decoder.codingPath, key: IndexKey(index: currentIndex), run: decoder.run)
        }

        /// The current element read by `read`, then the next one is current.
        mutating func next<T>(_ read: (Node) throws -> T) throws -> T {
            let value = try read(current())
            currentIndex += 1
            return value
        }

        /// Nil (and past it) when the current element is null, else `read` of it.
        mutating func nextIfPresent<T>(_ read: (Node) throws -> T) throws -> T? {
            if try current().decodeNil() {
                currentIndex += 1
                return nil
            }
            return try next(read)
        }

        mutating func decodeNil() throws -> Bool {
            guard try current().decodeNil() else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.decode(type) } }
        mutating func decode(_ type: String.Type) throws -> String { try next { try $0.decode(type) } }
        mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.decode(type) } }
        mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.decode(type) } }
        mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.decode(type) } }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.decode(type) } }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.decode(type) } }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.decode(type) } }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.decode(type) } }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.decode(type) } }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.decode(type) } }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.decode(type) } }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.decode(type) } }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.decode(type) } }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next { try $0.unwrap(type) } }

        mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try nextIfPresent { try $0.decode(type) } }
        mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
            try nextIfPresent { try $0.unwrap(type) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next { try $0.container(keyedBy: type) }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next { try $0.unkeyedContainer() } }
        mutating func superDecoder() throws -> any Decoder { throw decoder.run.diverge() }
    }
}
