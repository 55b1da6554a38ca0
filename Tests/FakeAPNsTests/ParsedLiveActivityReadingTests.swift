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
        // content-state and attributes given twice: the first is read, as JSONValue.member finds it.
        #"{"aps":{"event":"update","timestamp":1,"content-state":{"stage":"picking"},"content-state":{"stage":"arriving"}}}"#,
        #"{"aps":{"event":"start","timestamp":1,"attributes":{"orderId":"A"},"stale-date":3,"attributes":{"orderId":"B"},"content-state":7}}"#,
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

    @Test func membersGivenTwiceAreReadAsTheFirst() throws {
        for body in Self.bodies[12...13] {
            let node = try JSONReader.parse(Array(body.utf8))
            guard case .read(let push) = LiveActivityPush.readParsed(node) else {
                Issue.record("went to the decoder: \(body)")
                continue
            }
            let aps = node.member("aps")?.value
            #expect(push.parsedContentState == aps?.member("content-state")?.value.value)
            #expect(push.parsedAttributes == aps?.member("attributes")?.value.value)
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
        for body in Self.bodies[14...] {
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

    /// Values the containers read without a decoder of their own (strings, numbers,
    /// booleans, dates; issue 41), in every container: generic members, optionals, arrays,
    /// dictionaries, nested.
    struct Direct: Codable, Hashable, Sendable {
        struct Inner: Codable, Hashable, Sendable {
            var at: Date
            var words: [String]
        }
        var dates: [Date]
        var maybeDates: [Date?]
        var datesByName: [String: Date]
        var big: [Int64]
        var flags: [Bool?]
        var ratios: [Double]
        var inner: Inner?
        var inners: [Inner]
        var deep: [[String: [Date]]]
    }

    static let direct = #"{"dates":[0,788921100,-1.5,1e3],"maybeDates":[null,2.5],"datesByName":{"a":1,"b":-7},"big":[9223372036854775807,-9223372036854775808,0],"flags":[true,null,false],"ratios":[0.25,-3,1e-3],"inner":{"at":12,"words":["x","é"]},"inners":[{"at":1,"words":[]}],"deep":[{"k":[1,2]},{}]}"#

    @Test func directValuesDecodeAsTheDecoderDoes() throws {
        let node = try JSONReader.parse(Self.direct)
        let parsed = ParsedValueDecoder.decode(Direct.self, from: node.value)
        #expect(parsed != nil)
        #expect(parsed == Self.viaDecoder(Direct.self, node))
        #expect(parsed?.dates[1] == Date(timeIntervalSinceReferenceDate: 788_921_100))
    }

    @Test(arguments: [
        #"{"dates":[-0.0],"maybeDates":[],"datesByName":{},"big":[],"flags":[],"ratios":[],"inners":[],"deep":[]}"#,    // a -0 date
        #"{"dates":[1e999],"maybeDates":[],"datesByName":{},"big":[],"flags":[],"ratios":[],"inners":[],"deep":[]}"#,   // not finite
        #"{"dates":["x"],"maybeDates":[],"datesByName":{},"big":[],"flags":[],"ratios":[],"inners":[],"deep":[]}"#,     // not a number
        #"{"dates":[],"maybeDates":[],"datesByName":{"a":null},"big":[],"flags":[],"ratios":[],"inners":[],"deep":[]}"#, // null date
        #"{"dates":[],"maybeDates":[],"datesByName":{},"big":[1.0],"flags":[],"ratios":[],"inners":[],"deep":[]}"#,     // 1.0 as Int64
        #"{"dates":[],"maybeDates":[],"datesByName":{},"big":[-0],"flags":[],"ratios":[],"inners":[],"deep":[]}"#,      // -0 as Int64
        #"{"dates":[],"maybeDates":[],"datesByName":{},"big":[],"flags":[1],"ratios":[],"inners":[],"deep":[]}"#,       // 1 as Bool
        #"{"dates":[],"maybeDates":[],"datesByName":{},"big":[],"flags":[],"ratios":[-0.0],"inners":[],"deep":[]}"#,    // -0.0
        #"{"dates":[],"maybeDates":[],"datesByName":{},"big":[],"flags":[],"ratios":[],"inner":{"at":"x","words":[]},"inners":[],"deep":[]}"#,
        #"{"dates":[],"maybeDates":[],"datesByName":{},"big":[],"flags":[],"ratios":[],"inners":[{"at":1,"words":[2]}],"deep":[]}"#,
    ])
    func uncertainDirectValuesAreLeftToTheDecoder(_ text: String) throws {
        #expect(ParsedValueDecoder.decode(Direct.self, from: try JSONReader.parse(text).value) == nil)
    }

    /// A value that keeps the coding path its decoder shows, as keys and indices.
    struct PathProbe: Decodable, Hashable {
        var path: String
        var text: String
        init(from decoder: any Decoder) throws {
            path = decoder.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue }.joined(separator: "/")
            text = try decoder.singleValueContainer().decode(String.self)
        }
    }

    struct Probed: Decodable, Hashable {
        var one: PathProbe
        var list: [PathProbe]
        var nested: [String: [PathProbe?]]
    }

    @Test func codingPathsAreTheDecoders() throws {
        let node = try JSONReader.parse(#"{"one":"a","list":["b","c"],"nested":{"k":[null,"d"]}}"#)
        let parsed = ParsedValueDecoder.decode(Probed.self, from: node.value)
        #expect(parsed?.list.map(\.path) == ["list/#0", "list/#1"])
        #expect(parsed == Self.viaDecoder(Probed.self, node))
    }

    @Test func dataAndFloatAreLeftToTheDecoder() throws {
        struct Blob: Codable { var data: Data }
        struct Level: Codable { var level: Float }
        #expect(ParsedValueDecoder.decode(Blob.self, from: try JSONReader.parse(#"{"data":"AQI="}"#).value) == nil)
        #expect(ParsedValueDecoder.decode(Level.self, from: try JSONReader.parse(#"{"level":0.5}"#).value) == nil)
    }

    /// What is left to the decoder it reads from the value written back as text: every string
    /// as sent (quotes, backslashes and control characters escaped, the rest as its UTF-8),
    /// numbers as written.
    @Test func theTextLeftToTheDecoderKeepsEveryStringAsSent() throws {
        struct Level: Codable, Equatable { var level: Float; var label: String }
        let node = try JSONReader.parse(#"{"level":0.5e0,"label":"say \"hi\" \\ \u0001\n\/é","extra":[1.50,null,true]}"#)
        #expect(String(decoding: node.value.jsonBytes, as: UTF8.self)
                == #"{"level":0.5e0,"label":"say \"hi\" \\ \u0001\u000a/é","extra":[1.50,null,true]}"#)
        #expect(ParsedValueDecoder.decode(Level.self, from: node.value) == nil, "a Float: left to the decoder")
        #expect(Self.viaDecoder(Level.self, node) == Level(level: 0.5, label: "say \"hi\" \\ \u{1}\n/é"))
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
