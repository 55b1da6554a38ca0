/// The record form of ``HTTPFields``' byte storage, written by a parser straight from a head.
extension HTTPFields {
    /// Writes fields as records into memory the caller owns (a parser's scratch buffer), so a
    /// whole head becomes an ``HTTPFields`` with one copy (``init(records:)``).
    package struct RecordWriter {
        let base: UnsafeMutablePointer<UInt8>?
        private let capacity: Int
        private(set) var byteCount = 0
        private(set) var fieldCount = 0

        /// `memory` must have room for every field: its name, its value and 8 bytes more.
        package init(memory: UnsafeMutableBufferPointer<UInt8>) {
            base = memory.baseAddress
            capacity = memory.baseAddress == nil ? 0 : memory.count
        }

        /// Bytes a field takes as a record.
        package static func size(name: Int, value: Int) -> Int { 8 + name + value }

        /// Appends one field; false (and nothing written) when it does not fit.
        package mutating func append(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base, capacity - byteCount >= Self.size(name: name.count, value: value.count) else { return false }
            let record = base + byteCount
            HTTPFields.writeLengths(name.count, value.count, to: record)
            if let source = name.baseAddress { Self.copy(source, to: record + 8, count: name.count) }
            if let source = value.baseAddress { Self.copy(source, to: record + 8 + name.count, count: value.count) }
            byteCount += Self.size(name: name.count, value: value.count)
            fieldCount += 1
            return true
        }

        /// `count` bytes from `source` to `target` (which do not overlap) in word loads and
        /// stores, without a call: names and values are short, and a `memmove` call for each
        /// cost more than the copying. 8 or more bytes go 8 at a time with a last word that may
        /// overlap the one before it; fewer, as two 4-byte or up to three single bytes, the
        /// same way. Never touches a byte outside either range.
        @inline(__always)
        static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
            let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
            if count >= 8 {
                var offset = 0
                while count - offset > 8 {
                    to.storeBytes(of: from.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
                    offset += 8
                }
                to.storeBytes(of: from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self), toByteOffset: count - 8, as: UInt64.self)
            } else if count >= 4 {
                let first = from.loadUnaligned(as: UInt32.self), last = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                to.storeBytes(of: first, as: UInt32.self)
                to.storeBytes(of: last, toByteOffset: count - 4, as: UInt32.self)
            } else if count > 0 {
                target[0] = source[0]
                target[count >> 1] = source[count >> 1]
                target[count - 1] = source[count - 1]
            }
        }
    }
}
