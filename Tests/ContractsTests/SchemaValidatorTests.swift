import Contracts
import Testing

@Suite struct SchemaValidatorTests {
    /// A team's own contract, declared with the same DSL.
    static let team = Contract(
        name: "profile", direction: .appToBackend, summary: "A test contract.",
        schema: .object([
            .required("id", .string(minLength: 1, maxLength: 8, format: .identifier)),
            .optional("tags", .array(of: .string(oneOf: ["a", "b"]), maxItems: 2)),
            .optional("level", .constants([.integer(10), .integer(5), .integer(1)])),
            .optional("score", .nullable(.number(minimum: 0, maximum: 1))),
            .optional("on", .integerFlag),
            .optional("note", .anyOf([.string(maxLength: 3), .object([.required("text", .string())])])),
            .optional("a/b~c", .object([.required("x", .boolean)], unknownMembers: .allow)),
        ]),
        rules: [ContractRule(id: "profile.tags-need-level", summary: "Tags come with a level.",
                             form: RuleForm(when: .present(["tags"]), then: .present(["level"]))) { document, report in
            if document.member("tags") != nil, document.member("level") == nil {
                report.add("/tags", at: document.position, "tags expect a level, found none — add one.")
            }
        }])

    static func violations(_ json: String, _ contract: Contract = team) -> [Violation] {
        contract.validate(bytes: Array(json.utf8))
    }

