@testable import FakeSupport
@testable import PushCore
import Contracts
import Foundation
import LoopbackHTTP
import Testing
@testable import FakeBackend

/// The handler's byte-level fast paths held to the String code they replace: routing on the
/// target's bytes, the bearer matched against the sessions by bytes, the token checked and
/// lowercased on bytes, header values read as bytes, and a plain valid PUT answered in one
/// critical section. Each over edge and random inputs, against a reference.
@Suite struct HandlerFastPathTests {
    // MARK: References: the String code as it was

    /// The router as it was before the handler kept the target as bytes (verbatim but for
    /// names): it made the parameter's String on every request.
    enum ReferenceRoute {
        static func route(method: String, target: String) -> BackendRoute {
            var target = target
            return target.withUTF8 { bytes in route(method: method, bytes) }
        }

        private static func route(method: String, _ bytes: UnsafeBufferPointer<UInt8>) -> BackendRoute {
            var end = 0
            while end < bytes.count && bytes[end] != UInt8(ascii: "?") { end += 1 }
            if starts(bytes, end: end, with: "/v1/devices/") {
                let start = 12
                guard !contains(bytes, slashIn: start..<end) else { return .notFound }
                switch method {
                case "PUT": return .endpoint(.putDevice, parameter: string(bytes, start..<end))
                case "DELETE": return .endpoint(.deleteDevice, parameter: string(bytes, start..<end))
                default: return .methodNotAllowed(allow: ["PUT", "DELETE"])
                }
            }
            let prefix = 18  // "/v1/notifications/"
            let suffix = 7  // "/opened"
            if starts(bytes, end: end, with: "/v1/notifications/"), end >= prefix + suffix, endsWithOpened(bytes, end: end) {
                guard !contains(bytes, slashIn: prefix..<(end - suffix)) else { return .notFound }
                return method == "POST"
                    ? .endpoint(.opened, parameter: string(bytes, prefix..<(end - suffix)))
                    : .methodNotAllowed(allow: ["POST"])
            }
            return .notFound
        }

        private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, end: Int, with literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard end >= count else { return false }
            let pointer = literal.utf8Start
            for index in 0..<count where bytes[index] != pointer[index] { return false }
            return true
        }

        private static func endsWithOpened(_ bytes: UnsafeBufferPointer<UInt8>, end: Int) -> Bool {
            let literal: StaticString = "/opened"
            let count = literal.utf8CodeUnitCount
            let pointer = literal.utf8Start
            for index in 0..<count where bytes[end - count + index] != pointer[index] { return false }
            return true
        }

