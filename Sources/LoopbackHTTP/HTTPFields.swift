/// An ordered list of HTTP header fields whose names compare case-insensitively.
///
/// Order and duplicates are kept as received, so a fake can report a duplicated header
/// (APNs answers `DuplicateHeaders`) and a test can compare whole messages.
///
/// Equality agrees with lookup: two lists are equal when they hold the same fields in the
/// same order, names compared ASCII case-insensitively (as `headers["Content-Type"]` finds
/// `content-type`) and values exactly; the hash agrees with that equality. Order counts
/// because it is what goes on the wire, as in swift-http-types' `HTTPFields`.
///
/// Fields given as Strings are kept as Strings. Fields a parser appends as bytes
/// (``appendBytes(name:value:)``, every field of an HTTP/1.1 request head) are kept in one
/// byte buffer, without a String or an allocation per field; a String is made only when a
/// field is read (`headers["Authorization"]` makes the value's, iteration both).
package struct HTTPFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as received or as it will be sent.
    /// Equal to another field with the same name in any ASCII case and the same value.
    package struct Field: Sendable, Hashable {
        /// The name as written; compared with ``HTTPFields/namesEqual(_:_:)``.
        package var name: String
        package var value: String
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        package static func == (lhs: Field, rhs: Field) -> Bool {
            HTTPFields.namesEqual(lhs.name, rhs.name) && lhs.value == rhs.value
        }

        package func hash(into hasher: inout Hasher) {
            for byte in name.utf8 { hasher.combine(ASCII.lowercase(byte)) }
            hasher.combine(name.utf8.count)
            hasher.combine(value)
        }
    }

    /// Fields given as Strings. At most one of `strings` and `packed` holds fields.
    private var strings: [Field]
    /// Fields appended as bytes, one record each: the name's length and the value's (4 bytes
    /// each, little-endian), then the name's bytes and the value's.
    private var packed: [UInt8]
    private var packedCount: Int

    package init() {
        strings = []
        packed = []
        packedCount = 0
    }

    package init(_ fields: [Field]) {
        strings = fields
        packed = []
        packedCount = 0
    }

    package init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements.map { Field(name: $0.0, value: $0.1) })
    }

    /// Every field, in order.
    package var fields: [Field] { packed.isEmpty ? strings : Array(self) }
    package var count: Int { strings.count + packedCount }
    package var isEmpty: Bool { count == 0 }

    package func makeIterator() -> Iterator { Iterator(strings: strings, packed: packed) }

    /// Yields the fields in order; a field kept as bytes becomes Strings here.
    package struct Iterator: IteratorProtocol {
        fileprivate let strings: [Field]
        fileprivate let packed: [UInt8]
        private var index = 0
        private var offset = 0

        fileprivate init(strings: [Field], packed: [UInt8]) {
            self.strings = strings
            self.packed = packed
        }

        package mutating func next() -> Field? {
            if index < strings.count {
                index += 1
                return strings[index - 1]
            }
            guard offset < packed.count else { return nil }
            let start = offset
            return packed.withUnsafeBufferPointer { bytes in
                let record = HTTPFields.record(in: bytes, at: start)
                offset = record.end
                return Field(name: String(decoding: UnsafeBufferPointer(rebasing: bytes[record.name]), as: UTF8.self),
                             value: String(decoding: UnsafeBufferPointer(rebasing: bytes[record.value]), as: UTF8.self))
            }
        }
    }

    /// The first value of the named field, or nil.
    package subscript(name: String) -> String? {
        get {
            if packed.isEmpty {
                for field in strings where Self.namesEqual(field.name, name) { return field.value }
                return nil
            }
            var name = name
            return name.withUTF8 { name in
                packed.withUnsafeBufferPointer { bytes -> String? in
                    var offset = 0
                    while offset < bytes.count {
                        let record = Self.record(in: bytes, at: offset)
                        if Self.namesEqual(UnsafeBufferPointer(rebasing: bytes[record.name]), name) {
                            return String(decoding: UnsafeBufferPointer(rebasing: bytes[record.value]), as: UTF8.self)
                        }
                        offset = record.end
                    }
                    return nil
                }
            }
        }
        set {
            if packed.isEmpty {
                strings.removeAll { Self.namesEqual($0.name, name) }
                if let newValue { strings.append(Field(name: name, value: newValue)) }
                return
            }
            let kept = HTTPFields(filter { !Self.namesEqual($0.name, name) })
            self = HTTPFields()
            for field in kept { appendBytes(field.name, field.value) }
            if let newValue { appendBytes(name, newValue) }
        }
    }

    /// Every value of the named field, in order.
    package func values(for name: String) -> [String] {
        filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// Makes room for `count` fields in all appended as Strings (``append(name:value:)``), so
    /// that a list built field by field is not regrown on the way.
    package mutating func reserveCapacity(_ count: Int) {
        if packed.isEmpty { strings.reserveCapacity(count) }
    }

    /// Appends a field, keeping any existing one of the same name.
    package mutating func append(name: String, value: String) {
        if packed.isEmpty {
            strings.append(Field(name: name, value: value))
        } else {
            appendBytes(name, value)
        }
    }

    /// Appends a field given as bytes, kept as bytes (no String is made until it is read).
    /// Fields already given as Strings are moved to bytes first, so order is kept.
    package mutating func appendBytes(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        if !strings.isEmpty {
            let given = strings
            strings = []
            for field in given { appendBytes(field.name, field.value) }
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 8) { lengths in
            guard let start = lengths.baseAddress else { return }
            Self.writeLengths(name.count, value.count, to: start)
            packed.append(contentsOf: UnsafeBufferPointer(start: start, count: 8))
        }
        packed.append(contentsOf: name)
        packed.append(contentsOf: value)
        packedCount += 1
    }

    /// Fields kept as bytes, from records a ``RecordWriter`` wrote: one copy, one allocation.
    package init(records: RecordWriter) {
        var storage: [UInt8] = []
        self.init(records: records, reusing: &storage)
    }

    /// As ``init(records:)``, the records copied into `storage` (taken, left empty): a buffer
    /// ``takeByteStorage()`` gave back, so a connection's requests reuse one allocation.
    package init(records: RecordWriter, reusing storage: inout [UInt8]) {
        strings = []
        packed = []
        swap(&packed, &storage)
        // What the buffer held is replaced in one call (emptying it first was a second).
        packed.replaceSubrange(0..<packed.count, with: UnsafeBufferPointer(start: records.base, count: records.byteCount))
        packedCount = records.fieldCount
    }

    /// Takes the buffer that keeps fields appended as bytes, its capacity kept and its bytes
    /// left for ``init(records:reusing:)`` of the next request to replace, and leaves no
    /// field. (A copy of these fields kept elsewhere keeps its own bytes: the next request
    /// then writes into a fresh buffer.)
    package mutating func takeByteStorage() -> [UInt8] {
        var storage: [UInt8] = []
        swap(&storage, &packed)
        self = HTTPFields()
        return storage
    }

    private mutating func appendBytes(_ name: String, _ value: String) {
        var name = name, value = value
        name.withUTF8 { name in value.withUTF8 { value in appendBytes(name: name, value: value) } }
    }

    /// Calls `body` with each field's name and value bytes, in order, without making Strings.
    package func forEachFieldBytes(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Void) {
        for field in strings {
            var name = field.name, value = field.value
            name.withUTF8 { name in value.withUTF8 { value in body(name, value) } }
        }
        packed.withUnsafeBufferPointer { bytes in
            var offset = 0
            while offset < bytes.count {
                let record = Self.record(in: bytes, at: offset)
                body(UnsafeBufferPointer(rebasing: bytes[record.name]), UnsafeBufferPointer(rebasing: bytes[record.value]))
                offset = record.end
            }
        }
    }

    package static func == (lhs: HTTPFields, rhs: HTTPFields) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.packed.isEmpty && rhs.packed.isEmpty { return lhs.strings == rhs.strings }
        return lhs.elementsEqual(rhs)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for field in self { hasher.combine(field) }
    }

    /// Where the record at `offset` keeps its name and value, and where the next one starts.
    /// `packed` is only ever written by `appendBytes`, so every record is whole.
    @inline(__always)
    private static func record(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (name: Range<Int>, value: Range<Int>, end: Int) {
        let nameCount = length(in: bytes, at: offset)
        let valueCount = length(in: bytes, at: offset + 4)
        let nameStart = offset + 8
        let valueStart = nameStart + nameCount
        return (nameStart..<valueStart, valueStart..<(valueStart + valueCount), valueStart + valueCount)
    }

    /// A length as ``writeLengths(_:_:to:)`` stored it, loaded whole (the caller read the
    /// record's place from the lengths before it, so the four bytes are there).
    @inline(__always)
    private static func length(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        return Int(UInt32(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt32.self)))
    }

    /// A record's two lengths, 4 bytes each, little-endian (two unaligned stores).
    @inline(__always)
    static func writeLengths(_ name: Int, _ value: Int, to bytes: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(bytes)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: name).littleEndian, as: UInt32.self)
        raw.storeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian, toByteOffset: 4, as: UInt32.self)
    }

    /// ASCII case-insensitive comparison of two field names, without allocating.
    @inlinable
    package static func namesEqual(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { pa in b.withUTF8 { pb in namesEqual(pa, pb) } }
    }

    /// ASCII case-insensitive comparison of two field names given as bytes.
    @inlinable
    package static func namesEqual(_ pa: UnsafeBufferPointer<UInt8>, _ pb: UnsafeBufferPointer<UInt8>) -> Bool {
        guard pa.count == pb.count else { return false }
        for i in 0..<pa.count where ASCII.lowercase(pa[i]) != ASCII.lowercase(pb[i]) { return false }
        return true
    }

    /// Calls `body` with the bytes of the first value of the field named `first` and of the
    /// one named `second` (nil for a field that is absent): what `self[first]` and
    /// `self[second]` give, in one pass and without making a String (a fake reads the same
    /// two fields of every request).
    package func withFirstValues<Result>(
        of first: StaticString, _ second: StaticString,
        _ body: (_ first: UnsafeBufferPointer<UInt8>?, _ second: UnsafeBufferPointer<UInt8>?) throws -> Result
    ) rethrows -> Result {
        let firstName = UnsafeBufferPointer(start: first.utf8Start, count: first.utf8CodeUnitCount)
        let secondName = UnsafeBufferPointer(start: second.utf8Start, count: second.utf8CodeUnitCount)
        if packed.isEmpty {
            // As the subscript: the first field of each name among the Strings.
            var firstIndex: Int?
            var secondIndex: Int?
            for index in strings.indices where firstIndex == nil || secondIndex == nil {
                var name = strings[index].name
                name.withUTF8 { name in
                    if firstIndex == nil, Self.namesEqualByWords(name, firstName) { firstIndex = index }
                    if secondIndex == nil, Self.namesEqualByWords(name, secondName) { secondIndex = index }
                }
            }
            var firstValue = firstIndex.map { strings[$0].value } ?? ""
            var secondValue = secondIndex.map { strings[$0].value } ?? ""
            return try firstValue.withUTF8 { firstBytes in
                try secondValue.withUTF8 { secondBytes in
                    try body(firstIndex == nil ? nil : firstBytes, secondIndex == nil ? nil : secondBytes)
                }
            }
        }
        return try packed.withUnsafeBufferPointer { bytes in
            var firstValue: UnsafeBufferPointer<UInt8>?
            var secondValue: UnsafeBufferPointer<UInt8>?
            var offset = 0
            while offset < bytes.count, firstValue == nil || secondValue == nil {
                let record = Self.record(in: bytes, at: offset)
                // Lengths first: most fields are neither.
                if record.name.count == firstName.count || record.name.count == secondName.count {
                    let name = UnsafeBufferPointer(rebasing: bytes[record.name])
                    let value = UnsafeBufferPointer(rebasing: bytes[record.value])
                    if firstValue == nil, Self.namesEqualByWords(name, firstName) { firstValue = value }
                    if secondValue == nil, Self.namesEqualByWords(name, secondName) { secondValue = value }
                }
                offset = record.end
            }
            return try body(firstValue, secondValue)
        }
    }

    /// ``namesEqual(_:_:)-(UnsafeBufferPointer<UInt8>,_)``, eight bytes at a time: each
    /// 64-bit word is ASCII-lowercased in one go (a name of 8 bytes or more is compared as
    /// its leading words and one last word that may overlap them).
    private static func namesEqualByWords(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = a.count
        guard count == b.count else { return false }
        guard count >= 8, let left = a.baseAddress, let right = b.baseAddress else { return namesEqual(a, b) }
        @inline(__always) func word(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self))
            // 0x80 in each byte that is A-Z (the sums stay within their bytes: 7-bit inputs).
            let low = word & 0x7F7F_7F7F_7F7F_7F7F
            let upper = (low &+ 0x3F3F_3F3F_3F3F_3F3F) & ~(low &+ 0x2525_2525_2525_2525) & ~word & 0x8080_8080_8080_8080
            return word | upper >> 2
        }
        @inline(__always) func raw(_ base: UnsafePointer<UInt8>, _ offset: Int) -> UInt64 {
            UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
        }
        var offset = 0
        while count - offset > 8 {
            // Most names come as written: equal bytes need no folding.
            guard raw(left, offset) == raw(right, offset) || word(left, offset) == word(right, offset) else { return false }
            offset += 8
        }
        return raw(left, count - 8) == raw(right, count - 8) || word(left, count - 8) == word(right, count - 8)
    }
}
