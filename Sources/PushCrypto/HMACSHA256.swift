// HMAC with SHA-256 (RFC 2104). RFC 6979's deterministic nonces are an HMAC-DRBG built on it.

/// HMAC-SHA256 message authentication code.
package enum HMACSHA256 {
    /// The 32-byte HMAC-SHA256 of `message` under `key` (keys longer than a block are hashed).
    package static func authenticationCode(for message: [UInt8], key: [UInt8]) -> [UInt8] {
        var hmac = Authenticator(key: key)
        hmac.update(message)
        return hmac.finalize()
    }

    /// An incremental HMAC computation, so RFC 6979 can feed `V || 0x00 || x || h` without
    /// concatenating.
    package struct Authenticator: Sendable {
        private var inner = SHA256.Hasher()
        private var outerKeyPad: [UInt8]

        /// Starts an HMAC under `key`.
        package init(key: [UInt8]) {
            var block = key.count > SHA256.blockByteCount ? SHA256.hash(key) : key
            block.append(contentsOf: repeatElement(0, count: SHA256.blockByteCount - block.count))
            inner.update(block.map { $0 ^ 0x36 })
            outerKeyPad = block.map { $0 ^ 0x5c }
        }

        /// Appends `bytes` to the authenticated message.
        package mutating func update(_ bytes: [UInt8]) {
            inner.update(bytes)
        }

        /// The 32-byte authentication code.
        package consuming func finalize() -> [UInt8] {
            var outer = SHA256.Hasher()
            outer.update(outerKeyPad)
            outer.update(inner.finalize())
            return outer.finalize()
        }
    }
}
