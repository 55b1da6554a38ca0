@testable import PushCore
import Testing
@testable import LoopbackHTTP

/// A head whose field lines repeat the previous common head's, byte for byte, takes what they
/// were parsed to (``HTTP1RequestHead/FieldBlock``) — and gets exactly the answer a walk gives:
/// the same fields, `Host`, framing, keep-alive and `Expect`, or the same error.
@Suite struct HTTP1FieldBlockTests {
    /// One connection's heads, in order, each parsed with the connection's `Reusable` and
    /// alone: whole and as the start of its input (a body follows).
    private final class Connection {
        var whole = HTTP1RequestHead.Reusable()
        var prefix = HTTP1RequestHead.Reusable()

        /// Parses `text` both ways, checks each against a parse with nothing reused, and
        /// returns whether both took the kept field lines.
        func parse(_ text: String, maxBodyBytes: Int = 1_000, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
            let head = Array(text.utf8)
            let alone = Result { () throws(HTTP1RequestError) in try HTTP1RequestHead.parse(head[...], maxBodyBytes: maxBodyBytes) }
            let wholeReuses = whole.fieldBlock.reuses, prefixReuses = prefix.fieldBlock.reuses
            let reused = Result { () throws(HTTP1RequestError) in
                try HTTP1RequestHead.parse(head[...], maxBodyBytes: maxBodyBytes, reusing: &whole)
            }
            HTTP1FieldBlockTests.expectSame(reused, alone, text, sourceLocation: sourceLocation)
            let input = head + Array("0123456789GET / HTTP/1.1\r\n".utf8)
            let walked: Result<(head: HTTP1RequestHead, end: Int), HTTP1RequestError>? = input.withUnsafeBufferPointer { all in
                do throws(HTTP1RequestError) {
                    return try HTTP1RequestHead.parseCommonPrefix(all, maxBodyBytes: maxBodyBytes, reusing: &prefix).map { .success($0) }
                } catch {
                    return .failure(error)
                }
            }
            // The head the walk over the input reads: up to its first empty line (a mutated
            // head may hold bytes after it).
            let end = (4...input.count).first { input[($0 - 4)..<$0] == [0x0D, 0x0A, 0x0D, 0x0A] } ?? input.count
            let firstAlone = Result { () throws(HTTP1RequestError) in try HTTP1RequestHead.parse(input[..<end], maxBodyBytes: maxBodyBytes) }
            switch walked {
            case .success(let found)?:
                #expect(found.end == end, "\(text.debugDescription)", sourceLocation: sourceLocation)
                HTTP1FieldBlockTests.expectSame(.success(found.head), firstAlone, text, sourceLocation: sourceLocation)
            case .failure(let error)?:
                HTTP1FieldBlockTests.expectSame(.failure(error), firstAlone, text, sourceLocation: sourceLocation)
            case nil:
                break  // the general parser answers such a head (checked by the differential tests)
            }
            let wholeReused = whole.fieldBlock.reuses == wholeReuses + 1, prefixReused = prefix.fieldBlock.reuses == prefixReuses + 1
            if end == head.count { #expect(wholeReused == prefixReused, "\(text.debugDescription)", sourceLocation: sourceLocation) }
            return wholeReused && prefixReused
        }
    }

    static func expectSame(_ a: Result<HTTP1RequestHead, HTTP1RequestError>, _ b: Result<HTTP1RequestHead, HTTP1RequestError>,
                           _ text: String, sourceLocation: SourceLocation) {
        switch (a, b) {
        case (.success(let a), .success(let b)):
            #expect(a == b, "\(text.debugDescription)", sourceLocation: sourceLocation)
            #expect(a.headers.map { [$0.name, $0.value] } == b.headers.map { [$0.name, $0.value] }, "\(text.debugDescription)",
                    sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect(a == b, "\(text.debugDescription)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(text.debugDescription): \(a), parsed alone \(b)", sourceLocation: sourceLocation)
        }
    }

    static let put = "PUT /v1/devices/ab HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\nContent-Length: 200\r\nAuthorization: Bearer b\r\n\r\n"

    @Test func aRepeatedHeadTakesTheKeptAnswerWithItsOwnRequestLine() {
        let connection = Connection()
        #expect(!connection.parse(Self.put))
        #expect(!connection.parse(Self.put))  // a repeat: walked once more, its answer kept
        #expect(connection.parse(Self.put))
        // Another method and target, the same field lines: taken, with the new request line.
        #expect(connection.parse(Self.put.replacingOccurrences(of: "PUT /v1/devices/ab", with: "DELETE /v1/devices/cd")))
        #expect(connection.parse(Self.put))
    }

