import Testing
@testable import LoopbackHTTP

/// Equality and hashing agree with lookup: names are case-insensitive, values and order are not.
@Suite struct HTTPFieldsTests {
    @Test func namesInAnotherCaseAreEqualAndHashAlike() {
        let written: HTTPFields = ["Content-Type": "application/json", "APNS-ID": "A"]
        let lowered: HTTPFields = ["content-type": "application/json", "apns-id": "A"]
        #expect(written["content-type"] == lowered["Content-Type"])
        #expect(written == lowered)
        #expect(written.hashValue == lowered.hashValue)
        #expect(Set([written, lowered]).count == 1)
    }

    @Test func valuesAndOrderStillCount() {
        let fields: HTTPFields = ["a": "1", "b": "2"]
        #expect(fields != ["A": "x", "B": "2"])
        #expect(fields != ["b": "2", "a": "1"])
        #expect(fields != ["a": "1"])
        #expect(HTTPFields.Field(name: "X-Y", value: "v") == HTTPFields.Field(name: "x-y", value: "v"))
        #expect(HTTPFields.Field(name: "X-Y", value: "V") != HTTPFields.Field(name: "x-y", value: "v"))
    }
}
