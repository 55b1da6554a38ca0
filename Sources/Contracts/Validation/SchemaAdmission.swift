/// A ``Schema`` compiled once for one question: would ``SchemaValidator`` report nothing
/// about this node? The walk without paths, messages or violations, over classes built at
/// start (no schema value is copied per document), for documents that are almost always
/// valid.
///
/// `admits` may say false for a valid document (an object of more than 16 members, or
/// nesting deeper than 64); the caller then runs the validator, so a false costs time,
/// never an answer. The tests compare the two over random and mutated documents.
final class SchemaAdmission: Sendable {
    enum Tag { case any, object, string, integer, number, boolean, integerFlag, constants, array, nullable, anyOf, forbidden }

    let tag: Tag
    /// Bit `typeBit(node)` set when ``SchemaValidator/accepts(_:_:)`` holds for a node of that JSON type.
    let acceptedTypes: UInt8
    let string: StringSchema?
    let integerBounds: IntegerSchema?
    let numberBounds: NumberSchema?
    let constants: [JSONConstant]
    let itemBounds: (minimum: Int?, maximum: Int?)
    /// Array items (one), the nullable's inner schema (one), the alternatives, or the
    /// declared members' schemas.
    let children: [SchemaAdmission]
    /// ``children`` without reference counting, kept alive by ``children``: the walk over a
    /// ``FlatJSON`` document follows these, retaining and releasing nothing per member.
    let unretainedChildren: [Unmanaged<SchemaAdmission>]
    /// Object: declared names, and as bit masks (at most 64 members) which are required
    /// and which forbidden.
    let names: [String]
    /// ``names`` as bytes: for keys read without a `String` (``FlatJSON``).
    let nameKeys: ByteKeys
    /// ``string`` compiled for ASCII bytes (``FlatJSON``'s strings).
    let stringCheck: ASCIIStringCheck?
    let required: UInt64
    let forbidden: UInt64
    let rejectsUnknown: Bool

    /// Compiles `schema`, or nil when an object declares more than 64 members.
    init?(_ schema: Schema) {
        var string: StringSchema?, integerBounds: IntegerSchema?, numberBounds: NumberSchema?
        var constants: [JSONConstant] = [], children: [SchemaAdmission] = [], names: [String] = []
        var itemBounds: (Int?, Int?) = (nil, nil)
        var required: UInt64 = 0, forbidden: UInt64 = 0, rejectsUnknown = false
        switch schema.kind {
        case .any: tag = .any
        case .boolean: tag = .boolean
        case .integerFlag: tag = .integerFlag
        case .forbidden: tag = .forbidden
        case .string(let s): tag = .string; string = s
        case .integer(let i): tag = .integer; integerBounds = i
        case .number(let n): tag = .number; numberBounds = n
        case .constants(let c): tag = .constants; constants = c
        case .array(let array):
            tag = .array
            guard let items = SchemaAdmission(array.items) else { return nil }
            children = [items]
            itemBounds = (array.minItems, array.maxItems)
        case .nullable(let inner):
            tag = .nullable
            guard let compiled = SchemaAdmission(inner) else { return nil }
            children = [compiled]
        case .anyOf(let alternatives):
            tag = .anyOf
            for alternative in alternatives {
                guard let compiled = SchemaAdmission(alternative) else { return nil }
                children.append(compiled)
            }
        case .object(let object):
            tag = .object
            guard object.members.count <= 64 else { return nil }
            for (index, member) in object.members.enumerated() {
                guard let compiled = SchemaAdmission(member.schema) else { return nil }
                children.append(compiled)
                names.append(member.name)
                if member.isRequired { required |= 1 << UInt64(index) }
                if case .forbidden = member.schema.kind { forbidden |= 1 << UInt64(index) }
            }
            rejectsUnknown = object.unknownMembers == .reject
        }
        self.string = string
        self.integerBounds = integerBounds
        self.numberBounds = numberBounds
        self.constants = constants
        self.children = children
        self.names = names
        self.unretainedChildren = children.map { Unmanaged.passUnretained($0) }
        self.nameKeys = ByteKeys(names)
        self.stringCheck = string.map(ASCIIStringCheck.init)
        self.itemBounds = itemBounds
        self.required = required
        self.forbidden = forbidden
        self.rejectsUnknown = rejectsUnknown
        var accepted: UInt8 = 0
        let samples: [JSONValue] = [.null, .bool(false), .number(JSONNumber(0)), .string(""), .array([]), .object([])]
        for (bit, sample) in samples.enumerated() where SchemaValidator.accepts(schema, JSONNode(sample)) {
            accepted |= 1 << UInt8(bit)
        }
        acceptedTypes = accepted
    }