    @Test func anyOtherByteInTheFieldLinesIsWalked() {
        let variants = [
            Self.put.replacingOccurrences(of: "200", with: "201"),
            Self.put.replacingOccurrences(of: "Bearer b", with: "Bearer c"),
            Self.put.replacingOccurrences(of: "Host: 127", with: "host: 127"),
            Self.put.replacingOccurrences(of: "application/json", with: "application/json "),
            Self.put.replacingOccurrences(of: "\r\n\r\n", with: "\r\nConnection: close\r\n\r\n"),
            Self.put.replacingOccurrences(of: "\r\n\r\n", with: "\r\nExpect: 100-continue\r\n\r\n"),
        ]
        for variant in variants {
            let connection = Connection()
            for _ in 0..<2 { #expect(!connection.parse(Self.put)) }
            #expect(connection.parse(Self.put))
            for _ in 0..<2 { #expect(!connection.parse(variant), "\(variant.debugDescription)") }
            #expect(connection.parse(variant), "\(variant.debugDescription)")
            #expect(!connection.parse(Self.put), "\(variant.debugDescription)")
        }
    }

    /// A whole head is exactly its field lines' head: kept lines with bytes after them are
    /// walked (and refused, as the head alone is).
    @Test func aWholeHeadWithBytesAfterTheKeptLinesIsWalked() {
        let connection = Connection()
        for _ in 0..<2 { #expect(!connection.parse(Self.put)) }
        #expect(connection.parse(Self.put))
        #expect(!connection.parse(Self.put + "GET"))
    }

    /// HTTP/1.0 keeps a connection only when asked: the same field lines after a request line
    /// of the other version are walked again (they mean another connection handling).
    @Test func theSameFieldLinesAfterAnotherVersionAreWalked() {
        let connection = Connection()
        let lines = "\r\nHost: h\r\nContent-Length: 3\r\n\r\n"
        for _ in 0..<2 { #expect(!connection.parse("PUT /x HTTP/1.1" + lines)) }
        #expect(connection.parse("PUT /x HTTP/1.1" + lines))
        for _ in 0..<2 { #expect(!connection.parse("PUT /x HTTP/1.0" + lines)) }
        #expect(connection.parse("PUT /x HTTP/1.0" + lines))
        #expect(!connection.parse("PUT /x HTTP/1.1" + lines))
    }

    /// The body limit is part of the answer: a length within one limit is over another.
    @Test func aLowerBodyLimitIsCheckedAgain() {
        let connection = Connection()
        for _ in 0..<2 { #expect(!connection.parse(Self.put, maxBodyBytes: 1_000)) }
        #expect(connection.parse(Self.put, maxBodyBytes: 1_000))
        for _ in 0..<3 { #expect(!connection.parse(Self.put, maxBodyBytes: 100)) }  // an error is never kept
    }

    /// Field lines over the limit are never kept, and a head the walk refuses keeps nothing.
    @Test func longFieldLinesAndRefusedHeadsAreNotKept() {
        let connection = Connection()
        let long = "GET / HTTP/1.1\r\nHost: h\r\nX-Long: \(String(repeating: "a", count: HTTP1RequestHead.FieldBlock.maxBytes))\r\n\r\n"
        for _ in 0..<3 { #expect(!connection.parse(long)) }
        let refused = "PUT /v1/devices/ab HTTP/1.1\r\nHost: h\r\nHost: h\r\n\r\n"
        for _ in 0..<3 { #expect(!connection.parse(refused)) }
        for _ in 0..<2 { #expect(!connection.parse(Self.put)) }
        #expect(connection.parse(Self.put))
    }

    /// Random runs of a few heads and their mutants on one connection, so that field lines
    /// repeat, follow other ones and come back: every answer is the one a head alone gets.
    @Test func randomRunsOfHeadsAnswerAsEachHeadAlone() {
        var random = SplitMix64(seed: 0x5EED_F1E1_DB10_C4)
        var reused = 0
        for _ in 0..<80 {
            var heads = HTTP1RequestHeadDifferentialTests.seeds.map { Array($0.utf8) }.shuffled(using: &random).prefix(3).map { $0 }
            for index in heads.indices where random.next() % 2 == 0 {
                HTTP1CodecFuzzTests.mutate(&heads[index], upTo: 2, using: HTTP1RequestHeadDifferentialTests.interesting, copying: 6, random: &random)
            }
            let connection = Connection()
            var head = heads[0]
            for _ in 0..<12 {
                // The same head again half the time (its answer is kept from its second time).
                if random.next() % 2 == 0 { head = heads[Int(random.next() % UInt64(heads.count))] }
                if connection.parse(String(decoding: head, as: UTF8.self)) { reused += 1 }
            }
        }
        #expect(reused > 80)
    }
}