        private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, slashIn range: Range<Int>) -> Bool {
            for index in range where bytes[index] == UInt8(ascii: "/") { return true }
            return false
        }

        private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }

    static func referenceRoute(method: String, target: String) -> BackendRoute {
        ReferenceRoute.route(method: method, target: target)
    }

    /// `BackendStore.bearerToken(_:)` as it was (verbatim), on the header's String.
    static func referenceBearerToken(_ header: String) -> String? {
        var header = header
        return header.withUTF8 { bytes -> String? in
            let space = UInt8(ascii: " ")
            var start = 0
            while start < bytes.count, bytes[start] == space { start += 1 }
            var end = bytes.count
            while end > start, bytes[end - 1] == space { end -= 1 }
            let scheme: StaticString = "bearer"
            let schemeBytes = scheme.utf8Start
            var cursor = start
            for offset in 0..<scheme.utf8CodeUnitCount {
                guard cursor < end, bytes[cursor] | 0x20 == schemeBytes[offset] else { return nil }
                cursor += 1
            }
            if cursor == end { return "" }
            guard bytes[cursor] == space else { return nil }
            while cursor < end, bytes[cursor] == space { cursor += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[cursor..<end]), as: UTF8.self)
        }
    }

    /// `account(forAuthorization:)` as it was: the header as a String, the sessions by key.
    static func referenceAccount(_ header: String?, sessions: [String: String], anyBearer: Bool) -> Result<String, BackendStore.AuthFailure> {
        guard let header else { return .failure(.missing) }
        guard let token = referenceBearerToken(header) else { return .failure(.notBearer) }
        guard !token.isEmpty else { return .failure(.missing) }
        if let account = sessions[token] { return .success(account) }
        if anyBearer { return .success(token) }
        return .failure(.unknown)
    }

    // MARK: Inputs

    static let targets: [String] = {
        var targets = [
            "", "/", "/v1", "/v1/devices", "/v1/devices/", "/v1/devices/ab", "/v1/devices/AB12cd", "/v1/devices/ab?x=1",
            "/v1/devices/ab?", "/v1/devices/?q", "/v1/devices/a/b", "/v1/devices/ab/", "/v1/devices//", "/v1/devices/%2F",
            "/v1/devices/ab%20cd", "/v1/devices/é", "/v1/devices/\u{212A}", "/v1/devices/ab#frag", "/V1/devices/ab",
            "/v1/devices/ab?x=/y", "/v1/devicesab", "//v1/devices/ab", "/v1/notifications/91/opened",
            "/v1/notifications//opened", "/v1/notifications/opened", "/v1/notifications/a/b/opened",
            "/v1/notifications/91/opened?utm=x", "/v1/notifications/91/openedx", "/v1/notifications/91/opened/",
            "/v1/notifications/n-9_1/opened", "/v1/notifications/é/opened", "/v1/notifications/?/opened",
            "/v1/notifications/x?/opened", "?/v1/devices/ab", "/v1/devices/" + String(repeating: "ab", count: 101),
        ]
        var generator = SystemRandomNumberGenerator()
        let pieces = ["/", "v1", "devices", "notifications", "opened", "?", "ab", "AB", "é", "%2F", "", "x=1", "0", "\u{0}"]
        for _ in 0..<2000 {
            targets.append((0..<Int.random(in: 1...7, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
            targets.append("/v1/devices/" + (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
            targets.append("/v1/notifications/" + (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() + "/opened")
        }
        return targets
    }()

    static let methods = ["PUT", "DELETE", "POST", "GET", "PATCH", "put", ""]

    static let authorizations: [String] = {
        var headers = ["", " ", "Bearer", "Bearer ", "bearer", "BEARER s1", "Bearer s1", "bearer   s1  ", "  Bearer s1",
                       "Bearer  s2", "Bearers1", "Beare", "Basic czE=", "Bearer s1 s2", "Bearer\ts1", "Bearer s3",
                       "Bearer é", "Bearer e\u{301}", "Bearer K", "Bearer \u{212A}", "Bearer S1", "Bearer s1\u{0}",
                       "\u{FEFF}Bearer s1", "Bearér s1", "Bearer " + String(repeating: "t", count: 300)]
        var generator = SystemRandomNumberGenerator()
        let pieces = ["Bearer", "bearer", "bEaReR", " ", "  ", "s1", "s2", "é", "K", "\u{212A}", "x", "\t", ""]
        for _ in 0..<1000 {
            headers.append((0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        return headers
    }()

    // MARK: Tests

    @Test func routingOnBytesMatchesTheStringRouting() {
        for target in Self.targets {
            for method in Self.methods {
                let expected = Self.referenceRoute(method: method, target: target)
                #expect(BackendRoute(method: method, target: target) == expected, "\(method) \(target.debugDescription)")
                var copy = target
                let match = copy.withUTF8 { BackendRoute.match(method: method, target: $0) }
                switch (match, expected) {
                case (.endpoint(let endpoint, let range), .endpoint(let expectedEndpoint, let parameter)):
                    #expect(endpoint == expectedEndpoint)
                    #expect(String(decoding: Array(target.utf8)[range], as: UTF8.self) == parameter)
                case (.methodNotAllowed(let allow), .methodNotAllowed(let expectedAllow)):
                    #expect(allow == expectedAllow)
                case (.notFound, .notFound):
                    break
                default:
                    Issue.record("\(method) \(target.debugDescription): \(match), expected \(expected)")
                }
            }
        }
    }

    @Test func bearerOnBytesMatchesTheStringBearer() {
        for header in Self.authorizations {
            #expect(BackendStore.bearerToken(header) == Self.referenceBearerToken(header), "\(header.debugDescription)")
        }
    }

    /// The sessions as bytes against the dictionary, with ASCII and non-ASCII bearers (which
    /// Strings compare by canonical equivalence), few and many sessions, and "any bearer".
    @Test(arguments: [
        ["s1": "a1", "s2": "a2"],
        ["s1": "a1", "é": "a3", "K": "a4"],
        ["s1": "a1", "\u{212A}": "kelvin"],
        ["e\u{301}": "decomposed", "s1": "a1"],
        Dictionary(uniqueKeysWithValues: (0..<40).map { ("s\($0)", "a\($0)") }),
        [:],
    ])
    func accountsOnBytesMatchTheStringLookup(_ sessions: [String: String]) {
        for anyBearer in [false, true] {
            let store = BackendStore(configuration: .init(sessions: sessions, acceptsAnyBearer: anyBearer))
            for header in Self.authorizations + [nil] {
                let expected = Self.referenceAccount(header, sessions: sessions, anyBearer: anyBearer)
                let actual: Result<String, BackendStore.AuthFailure>
                if var header {
                    actual = header.withUTF8 { store.account(forAuthorization: $0) }
                } else {
                    actual = store.account(forAuthorization: nil)
                }
                #expect(String(describing: actual) == String(describing: expected), "\(String(describing: header?.debugDescription))")
            }
        }
    }

    @Test func sessionChangesReachTheByteLookup() {
        var table = SessionTable(["s1": "a1"])
        func account(_ token: String) -> String? {
            var token = token
            return token.withUTF8 { table.account(forBearer: $0) }
        }
        #expect(account("s1") == "a1")
        table[bearer: "s2"] = "a2"
        #expect(account("s2") == "a2")
        table[bearer: "s1"] = nil
        #expect(account("s1") == nil)
        for index in 0..<SessionTable.maxScanned + 4 { table[bearer: "t\(index)"] = "b\(index)" }
        #expect(account("t19") == "b19")
        #expect(account("s2") == "a2")
        table[bearer: "\u{212A}"] = "kelvin"
        for index in 0..<SessionTable.maxScanned + 4 { table[bearer: "t\(index)"] = nil }
        #expect(account("K") == "kelvin")
        #expect(table.accounts == ["s2": "a2", "\u{212A}": "kelvin"])
    }

    /// Tokens checked on bytes get the validator's answer: uppercase hex, odd lengths,
    /// percent-encoding, non-ASCII, empty, and random ones.
    @Test func tokenChecksOnBytesMatchTheValidator() {
        let validator = RequestValidator(contracts: .v1)
        var tokens = ["", "a", "ab", "AB", "aB", "abc", "0g", "ab cd", "%2F", "ab%20cd", "é", "\u{212A}\u{212A}", "ａｂ",
                      String(repeating: "ab", count: 100), String(repeating: "AB", count: 100), String(repeating: "ab", count: 101),
                      "00fa11ce" + String(repeating: "ab", count: 28), "00FA11CE" + String(repeating: "Ab", count: 28)]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefABCDEFgG%é -\u{0}")
        for _ in 0..<3000 {
            tokens.append(String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for token in tokens {
            var copy = token
            let admitted = copy.withUTF8 { validator.admits(token: $0) }
            #expect(admitted == validator.validate(token: token).isEmpty, "\(token.debugDescription)")
            let lowercase = copy.withUTF8 { SWAR.isLowercaseASCII($0) }
            #expect(lowercase == (ASCII.lowercased(token) == token && token.utf8.allSatisfy { $0 < 0x80 }), "\(token.debugDescription)")
            #expect(copy.withUTF8 { RegisteredDevice.token(lowercasing: $0) } == token.lowercased(), "\(token.debugDescription)")
            #expect(ASCII.lowercased(token) == token.lowercased(), "\(token.debugDescription)")
        }
    }

    /// Header values read in one pass are those the subscript gives, Strings or bytes kept.
    @Test func headerValuesAsBytesAreTheSubscriptsValues() {
        let names = ["Content-Type", "content-type", "CONTENT-TYPE", "Authorization", "authorization", "Content-Length",
                     "Content-Typ", "Content-Typex", "X", "Host", "Authorizatio\u{0}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            var fields: [HTTPFields.Field] = []
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                fields.append(.init(name: names.randomElement(using: &generator)!,
                                    value: ["application/json", "text/plain", "Bearer s1", "", "é"].randomElement(using: &generator)!))
            }
            let strings = HTTPFields(fields)
            var packed = HTTPFields()
            for field in fields {
                var name = field.name, value = field.value
                name.withUTF8 { name in value.withUTF8 { value in packed.appendBytes(name: name, value: value) } }
            }
            for headers in [strings, packed] {
                let (contentType, authorization) = headers.withFirstValues(of: "Content-Type", "Authorization") {
                    ($0.map { String(decoding: $0, as: UTF8.self) }, $1.map { String(decoding: $0, as: UTF8.self) })
                }
                #expect(contentType == headers["Content-Type"])
                #expect(authorization == headers["Authorization"])
                #expect(headers.withFirstValues(of: "Content-Type", "Authorization") { value, _ in FakeBackend.unsupportedMediaType(value) }
                        == Self.referenceUnsupportedMediaType(headers))
            }
        }
    }

    /// `unsupportedMediaType(_:)` as it was, on the header's String.
    static func referenceUnsupportedMediaType(_ headers: HTTPFields) -> String? {
        guard let value = headers["Content-Type"] else { return nil }
        let mediaType = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return mediaType.lowercased() == "application/json" ? nil : (mediaType.isEmpty ? "(empty)" : mediaType)
    }

    /// A plain body's values compare with a stored String as Strings do.
    @Test func plainValuesCompareAsStrings() {
        let texts = ["", "a", "ios", "iOS", "production", "4.2.0", "4.2.00", "K", "\u{212A}", "é", "e\u{301}", Requests.publicKey,
                     String(Requests.publicKey.dropLast()) + "A", String(repeating: "x", count: 7), String(repeating: "x", count: 8),
                     String(repeating: "x", count: 9), "abcd", "abce"]
        for value in texts where value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }) {
            let body = Array("{\"k\":\"\(value)\"}".utf8)
            let plain = PlainValue(range: 6..<(6 + value.utf8.count))
            body.withUnsafeBufferPointer { body in
                #expect(plain.string(in: body) == value)
                for text in texts {
                    #expect(plain.equals(text, in: body) == (value == text), "\(value) vs \(text.debugDescription)")
                }
            }
        }
    }
}

/// A plain valid PUT answered in one step against the general path: the same responses,
/// devices, journal (Swift values and admin JSON) and `onRequest` entries, over a script of
/// requests that takes every turn the one-step path leaves to the general one.
@Suite struct PlainRegistrationTests {
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func body(platform: String? = "ios", environment: String? = "production", appVersion: String? = "4.2.0",
                     publicKey: String? = Requests.publicKey, padding: Int = 0) -> [UInt8] {
        var members: [String] = []
        if let platform { members.append(#""platform":"\#(platform)""#) }
        if let environment { members.append(#""environment":"\#(environment)""#) }
        if let appVersion { members.append(#""appVersion":"\#(appVersion)""#) }
        if let publicKey { members.append(#""publicKey":"\#(publicKey)""#) }
        return Array(("{" + members.joined(separator: ",") + String(repeating: " ", count: padding) + "}").utf8)
    }

    static func put(_ token: String, bearer: String? = "s1", contentType: String? = "application/json",
                    body: [UInt8] = body(), query: String = "", packed: Bool = false) -> HTTPRequest {
        var fields: [(String, String)] = []
        if let bearer { fields.append(("Authorization", "Bearer \(bearer)")) }
        if let contentType { fields.append(("Content-Type", contentType)) }
        var headers = HTTPFields()
        for (name, value) in fields {
            if packed {
                var name = name, value = value
                name.withUTF8 { name in value.withUTF8 { value in headers.appendBytes(name: name, value: value) } }
            } else {
                headers.append(name: name, value: value)
            }
        }
        return HTTPRequest(method: "PUT", path: "/v1/devices/\(token)\(query)", headers: headers, body: body)
    }

    /// Requests in order, each with what to do to both backends before it.
    static func script() -> [(before: (FakeBackend) -> Void, request: HTTPRequest)] {
        let token = Requests.token
        let other = "00" + String(repeating: "cd", count: 31)
        let long = "0f" + String(repeating: "e1", count: 40)
        let nothing: (FakeBackend) -> Void = { _ in }
        var script: [((FakeBackend) -> Void, HTTPRequest)] = [
            (nothing, put(token)),
            (nothing, put(token)),  // identical: the device stays as it was
            (nothing, put(token, packed: true)),
            (nothing, put(token.uppercased())),  // the same device, by case
            (nothing, put(token, body: body(environment: "sandbox"))),
            (nothing, put(token, body: body(appVersion: "4.2.1", padding: 31))),
            (nothing, put(token, bearer: "s2")),  // moves to a2
            (nothing, put(token, bearer: "s2")),
            (nothing, put(token, bearer: "s3")),  // unknown bearer: 401
            (nothing, put(token, bearer: nil)),
            (nothing, put(token, bearer: "")),
            (nothing, put(token, contentType: "text/plain")),
            (nothing, put(token, contentType: nil)),  // read as JSON
            (nothing, put(token, contentType: "application/json; charset=utf-8")),
            (nothing, put(token, contentType: "Application/JSON")),
            (nothing, put(other, query: "?x=1")),
            (nothing, put(other + "a")),  // odd length: 400
            (nothing, put("%2F" + other)),
            (nothing, put("é" + other)),
            (nothing, put("")),
            (nothing, put(token, body: body(appVersion: "4.02.0"))),
            (nothing, put(token, body: body(platform: nil))),
            (nothing, put(token, body: body(publicKey: nil))),
            (nothing, put(token, body: Array(#"{"platform":"\u0069os","environment":"production","appVersion":"1.0.0","publicKey":"\#(Requests.publicKey)"}"#.utf8))),
            (nothing, put(token, body: Array("{}".utf8))),
            // The general path changes a device registered plainly: its body is not the
            // device's any more, and the same bytes again are read and registered anew.
            (nothing, put(token)),
            (nothing, put(token, body: Array(#"{"platform":"ios","environment":"\u0073andbox","appVersion":"4.2.0","publicKey":"\#(Requests.publicKey)"}"#.utf8))),
            (nothing, put(token)),
            (nothing, put(token, bearer: "s2")),  // the same bytes from another account
            (nothing, put(token)),
            (nothing, put(token, body: [])),
            ({ $0.addFault(.tooManyRequests(retryAfter: 3), on: .putDevice) }, put(token)),
            (nothing, put(token)),
            ({ $0.addFault(.delay(milliseconds: 5), on: .putDevice) }, put(token, body: body(environment: "sandbox"))),
            ({ $0.addFault(.loseResponse, on: nil) }, put(other)),
            ({ $0.addFault(.status(code: 500), on: .deleteDevice) }, put(token)),  // a plan for another endpoint
            (nothing, put(token)),
            ({ $0.setOffline(true) }, put(token)),
            ({ $0.setOffline(false) }, put(token)),
            ({ $0.addSession(bearer: "s9", account: "a9") }, put(token, bearer: "s9")),
            ({ $0.removeSession(bearer: "s9") }, put(token, bearer: "s9")),
            (nothing, Requests.delete(token)),
            (nothing, put(token)),
            ({ $0.reset() }, put(token)),  // found again after a reset forgot it
            (nothing, put(token.uppercased(), body: body(environment: "sandbox"))),
            (nothing, put(long)),  // past 64 digits: found by its String
            (nothing, put(long.uppercased())),
            (nothing, put(long, body: body(environment: "sandbox"))),
            (nothing, Requests.delete(long)),
            (nothing, put(long)),
        ]
        var request = put(other)
        request.bodyLimitExceeded = true
        request.body = []
        script.append((nothing, request))
        return script
    }

    @Test func theOneStepPathAnswersAndJournalsAsTheGeneralPath() throws {
        let clock = PushClock(stoppedAt: Self.start)
        let fastEntries = Locked<[BackendJournalEntry]>([])
        let generalEntries = Locked<[BackendJournalEntry]>([])
        let fastDevices = Locked<[RegisteredDevice]>([])
        let generalDevices = Locked<[RegisteredDevice]>([])
        func configuration(_ entries: Locked<[BackendJournalEntry]>, _ devices: Locked<[RegisteredDevice]>) -> FakeBackend.Configuration {
            var configuration = FakeBackend.Configuration(sessions: Requests.sessions, journalCapacity: 16, clock: clock,
                                                          onRequest: { entry in entries.withLock { $0.append(entry) } })
            configuration.onDeviceRegistered = { device in devices.withLock { $0.append(device) } }
            return configuration
        }
        let fast = FakeBackend(configuration: configuration(fastEntries, fastDevices), registersPlainly: true)
        let general = FakeBackend(configuration: configuration(generalEntries, generalDevices), registersPlainly: false)
        for (index, step) in Self.script().enumerated() {
            step.before(fast)
            step.before(general)
            let reported = fastDevices.snapshot.count
            let fastResponse = fast.handle(step.request)
            let generalResponse = general.handle(step.request)
            // `onDeviceRegistered`: once for each device PUT answered 204, with the device held.
            let entry = try #require(fast.journal.last)
            let registered = entry.endpoint == .putDevice && entry.status == 204
            #expect(fastDevices.snapshot.count == reported + (registered ? 1 : 0), "step \(index)")
            if registered, let device = fastDevices.snapshot.last {
                #expect(fast.devices[device.token] == device, "step \(index)")
                #expect(generalDevices.snapshot.last == device, "step \(index)")
            }
            #expect(fastResponse == generalResponse, "step \(index)")
            #expect(fastResponse.body == generalResponse.body, "step \(index)")
            #expect(fastResponse.disposition == generalResponse.disposition, "step \(index)")
            #expect(fast.devices == general.devices, "step \(index)")
            #expect(fast.journal == general.journal, "step \(index)")
            #expect(fast.state.requestCounts == general.state.requestCounts, "step \(index)")
            clock.advance(by: .seconds(1))
        }
        #expect(fastEntries.snapshot == generalEntries.snapshot)
        // The one-step path's entries say when the path is a hex token's (the log line then
        // skips its scan); the line is the same.
        #expect(fastEntries.snapshot.contains { $0.hexTokenStart != nil })
        #expect(fastEntries.snapshot.map(\.logLine) == generalEntries.snapshot.map(\.logLine))
        #expect(fastDevices.snapshot.count == generalDevices.snapshot.count)
        #expect(fast.droppedJournalEntries == general.droppedJournalEntries)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(fast.journal) == encoder.encode(general.journal))
    }

    /// Fault plans added and cleared at run time are seen by the next PUT, plain or not.
    @Test(arguments: [true, false]) func faultsAddedAtRunTimeStrikeTheNextPut(plainly: Bool) {
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions), registersPlainly: plainly)
        #expect(backend.handle(Self.put(Requests.token)).status.code == 204)
        backend.addFault(.tooManyRequests(retryAfter: 3), on: .putDevice)
        #expect(backend.handle(Self.put(Requests.token)).status.code == 429)
        #expect(backend.handle(Self.put(Requests.token)).status.code == 204)  // the plan is spent
        backend.addFault(.tooManyRequests(retryAfter: 3), on: .putDevice, count: 5)
        backend.clearFaults()
        #expect(backend.handle(Self.put(Requests.token)).status.code == 204)
    }

    /// A token's contract may tell a token's case apart (the stored one is lowercase): the
    /// lowercase token after an accepted uppercase one is refused on the one-step path as on
    /// the general one, though its device is in its recent slot (DeviceTable).
    @Test func aCaseSensitiveTokenContractIsAskedForADeviceFoundLately() {
        let token = Contract(name: "device-token", direction: .appToBackend, summary: "An uppercase token only.",
                             schema: Schema.string(oneOf: ["AB12"]), pathParameter: "token", folderName: "device-tokens")
        let contracts = ContractSet(contracts: ContractSet.v1.contracts.filter { $0.name != "device-token" } + [token])
        for plainly in [true, false] {
            let backend = FakeBackend(configuration: .init(sessions: Requests.sessions, contracts: contracts), registersPlainly: plainly)
            #expect(backend.handle(Self.put("AB12")).status == .noContent, "plainly: \(plainly)")
            #expect(backend.handle(Self.put("ab12")).status.code == 400, "plainly: \(plainly)")
            #expect(backend.handle(Self.put("AB12")).status == .noContent, "plainly: \(plainly)")
        }
    }

    /// An identical PUT leaves the device, its time included, as it was.
    @Test func anIdenticalRegistrationLeavesTheDeviceAlone() {
        let clock = PushClock(stoppedAt: Self.start)
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions, clock: clock))
        #expect(backend.handle(Self.put(Requests.token)).status == .noContent)
        clock.advance(by: .seconds(60))
        #expect(backend.handle(Self.put(Requests.token, packed: true)).status == .noContent)
        #expect(backend.devices[Requests.token]?.updatedAt == Self.start)
        #expect(backend.handle(Self.put(Requests.token, body: Self.body(environment: "sandbox"))).status == .noContent)
        #expect(backend.devices[Requests.token]?.updatedAt == Self.start.addingTimeInterval(60))
        #expect(backend.devices[Requests.token]?.environment == "sandbox")
    }

    /// The shapes the two records had before their values moved into a box: they print
    /// the same (`print`, `dump`, test failures), only the type's name differs.
    struct EntryAsStruct {
        var sequence: UInt64, time: Date, endpoint: FakeBackend.Endpoint?, method: String, path: String, account: String?,
            status: Int?, violations: [Violation], fault: BackendFault?, detail: String?, serverName: String?
    }

    struct DeviceAsStruct: Encodable {
        var token: String, account: String, environment: String, appVersion: String, publicKey: String, platform: String,
            updatedAt: Date
    }

    @Test func boxedRecordsPrintAndCompareAsTheirStructsDid() throws {
        let violation = Violation(pointer: "/x", ruleID: "r", message: "m")
        let entry = BackendJournalEntry(sequence: 7, time: Self.start, endpoint: .putDevice, method: "PUT", path: "/v1/devices/ab",
                                        account: "a1", status: 204, violations: [violation], fault: .delay(milliseconds: 5),
                                        detail: nil, serverName: "s")
        let entryStruct = EntryAsStruct(sequence: 7, time: Self.start, endpoint: .putDevice, method: "PUT", path: "/v1/devices/ab",
                                        account: "a1", status: 204, violations: [violation], fault: .delay(milliseconds: 5),
                                        detail: nil, serverName: "s")
        #expect(String(describing: entry) == String(describing: entryStruct).replacingOccurrences(of: "EntryAsStruct", with: "BackendJournalEntry"))
        var entryDump = "", structDump = ""
        dump(entry, to: &entryDump)
        dump(entryStruct, to: &structDump)
        #expect(entryDump.replacingOccurrences(of: "FakeBackend.BackendJournalEntry", with: "X")
                == structDump.replacingOccurrences(of: "FakeBackendTests.PlainRegistrationTests.EntryAsStruct", with: "X"))

        let device = RegisteredDevice(token: "ab", account: "a1", environment: "production", appVersion: "1.0.0",
                                      publicKey: Requests.publicKey, updatedAt: Self.start)
        let deviceStruct = DeviceAsStruct(token: "ab", account: "a1", environment: "production", appVersion: "1.0.0",
                                          publicKey: Requests.publicKey, platform: "ios", updatedAt: Self.start)
        #expect(String(describing: device) == String(describing: deviceStruct).replacingOccurrences(of: "DeviceAsStruct", with: "RegisteredDevice"))

        // A copy changed is a new value; changed back, it equals (and hashes as) the first.
        var changed = entry
        changed.status = 400
        #expect(changed != entry && changed.status == 400 && entry.status == 204)
        changed.status = 204
        #expect(changed == entry && changed.hashValue == entry.hashValue)
        var moved = device
        moved.account = "a2"
        #expect(moved != device && moved.account == "a2" && device.account == "a1")
        moved.account = "a1"
        #expect(moved == device && moved.hashValue == device.hashValue)
        #expect(Set([device, moved]).count == 1)

        // JSON both ways, as the admin API writes them.
        let encoder = AdminJSON.encoder
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try #require(ISO8601DateFormatter.withFractionalSeconds.date(from: text))
        }
        #expect(try decoder.decode(RegisteredDevice.self, from: encoder.encode(device)) == device)
        #expect(try encoder.encode(device) == encoder.encode(deviceStruct))
        let json = try #require(String(data: encoder.encode(device), encoding: .utf8))
        #expect(json.contains(#""appVersion" : "1.0.0""#) && json.contains(#""updatedAt" : "2023-11-14T22:13:20.000Z""#))
    }
}

extension ISO8601DateFormatter {
    static var withFractionalSeconds: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
