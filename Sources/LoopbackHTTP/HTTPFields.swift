/// An ordered list of HTTP header fields whose names compare case-insensitively.
///
/// Order and duplicates are kept as received, so a fake can report a duplicated header
/// (APNs answers `DuplicateHeaders`) and a test can compare whole messages.
///
/// Equality agrees with lookup: two lists are equal when they hold the same fields in the
/// same order, names compared ASCII case-insensitively (as `headers["Content-Type"]` finds
/// `content-type`) and values exactly; the hash agrees with that equality. Order counts
/// because it is what goes on the wire, as in swift-http-types' `HTTPFields`.
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
            for byte in name.utf8 { hasher.combine(byte >= 65 && byte <= 90 ? byte + 32 : byte) }
            hasher.combine(name.utf8.count)
            hasher.combine(value)
        }
    }

    package private(set) var fields: [Field]

    package init() { fields = [] }
    package init(_ fields: [Field]) { self.fields = fields }
    package init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    package func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }
    package var count: Int { fields.count }
    package var isEmpty: Bool { fields.isEmpty }

    /// The first value of the named field, or nil.
    package subscript(name: String) -> String? {
        get {
            for field in fields where Self.namesEqual(field.name, name) { return field.value }
            return nil
        }
        set {
            fields.removeAll { Self.namesEqual($0.name, name) }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Every value of the named field, in order.
    package func values(for name: String) -> [String] {
        fields.filter { Self.namesEqual($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping any existing one of the same name.
    package mutating func append(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// ASCII case-insensitive comparison of two field names, without allocating.
    @inlinable
    package static func namesEqual(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { pa in
            b.withUTF8 { pb in
                guard pa.count == pb.count else { return false }
                for i in 0..<pa.count {
                    var x = pa[i], y = pb[i]
                    if x >= 65 && x <= 90 { x += 32 }
                    if y >= 65 && y <= 90 { y += 32 }
                    if x != y { return false }
                }
                return true
            }
        }
    }
}
