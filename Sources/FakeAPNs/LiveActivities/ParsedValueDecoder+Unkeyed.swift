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

        /// The current element's value.
        func currentValue() throws -> JSONValue {
            guard currentIndex < elements.count else { throw decoder.run.diverge() }
            return elements[currentIndex].value
        }

        /// The decoder at the current element.
        func current() throws -> Node {
            decoder.child(try currentValue(), key: IndexKey(index: currentIndex))
        }

        /// The current element read by `read`, then the next one is current.
        mutating func next<T>(_ read: (Run, JSONValue) throws -> T) throws -> T {
            let value = try read(decoder.run, currentValue())
            currentIndex += 1
            return value
        }

        /// Nil (and past it) when the current element is null, else `read` of it.
        mutating func nextIfPresent<T>(_ read: (Run, JSONValue) throws -> T) throws -> T? {
            if ParsedValueDecoder.isNull(try currentValue()) {
                currentIndex += 1
                return nil
            }
            return try next(read)
        }

        /// The current element as a `T` (``ParsedValueDecoder/Run/direct(_:_:)`` or through
        /// its `init(from:)`), then the next one is current.
        mutating func nextDecoded<T: Decodable>(_ type: T.Type) throws -> T {
            let value = try currentValue()
            let read = try ParsedValueDecoder.Run.readsDirectly(T.self) ? decoder.run.direct(type, value) : current().unwrap(type)
            currentIndex += 1
            return read
        }

        mutating func decodeNil() throws -> Bool {
            guard ParsedValueDecoder.isNull(try currentValue()) else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: String.Type) throws -> String { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.read($1, as: type) } }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.read($1, as: type) } }
        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try nextDecoded(type) }

        mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try nextIfPresent { try $0.read($1, as: type) } }
        mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
            if ParsedValueDecoder.isNull(try currentValue()) {
                currentIndex += 1
                return nil
            }
            return try nextDecoded(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let container = try current().container(keyedBy: type)
            currentIndex += 1
            return container
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let container = try current().unkeyedContainer()
            currentIndex += 1
            return container
        }
        mutating func superDecoder() throws -> any Decoder { throw decoder.run.diverge() }
    }
}
