/// ``SchemaAdmission/admits(_:)`` over a ``FlatJSON`` document: the same answer for the same
/// values, without a ``JSONNode`` tree (keys are compared as bytes, string values checked as
/// bytes by ``ASCIIStringCheck``), following ``SchemaAdmission/unretainedChildren`` so that
/// the walk does no reference counting.
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
            return stringCheck?.admits(document.utf8(index), readable: document.bytes.count &- node.start,
                                       base64Checked: node.base64Checked) ?? false
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
            return unretainedChildren[0]._withUnsafeGuaranteedRef { items in
                for _ in 0..<node.count {
                    guard items.admits(document, item, depth: depth + 1) else { return false }
                    item = document.nodes[item].next
                }
                return true
            }
        case .nullable:
            if node.kind == .null { return true }
            guard children.count == 1 else { return false }
            return unretainedChildren[0]._withUnsafeGuaranteedRef { inner in
                inner.acceptedTypes & document.typeBit(index) != 0 && inner.admits(document, index, depth: depth + 1)
            }
        case .anyOf:
            let bit = document.typeBit(index)
            for child in unretainedChildren.indices {
                let admitted = unretainedChildren[child]._withUnsafeGuaranteedRef { alternative in
                    alternative.acceptedTypes & bit != 0 && alternative.admits(document, index, depth: depth + 1)
                }
                if admitted { return true }
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
        // Each key's head (ByteKeys.head) and node: an earlier key is compared byte by byte
        // only when its head is the same.
        return withUnsafeTemporaryAllocation(of: (head: UInt64, key: Int).self, capacity: 16) { seen in
            var present: UInt64 = 0
            var key = index &+ 1
            for member in 0..<node.count {
                let keyBytes = document.utf8(key)
                let head = ByteKeys.head(keyBytes, readable: document.bytes.count &- document.nodes[key].start)
                for earlier in 0..<member where seen[earlier].head == head {
                    if keyBytes.count <= 7 || SWAR.equal(document.utf8(seen[earlier].key), keyBytes) { return false }
                }
                seen[member] = (head, key)
                let value = key &+ 1
                key = document.nodes[value].next
                guard let declared = nameKeys.index(of: keyBytes, head: head) else {
                    if rejectsUnknown { return false }
                    continue
                }
                let bit: UInt64 = 1 << UInt64(declared)
                guard forbidden & bit == 0,
                      unretainedChildren[declared]._withUnsafeGuaranteedRef({ $0.admits(document, value, depth: depth + 1) }) else { return false }
                present |= bit
            }
            return required & ~present == 0
        }
    }
}