    @Test func reportsEveryViolationNotOnlyTheFirst() {
        let found = SchemaValidatorTests.violations(#"{"tags": ["a", "c", "b"], "level": 3, "score": 2, "on": true, "extra": 1}"#)
        #expect(Set(found.map(\.ruleID)) == ["profile.length", "profile.enum", "profile.range", "profile.integer-flag",
                                             "profile.unknown-member", "profile.required"])
        #expect(found.count == 7)
        #expect(found.contains { $0.pointer == "/tags/1" && $0.ruleID == "profile.enum" })
    }

    @Test func positionsPointAtKeysForUnknownAndDuplicateAndAtTheObjectForMissing() throws {
        let json = "{\n  \"id\": \"x\",\n  \"extra\": 1,\n  \"id\": \"y\",\n  \"a/b~c\": {}\n}"
        let found = SchemaValidatorTests.violations(json)
        let unknown = try #require(found.first { $0.ruleID == "profile.unknown-member" })
        #expect(unknown.position?.line == 3 && unknown.position?.column == 3)
        #expect(unknown.pointer == "/extra")
        let duplicate = try #require(found.first { $0.ruleID == "profile.duplicate-key" })
        #expect(duplicate.position?.line == 4 && duplicate.position?.column == 3)
        #expect(duplicate.message.contains("first at 2:3"))
        let missing = try #require(found.first { $0.ruleID == "profile.required" })
        #expect(missing.pointer == "/a~1b~0c", "RFC 6901 escapes / as ~1 and ~ as ~0")
        #expect(missing.position?.line == 5 && missing.position?.column == 12)
        #expect(missing.message.contains("\"x\""))
    }

    @Test func theStyleGuideMessage() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let found = payload.validate(bytes: Array(#"{"aps": {"alert": "Hi", "mutable-content": true}, "notificationId": "1"}"#.utf8))
        #expect(found.map(\.description) == [
            "1:44 /aps/mutable-content: expected 0 or 1, found true — APNs reads booleans as absent; write 1. [payload.integer-flag]",
        ])
    }

    @Test func anyOfPicksTheAlternativeOfTheSameType() {
        #expect(SchemaValidatorTests.violations(#"{"id": "a", "note": "abc"}"#).isEmpty)
        #expect(SchemaValidatorTests.violations(#"{"id": "a", "note": {"text": "long text"}}"#).isEmpty)
        let tooLong = SchemaValidatorTests.violations(#"{"id": "a", "note": "abcd"}"#)
        #expect(tooLong.map(\.ruleID) == ["profile.length"])
        let missing = SchemaValidatorTests.violations(#"{"id": "a", "note": {}}"#)
        #expect(missing.map(\.ruleID) == ["profile.required"] && missing.first?.pointer == "/note")
        let wrongType = SchemaValidatorTests.violations(#"{"id": "a", "note": 5}"#)
        #expect(wrongType.map(\.message) == ["expected a string or an object, found 5 — write a string or an object."])
    }

    /// Alternatives of one type are tried in turn: a later one that passes clears what an
    /// earlier one reported, and when none passes the first one's violations are reported;
    /// violations found before the anyOf stay.
    @Test func anyOfOfOneTypeKeepsEarlierViolationsAndReportsTheFirstAlternative() {
        let contract = Contract(
            name: "any", direction: .appToBackend, summary: "A test contract.",
            schema: .object([
                .required("id", .string(maxLength: 2)),
                .optional("v", .anyOf([.string(maxLength: 2), .string(minLength: 5)])),
            ]))
        let passes = SchemaValidatorTests.violations(#"{"id": "abc", "v": "abcdefg"}"#, contract)
        #expect(passes.map(\.description) == ["1:8 /id: expected at most 2 characters, found 3 — shorten it. [any.length]"])
        let fails = SchemaValidatorTests.violations(#"{"id": "abc", "v": "abc"}"#, contract)
        #expect(fails.map(\.description) == [
            "1:8 /id: expected at most 2 characters, found 3 — shorten it. [any.length]",
            "1:20 /v: expected at most 2 characters, found 3 — shorten it. [any.length]",
        ])
    }

    @Test func orderUpdateThreadIDMessagesNameTheExpectedThread() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        func messages(_ json: String) -> [String] {
            payload.validate(bytes: Array(json.utf8)).filter { $0.ruleID == "payload.order-update-thread-id" }.map(\.message)
        }
        #expect(messages(#"{"aps": {"category": "ORDER_UPDATE", "thread-id": "order-8F3K"}, "route": "orders/8F3K"}"#).isEmpty)
        #expect(messages(#"{"aps": {"category": "ORDER_UPDATE", "thread-id": "order-9"}, "route": "orders/8F3K"}"#) == [
            "ORDER_UPDATE expects thread-id \"order-8F3K\", found \"order-9\" — use the order id of the route so the order's pushes group together.",
        ])
        #expect(messages(#"{"aps": {"category": "ORDER_UPDATE"}, "route": "home"}"#) == [
            "ORDER_UPDATE expects \"thread-id\": order-<id>, found none — add it so one order's pushes group together.",
        ])
    }

    @Test func nullableNumbersAndIntegers() {
        #expect(SchemaValidatorTests.violations(#"{"id": "a", "score": null}"#).isEmpty)
        #expect(SchemaValidatorTests.violations(#"{"id": "a", "score": 0.5}"#).isEmpty)
        #expect(SchemaValidatorTests.violations(#"{"id": "a", "score": "x"}"#).map(\.ruleID) == ["profile.type"])
        #expect(SchemaValidatorTests.violations(#"{"id": "a", "level": 5}"#).isEmpty)
        #expect(SchemaValidatorTests.violations(#"{"id": "a", "level": 5.0}"#).map(\.ruleID) == ["profile.enum"])
        let payload = ContractSet.v1.contract(named: "payload")
        let huge = payload?.validate(bytes: Array(#"{"aps": {"badge": 99999999999999999999}, "notificationId": "1"}"#.utf8))
        #expect(huge?.map(\.ruleID) == ["payload.range"])
        let decimal = payload?.validate(bytes: Array(#"{"aps": {"badge": 1.5}, "notificationId": "1"}"#.utf8))
        #expect(decimal?.map(\.ruleID) == ["payload.type"])
    }

    @Test func crossFieldRulesOfATeamContractRun() {
        let found = SchemaValidatorTests.violations(#"{"id": "a", "tags": ["a"]}"#)
        #expect(found.map(\.ruleID) == ["profile.tags-need-level"])
        #expect(SchemaValidatorTests.team.ruleIDs.contains("profile.tags-need-level"))
        let set = ContractSet(contracts: [SchemaValidatorTests.team])
        #expect(set.contract(named: "profile") != nil)
        #expect(set.ruleCatalog.map(\.id).contains("json.syntax"))
    }

    @Test func unknownMembersSuggestTheClosestName() throws {
        let opened = try #require(ContractSet.v1.contract(named: "notification-opened"))
        let found = opened.validate(bytes: Array(#"{"acton": "open", "action": "open"}"#.utf8))
        #expect(found.count == 1)
        #expect(found.first?.message.contains("did you mean \"action\"?") == true)
    }

    @Test func syntaxErrorsBecomeOneViolationWithLineAndColumn() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let found = payload.validate(bytes: Array("{\n  \"aps\": {},\n}".utf8))
        #expect(found.count == 1)
        #expect(found.first?.ruleID == "json.syntax")
        #expect(found.first?.position?.line == 3)
    }

    @Test func sizeCountsTheBytesAsSentAndTheVoIPLimit() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let body = String(repeating: "x", count: 4500)
        let big = Array(#"{"aps": {"alert": "\#(body)"}, "notificationId": "1"}"#.utf8)
        #expect(payload.validate(bytes: big).map(\.ruleID) == ["payload.size"])
        #expect(payload.validate(bytes: big, maximumPayloadBytes: ValidationOptions.voipPayloadLimit).isEmpty)
        // Without the bytes, the compact form is measured.
        let document = try JSONReader.parse(big)
        #expect(payload.validate(document).map(\.ruleID) == ["payload.size"])
        // Whitespace counts as sent; the message says the compact size.
        let padded = Array((#"{"aps": {"alert": "hi"}, "notificationId": "1"}"# + String(repeating: " ", count: 5000)).utf8)
        let found = payload.validate(bytes: padded)
        #expect(found.map(\.ruleID) == ["payload.size"])
        #expect(found.first?.message.contains("compact it is") == true)
    }

    @Test func pathParametersValidateWithoutPositions() throws {
        let token = try #require(ContractSet.v1.contract(named: "device-token"))
        #expect(token.pathParameter == "token")
        #expect(token.validate(pathParameter: "e3b53618dc34756b").isEmpty)
        let odd = token.validate(pathParameter: "e3b")
        #expect(odd.map(\.ruleID) == ["device-token.format"])
        #expect(odd.first?.position == nil && odd.first?.pointer == "")
        #expect(token.validate(pathParameter: "").map(\.ruleID) == ["device-token.length"])
        let id = try #require(ContractSet.v1.contract(named: "notification-id"))
        #expect(id.validate(pathParameter: "91").isEmpty)
        #expect(Set(id.validate(pathParameter: String(repeating: "/", count: 70)).map(\.ruleID)) == ["notification-id.length", "notification-id.format"])
    }

    @Test func theV1SetHasTheNamedContracts() {
        let v1 = ContractSet.v1
        #expect(v1.contracts.map(\.name) == ["device-registration", "device-token", "notification-opened", "notification-id",
                                             "payload", "apns-file", "apns-error", "apns-channel", "live-activity-payload",
                                             "live-activity-registration", "push-to-start-registration", "order-id"])
        #expect(v1.contract(named: "payload")?.direction == .backendToApp)
        #expect(v1.contract(named: "device-registration")?.direction == .appToBackend)
        #expect(v1.contract(named: "apns-error")?.direction == .providerToAPNs)
        #expect(v1.contract(forFileExtension: "apns")?.name == "apns-file")
        #expect(v1.contract(forFilePath: "Fixtures/valid/live-activities/start.json")?.name == "live-activity-payload")
        #expect(v1.contract(forFolder: "opens")?.name == "notification-opened")
        #expect(v1.contract(named: "nope") == nil)
        let route = v1.contract(named: "payload").flatMap { contract -> Member? in
            guard case .object(let object) = contract.schema.kind else { return nil }
            return object.member(named: "route")
        }
        #expect(route?.unknownValueFallback != nil, "route marks its unknown-value fallback for the breaking-change diff")
        let ids = v1.ruleCatalog.map(\.id)
        #expect(ids.count == Set(ids).count)
        #expect(v1.ruleCatalog.first { $0.id == "payload.unknown-route" }?.severity == .warning)
    }

    @Test func pointersEscapeTildeAndSlash() {
        #expect(JSONPointer.escape("a/b~c") == "a~1b~0c")
        #expect(JSONPointer.make(["aps", "mutable-content"]) == "/aps/mutable-content")
        #expect(JSONPointer.make([]) == "")
        #expect(JSONPointer.make(["", "~1"]) == "//~01")
    }
}

@Suite struct MissingMemberTests {
    @Test func aMissingMemberNamesTheNearMiss() throws {
        let payload = try #require(ContractSet.v1.contract(named: "payload"))
        let found = payload.validate(bytes: Array(#"{"aps": {"alert": "Hi"}, "notificationID": "91"}"#.utf8))
        #expect(found.map(\.ruleID) == ["payload.notification-id-required"])
        #expect(found.first?.message.contains("found none, but \"notificationID\"") == true)
    }
}

@Suite struct ContractSelectionTests {
    @Test func aFilePathSelectsItsContract() {
        let v1 = ContractSet.v1
        #expect(v1.contract(forFilePath: "Fixtures/invalid/payloads/too-large.json")?.name == "payload")
        #expect(v1.contract(forFilePath: "/tmp/devices/a.json")?.name == "device-registration")
        #expect(v1.contract(forFilePath: "payloads/push.apns")?.name == "apns-file", "the extension wins over the folder")
        #expect(v1.contract(forFilePath: "opens/nested/deeper/x.json")?.name == "notification-opened")
        #expect(v1.contract(forFilePath: "apns-errors/410.json")?.name == "apns-error")
        #expect(v1.contract(forFilePath: "elsewhere/x.json") == nil)
        #expect(v1.contract(forFilePath: "") == nil)
        #expect(v1.contract(forFilePath: "payloads/.apns")?.name == "payload", "a dot file has no extension")
    }
}

@Suite struct SimulatorFileTests {
    static func file(alertLength: Int, indent: Int) -> [UInt8] {
        let pad = String(repeating: " ", count: indent)
        let text = "{\(pad)\"aps\": {\"alert\": \"\(String(repeating: "x", count: alertLength))\"},\(pad)\"notificationId\": \"1\","
            + "\(pad)\"Simulator Target Bundle\": \"com.example.shop\"}"
        return Array(text.utf8)
    }

    @Test func sizeIsThePayloadSentCompactlyWithoutTheSimulatorKey() throws {
        let apnsFile = try #require(ContractSet.v1.contract(named: "apns-file"))
        // About 4060 bytes of payload, pretty-printed well over 4096 and with the Simulator key: fine.
        #expect(apnsFile.validate(bytes: SimulatorFileTests.file(alertLength: 4030, indent: 200)).isEmpty)
        let over = apnsFile.validate(bytes: SimulatorFileTests.file(alertLength: 4100, indent: 0))
        #expect(over.map(\.ruleID) == ["payload.size"])
    }
}
