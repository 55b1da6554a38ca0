import Contracts
import Foundation
import Testing
@testable import FakeAPNs

/// A Live Activity push is read from the body the contract parsed (issue 41), and must read
/// exactly as the `JSONDecoder` pass it replaces: same push, same reason, same decoded state;
/// where it cannot be certain it leaves the answer to the decoder.
@Suite struct ParsedLiveActivityReadingTests {
    static let bodies: [String] = [
        #"{"aps":{"timestamp":1767225601,"event":"update","content-state":{"stage":"onTheWay","eta":788921100,"itemsPicked":12},"stale-date":2000000000,"relevance-score":75},"pad":"x"}"#,
        #"{"aps":{"timestamp":1767225601,"event":"start","attributes-type":"OrderTrackerAttributes","attributes":{"orderId":"8F3K"},"content-state":{"stage":"placed"},"input-push-channel":"ch","relevance-score":0.25,"dismissal-date":-5}}"#,
        #"{"aps":{"timestamp":1767225601,"event":"end","attributes-type":7,"stale-date":"soon","relevance-score":true,"input-push-channel":null}}"#,
        #"{"aps":{"timestamp":1767225601,"event":"pause"}}"#,
        #"{"aps":{"timestamp":1767225601,"event":7}}"#,
        #"{"aps":{"event":"update"}}"#,
        #"{"aps":{"event":"update","timestamp":"1767225601"}}"#,
        #"{"aps":{"event":"update","timestamp":null}}"#,
        #"{"aps":null}"#,
        #"{"apps":{}}"#,
        #"{"aps":{"event":"\u0075pdate","timestamp":9223372036854775807}}"#,
        #"{"aps":{"event":"update","timestamp":-9223372036854775808,"relevance-score":-1.5e-3}}"#,
        // Left to the decoder: not an object, a key twice, numbers it might read otherwise.
        #"{"aps":"text"}"#,
        #"{"aps":[1]}"#,
        #"{"aps":{"event":"update","timestamp":1},"aps":{"event":"end","timestamp":2}}"#,
        #"{"aps":{"event":"update","event":"end","timestamp":1}}"#,
        #"{"aps":{"event":"update","timestamp":1.0}}"#,
        #"{"aps":{"event":"update","timestamp":1e3}}"#,
        #"{"aps":{"event":"update","timestamp":-0}}"#,
        #"{"aps":{"event":"update","timestamp":99999999999999999999}}"#,
        #"{"aps":{"event":"update","timestamp":1,"stale-date":1.5}}"#,
        #"{"aps":{"event":"update","timestamp":1,"relevance-score":1e999}}"#,
        #"{"aps":{"event":"update","timestamp":1,"relevance-score":-0.0}}"#,
    ]

    @Test(arguments: bodies)
    func parsedReadingIsTheDecodersReading(_ body: String) throws {
        let bytes = Array(body.utf8)
        let node = try JSONReader.parse(bytes)
        let decoded = LiveActivityPush.decodedRead(bytes, aps: node.member("aps")?.value.value)
        #expect(LiveActivityPush.read(bytes, node: node) == decoded)
        switch LiveActivityPush.readParsed(node) {
        case .read(let push): #expect(decoded.map { $0.timestamp } == .success(push.timestamp))
        case .unreadable(let why): #expect(decoded == .failure(why))
        case .decoderDecides: break
        }
    }

    @Test func theUsualUpdateIsReadWithoutTheDecoder() throws {
        let node = try JSONReader.parse(Array(Self.bodies[0].utf8))
        guard case .read(let push) = LiveActivityPush.readParsed(node) else {
            Issue.record("a plain update went to the decoder")
            return
        }
        #expect(push.event == .update && push.timestamp == 1_767_225_601 && push.staleDate == 2_000_000_000 && push.relevanceScore == 75)
    }

    @Test func undecidedBodiesGoToTheDecoder() throws {
        for body in Self.bodies[12...] {
            let node = try JSONReader.parse(Array(body.utf8))
            guard case .decoderDecides = LiveActivityPush.readParsed(node) else {
                Issue.record("read without the decoder: \(body)")
                continue
            }
        }
    }

