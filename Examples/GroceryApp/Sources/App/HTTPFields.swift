/// Header fields in the order they were added; names compare case-insensitively.
public struct HTTPFields: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One field as sent.
    public struct Field: Sendable, Hashable {
        public var name: String
        public var value: String
    }

    private var fields: [Field] = []

    /// No fields.
    public init() {}

    /// Fields in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { append(name, value) }
    }

    /// Adds a field, keeping any of the same name.
    public mutating func append(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// The first value of `name` in any case; setting replaces every field of that name.
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            fields.removeAll { Self.same($0.name, name) }
            if let newValue { append(name, newValue) }
        }
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    private static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}
