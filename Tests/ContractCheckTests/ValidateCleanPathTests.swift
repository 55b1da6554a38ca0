@testable import ContractCheckCLI
import Contracts
import Testing
import PushTestSupport

/// `validate` takes a checker's word that a document is clean (``DocumentChecker/isClean(_:contract:)``)
/// without copying or parsing it, but never over what it says first: a file too large for
/// its contract (issue 41).
@Suite struct ValidateCleanPathTests {
    /// FakeChecker's rules, with a clean check that says yes to everything and a size limit
    /// of 100 bytes, so a test sees which answer won.
    struct TrustingChecker: DocumentChecker {
        let inner = FakeChecker()
        var contractNames: [String] { inner.contractNames }
        func contractName(forFolder folder: String) -> String? { inner.contractName(forFolder: folder) }
        func contractName(forFileExtension fileExtension: String) -> String? { inner.contractName(forFileExtension: fileExtension) }
        func check(_ bytes: [UInt8], contract: String) -> DocumentCheck { inner.check(bytes, contract: contract) }
        func isClean(_ bytes: UnsafeBufferPointer<UInt8>, contract: String) -> Bool { true }
        func sizeViolation(byteCount: Int, contract: String) -> Violation? {
            byteCount > 100 ? Violation(pointer: "", ruleID: "\(contract).size", message: "expected at most 100 bytes, found \(byteCount)") : nil
        }
    }

    @Test func aCleanAnswerIsTakenButNotOverTheSizeLimit() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        try folder.write("payloads/small.json", #"{"bad": 1}"#)
        try folder.write("payloads/large.json", #"{"bad": 1, "pad": "\#(String(repeating: "x", count: 120))"}"#)
        let result = runValidate(["payloads"], checker: TrustingChecker(), in: folder.path)
        #expect(result.outputLines == [
            "payloads/large.json: error: (document): expected at most 100 bytes, found 141 [payload.size]",
            "checked 2 files: 1 error, 0 warnings",
        ], "\(result.outputLines)")
    }

    @Test func theV1CheckerPassesPlainCleanPayloadsOnly() {
        let checker = ContractSetChecker(.v1)
        let clean = #"{"aps":{"alert":"On the way"},"notificationId":"n1"}"#
        for (text, contract, expected) in [(clean, "payload", true), (clean, "no-such-contract", false), (clean, "device-registration", false),
                                           (#"{"aps":{"alert":"On the w\u0061y"},"notificationId":"n1"}"#, "payload", false),
                                           (#"{"aps":{"alert":"On the way"}}"#, "payload", false)] {
            let answer = Array(text.utf8).withUnsafeBufferPointer { checker.isClean($0, contract: contract) }
            #expect(answer == expected, "\(text) as \(contract)")
            if answer, case .checked(let violations) = checker.check(Array(text.utf8), contract: contract) {
                #expect(violations.isEmpty)
            }
        }
    }
}
