extension HTTP1RequestHead {
    /// The field lines of the last head the common walk parsed on a connection (from its first
    /// field line through the empty line, at most ``maxBytes``) and, once a head has repeated
    /// them, what they parse to: fields, `Host`, framing, keep-alive and `Expect`.
    ///
    /// A keep-alive client sends the same field lines request after request (`Host`, its
    /// credentials, the media type, a length that repeats when its bodies do); a head whose
    /// field lines repeat the kept ones byte for byte, after a request line of the same
    /// version, takes their answer instead of walking them again. Parsing is a function of the
    /// bytes, the version and the body limit, so it is the answer the walk would give (the
    /// tests hold the two to that). Only an answer is kept, never an error: a head the walk
    /// refuses is walked, and refused, every time.
    ///
    /// The answer is kept from the second head with the same lines on, not the first: a
    /// client whose lines change every time (a length that does not repeat) pays for a copy
    /// of its lines and a comparison, not for keeping fields it will never send again.
    struct FieldBlock {
        /// The longest field lines kept: a common head's are a few hundred bytes.
        static let maxBytes = 1_024

        /// The field lines: the first `count` bytes (the buffer keeps its length, so that a
        /// connection's lines are copied into it without allocating).
        private var bytes: [UInt8] = []
        private var count = 0
        private var minorVersion = -1
        private var maxBodyBytes = 0
        /// Whether the fields below are the answer to the lines (kept from their second head).
        private var answered = false
        private var headers = HTTPFields()
        private var authority: String?
        private var framing = BodyFraming.none
        private var keepAlive = false
        private var expectsContinue = false
        /// Heads that took the kept answer (for tests: that a repeat is not walked again).
        private(set) var reuses = 0

        /// What ``match(_:minorVersion:maxBodyBytes:wholeHead:)`` found.
        enum Match {
            /// Not the kept lines (or none are kept): they are forgotten, with their answer;
            /// the head is walked and its lines kept (``keep(_:minorVersion:maxBodyBytes:)``).
            case other
            /// The kept lines, without an answer yet: the head is walked and its answer kept
            /// (``keepAnswer(_:)``).
            case unanswered
            /// The kept lines, `length` bytes, and their answer (``head(method:target:)``).
            case answered(length: Int)
        }

        /// Whether `rest` (what follows a request line of HTTP/1.`minorVersion`) starts with
        /// the kept field lines, or, for a `wholeHead`, is them, and whether their answer is kept.
        mutating func match(_ rest: UnsafeBufferPointer<UInt8>, minorVersion: Int, maxBodyBytes: Int, wholeHead: Bool) -> Match {
            let length = count
            guard length > 0 else { return .other }
            guard minorVersion == self.minorVersion, maxBodyBytes == self.maxBodyBytes,
                  wholeHead ? rest.count == length : rest.count >= length,
                  bytes.withUnsafeBufferPointer({ HTTP1RequestHead.sameBytes(UnsafeBufferPointer(rebasing: $0[..<length]),
                                                                              UnsafeBufferPointer(rebasing: rest[..<length])) })
            else {
                count = 0
                if answered { forgetAnswer() }
                return .other
            }
            guard answered else { return .unanswered }
            reuses &+= 1
            return .answered(length: length)
        }

        /// The head of a request line (`method`, `target`, the kept version) whose field lines
        /// ``match(_:minorVersion:maxBodyBytes:wholeHead:)`` found with their answer.
        func head(method: String, target: String) -> HTTP1RequestHead {
            HTTP1RequestHead(method: method, target: target, authority: authority, minorVersion: minorVersion, headers: headers,
                             framing: framing, keepAlive: keepAlive, expectsContinue: expectsContinue)
        }

        /// The walk parsed `lines`, the field lines of a head of HTTP/1.`minorVersion` that did
        /// not match (``Match/other``), with `maxBodyBytes`: keeps them (their answer is kept if
        /// a head repeats them). Lines over ``maxBytes`` are not kept.
        mutating func keep(_ lines: UnsafeBufferPointer<UInt8>, minorVersion: Int, maxBodyBytes: Int) {
            guard let source = lines.baseAddress, lines.count <= Self.maxBytes else {
                count = 0
                return
            }
            if bytes.count < lines.count { bytes = [UInt8](repeating: 0, count: max(lines.count, 256)) }
            bytes.withUnsafeMutableBufferPointer { $0.baseAddress?.update(from: source, count: lines.count) }
            count = lines.count
            self.minorVersion = minorVersion
            self.maxBodyBytes = maxBodyBytes
        }

        /// The walk parsed a head whose lines matched without an answer (``Match/unanswered``)
        /// to `head`: keeps its answer for the heads that repeat them next.
        mutating func keepAnswer(_ head: borrowing HTTP1RequestHead) {
            answered = true
            headers = head.headers
            authority = head.authority
            framing = head.framing
            keepAlive = head.keepAlive
            expectsContinue = head.expectsContinue
        }

        /// Lets go of the answer's fields (so that the walk, which writes a head's fields into
        /// the buffer the connection's last request gave back, the same one, finds it unshared
        /// and writes in place instead of allocating another).
        private mutating func forgetAnswer() {
            answered = false
            headers = HTTPFields()
            authority = nil
        }
    }
}
