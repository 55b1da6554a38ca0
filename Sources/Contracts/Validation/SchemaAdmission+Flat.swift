/// ``SchemaAdmission/admits(_:)`` over a ``FlatJSON`` document: the same answer for the same
/// values, without a ``JSONNode`` tree (keys are compared as bytes; a string value becomes a
/// `String` only for its ``StringSchema``).
extension SchemaAdmission {
    /// True only when the validator would report nothing about the node at `index` of `document`.
    func admits(_ document: FlatJSON, _ index: Int) -> Bool {
        admits(document, index, depth: 0)
    }

    private func admits(_ document: FlatJSON, _ index: Int, depth: Int) -> Bool {
        guard depth < 64 else { return false }
        let node = document.nodes[index]
        switch tag {
        case .any, .forbidden:
            return tag == .any
        case .object:
            return admitsObject(document, index, depth: depth)
        case .string:
            guard node.kind == .string else { return false }
            return string?.admits(ascii: document.utf8(index), isBase64: isBase64) ?? false
        case .integer:
            // FlatJSON reads integer literals only, each within Int64.
            guard node.kind == .number else { return false }
            if let minimum = integerBounds?.minimum, node.integer < minimum { return false }
            if let maximum = integerBounds?.maximum, node.integer > maximum { return false }
            return true
        case .number:
            // Exact as a Double below 2^53, as the reader's reading of the literal.
            guard node.kind == .number, node.integer.magnitude < 1 << 53 else { return false }
            let value = Double(node.integer)
            if let minimum = numberBounds?.minimum, value < minimum { return false }
            if let maximum = numberBounds?.maximum, value > maximum { return false }
            return true
        case .boolean:
            return node.kind == .bool
        case .integerFlag:
            return node.kind == .number && (node.integer == 0 || node.integer == 1)
        case .constants:
            return constants.contains { Self.matches($0, document, index) }
        case .array:
            guard node.kind == .array, children.count == 1 else { return false }
            if let minimum = itemBounds.minimum, node.count < minimum { return false }
            if let maximum = itemBounds.maximum, node.count > maximum { return false }
            var item = index &+ 1
            for _ in 0..<node.count {
                guard children[0].admits(document, item, depth: depth + 1) else { return false }
                item = document.nodes[item].next
            }
            return true
        case .nullable:
            if node.kind == .null { return true }
            guard children.count == 1 else { return false }
            return children[0].acceptedTypes & document.typeBit(index) != 0 && children[0].admits(document, index, depth: depth + 1)
        case .anyOf:
            let bit = document.typeBit(index)
            for child in children.indices where children[child].acceptedTypes & bit != 0 && children[child].admits(document, index, depth: depth + 1) {
                return true
            }
            return false
        }
    }

    /// ``JSONConstant/matches(_:)`` for a flat node.
    static func matches(_ constant: JSONConstant, _ document: FlatJSON, _ index: Int) -> Bool {
        let node = document.nodes[index]
        switch constant {
        case .null: return node.kind == .null
        case .bool(let expected): return node.kind == .bool && node.flag == expected
        case .integer(let expected): return node.kind == .number && node.integer == expected
        case .string(let expected):
            guard node.kind == .string else { return false }
            var expected = expected
            return expected.withUTF8 { SWAR.equal($0, document.utf8(index)) }
        }
    }

    /// As ``admitsObject(_:depth:)``: no duplicate key, no undeclared member where they are
    /// rejected, no forbidden member, every declared member admitted, every required one present.
    private func admitsObject(_ document: FlatJSON, _ index: Int, depth: Int) -> Bool {
        let node = document.nodes[index]
        guard node.kind == .object, node.count <= 16 else { return false }
        var present: UInt64 = 0
        var key = index &+ 1
        for _ in 0..<node.count {
            let keyBytes = document.utf8(key)
            var earlier = index &+ 1
            while earlier != key {
                if SWAR.equal(document.utf8(earlier), keyBytes) { return false }
                earlier = document.nodes[earlier &+ 1].next
            }
            let value = key &+ 1
            key = document.nodes[value].next
            guard let declared = declaredIndex(keyBytes) else {
                if rejectsUnknown { return false }
                continue
            }
            let bit: UInt64 = 1 << UInt64(declared)
            guard forbidden & bit == 0, children[declared].admits(document, value, depth: depth + 1) else { return false }
            present |= bit
        }
        return required & ~present == 0
    }

    /// The index in ``names`` of the member spelled `key`, if declared.
    private func declaredIndex(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
        nameBytes.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress else { return nil }
            var start = 0
            var index = 0
            while index < nameEnds.count {
                let end = nameEnds[index]
                if end &- start == key.count, SWAR.equal(UnsafeBufferPointer(start: base + start, count: end &- start), key) { return index }
                start = end
                index &+= 1
            }
            return nil
        }
    }
}

extension StringSchema {
    /// ``admits(_:)`` for ASCII `text` (a scalar a byte); `isBase64`: the format is
    /// ``StringFormat/base64``, which plain base64 passes without a `String`. A `String` is
    /// made only for another format.
    func admits(ascii text: UnsafeBufferPointer<UInt8>, isBase64: Bool) -> Bool {
        if let minLength, text.count < minLength { return false }
        if let maxLength, text.count > maxLength { return false }
        // Equal bytes are equal strings; an allowed value equal only by canonical
        // equivalence (not ASCII) declines, which is safe.
        if allowedValues?.contains(where: { value in
            var value = value
            return value.withUTF8 { SWAR.equal($0, text) }
        }) == false {
            return false
        }
        if isBase64 && SWAR.isPlainBase64(text) { return true }
        return format?.matches(String(decoding: text, as: UTF8.self)) ?? true
    }
}