    struct Mixed: Codable, Hashable, Sendable {
        var name: String
        var count: Int
        var small: UInt8?
        var ratio: Double
        var when: Date
        var tags: [String]
        var matrix: [[Int?]]
        var nested: [String: Int]
        var flag: Bool?
    }

    static let mixed = #"{"name":"a\"b\u00e9","count":-3,"small":255,"ratio":0.1,"when":788921100.5,"tags":["x","y"],"matrix":[[1,null],[]],"nested":{"k":1,"l":2},"flag":null,"extra":{"z":[true]}}"#

    /// What the decoder reads from the same value written as text.
    static func viaDecoder<Value: Decodable>(_: Value.Type, _ node: JSONNode) -> Value? {
        try? JSONDecoder().decode(Value.self, from: Data(node.value.jsonBytes))
    }

    @Test func parsedValuesDecodeAsTheDecoderDoes() throws {
        let node = try JSONReader.parse(Self.mixed)
        let parsed = ParsedValueDecoder.decode(Mixed.self, from: node.value)
        #expect(parsed != nil)
        #expect(parsed == Self.viaDecoder(Mixed.self, node))
        let order = try JSONReader.parse(#"{"stage":"onTheWay","eta":788921100,"itemsPicked":12,"itemsTotal":12}"#)
        let state = ParsedValueDecoder.decode(OrderTrackerAttributes.ContentState.self, from: order.value)
        #expect(state != nil)
        #expect(state == Self.viaDecoder(OrderTrackerAttributes.ContentState.self, order))
    }

    @Test(arguments: [
        #"{"name":"a","count":1.0,"ratio":0,"when":0,"tags":[],"matrix":[],"nested":{}}"#,       // an integer as 1.0
        #"{"name":"a","count":1,"small":256,"ratio":0,"when":0,"tags":[],"matrix":[],"nested":{}}"#,   // out of range
        #"{"name":"a","count":1,"ratio":1e999,"when":0,"tags":[],"matrix":[],"nested":{}}"#,      // not finite
        #"{"name":"a","count":-0,"ratio":0,"when":0,"tags":[],"matrix":[],"nested":{}}"#,         // -0
        #"{"name":"a","name":"b","count":1,"ratio":0,"when":0,"tags":[],"matrix":[],"nested":{}}"#,   // a key twice
        #"{"count":1,"ratio":0,"when":0,"tags":[],"matrix":[],"nested":{}}"#,                     // a member missing
        #"{"name":"a","count":1,"ratio":0,"when":0,"tags":[1],"matrix":[],"nested":{}}"#,         // a type mismatch
    ])
    func uncertainValuesAreLeftToTheDecoder(_ text: String) throws {
        #expect(ParsedValueDecoder.decode(Mixed.self, from: try JSONReader.parse(text).value) == nil)
    }

    @Test func dataAndFloatAreLeftToTheDecoder() throws {
        struct Blob: Codable { var data: Data }
        struct Level: Codable { var level: Float }
        #expect(ParsedValueDecoder.decode(Blob.self, from: try JSONReader.parse(#"{"data":"AQI="}"#).value) == nil)
        #expect(ParsedValueDecoder.decode(Level.self, from: try JSONReader.parse(#"{"level":0.5}"#).value) == nil)
    }
}

/// The journal's provider-token fingerprint, taken from bytes when the token is printable
/// ASCII (issue 41), is still its last 16 characters.
@Suite struct ProviderTokenFingerprintTests {
    @Test(arguments: ["eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJURUFNIn0.c2lnbmF0dXJlX2J5dGVzX2hlcmVfMTIzNDU2Nzg5MA", "short",
                      "", "0123456789abcdef", "0123456789abcdefg", "ends in e\u{301}0123456789abcde",
                      "crlf\r\n0123456789abcd", "tab\t0123456789abcdefgh", "été-0123456789abcdefgh"])
    func fingerprintIsTheLastSixteenCharacters(_ token: String) {
        #expect(FakeAPNs.fingerprint(of: token) == String(token.suffix(16)))
    }
}