    /// The bit of `node`'s JSON type in ``acceptedTypes`` (the order of the samples above).
    @inline(__always)
    static func typeBit(_ node: JSONNode) -> UInt8 {
        switch node.value {
        case .null: return 1
        case .bool: return 1 << 1
        case .number: return 1 << 2
        case .string: return 1 << 3
        case .array: return 1 << 4
        case .object: return 1 << 5
        }
    }

    /// True only when the validator would report nothing about `node`.
    func admits(_ node: JSONNode) -> Bool {
        admits(node, depth: 0)
    }

    private func admits(_ node: JSONNode, depth: Int) -> Bool {
        guard depth < 64 else { return false }
        switch tag {
        case .any:
            return true
        case .forbidden:
            return false
        case .object:
            return admitsObject(node, depth: depth)
        case .string:
            guard case .string(let text) = node.value else { return false }
            return string?.admits(text) ?? false
        case .integer:
            guard case .number(let number) = node.value, number.isIntegerLiteral, let value = number.integerValue else { return false }
            if let minimum = integerBounds?.minimum, value < minimum { return false }
            if let maximum = integerBounds?.maximum, value > maximum { return false }
            return true
        case .number:
            guard case .number(let number) = node.value else { return false }
            if let minimum = numberBounds?.minimum, number.doubleValue < minimum { return false }
            if let maximum = numberBounds?.maximum, number.doubleValue > maximum { return false }
            return true
        case .boolean:
            if case .bool = node.value { return true }
            return false
        case .integerFlag:
            return JSONConstant.integer(0).matches(node) || JSONConstant.integer(1).matches(node)
        case .constants:
            return constants.contains { $0.matches(node) }
        case .array:
            guard case .array(let items) = node.value, children.count == 1 else { return false }
            if let minimum = itemBounds.minimum, items.count < minimum { return false }
            if let maximum = itemBounds.maximum, items.count > maximum { return false }
            return unretainedChildren[0]._withUnsafeGuaranteedRef { item in
                for index in items.indices where !item.admits(items[index], depth: depth + 1) { return false }
                return true
            }
        case .nullable:
            if case .null = node.value { return true }
            guard children.count == 1 else { return false }
            return unretainedChildren[0]._withUnsafeGuaranteedRef { inner in
                inner.acceptedTypes & Self.typeBit(node) != 0 && inner.admits(node, depth: depth + 1)
            }
        case .anyOf:
            // The validator passes a node when one alternative that accepts its type passes.
            let bit = Self.typeBit(node)
            for index in unretainedChildren.indices {
                let admitted = unretainedChildren[index]._withUnsafeGuaranteedRef { alternative in
                    alternative.acceptedTypes & bit != 0 && alternative.admits(node, depth: depth + 1)
                }
                if admitted { return true }
            }
            return false
        }
    }

    /// No duplicate key, no undeclared member where they are rejected, no forbidden member,
    /// every declared member admitted, every required one present.
    private func admitsObject(_ node: JSONNode, depth: Int) -> Bool {
        guard case .object(let found) = node.value, found.count <= 16 else { return false }
        var present: UInt64 = 0
        for position in found.indices {
            let count = found[position].key.utf8.count
            for earlier in 0..<position where found[earlier].key.utf8.count == count && found[earlier].key == found[position].key {
                return false
            }
            var index = 0
            while index < names.count && !(names[index].utf8.count == count && names[index] == found[position].key) {
                index += 1
            }
            guard index < names.count else {
                if rejectsUnknown { return false }
                continue
            }
            let bit: UInt64 = 1 << UInt64(index)
            guard forbidden & bit == 0,
                  unretainedChildren[index]._withUnsafeGuaranteedRef({ $0.admits(found[position].value, depth: depth + 1) }) else { return false }
            present |= bit
        }
        return required & ~present == 0
    }
}
