import Contracts

/// What `validate` needs from a contract set: the contract names, and a way to parse and
/// check one document's bytes against one of them.
///
/// A protocol so the CLI can run a team's own contract set (and tests a fake one).
package protocol DocumentChecker: Sendable {
    /// The names `--contract` accepts, e.g. `payload`, `device-registration`.
    var contractNames: [String] { get }
    /// The contract a folder of that name holds (`payloads` → `payload`), if any.
    func contractName(forFolder folder: String) -> String?
    /// The contract files with that extension hold wherever they are (`apns` → `apns-file`), if any.
    func contractName(forFileExtension fileExtension: String) -> String?
    /// The folder names that select a contract (`devices`, `payloads`, …), for messages.
    var folderNames: [String] { get }
    /// The file extensions that select a contract (`apns`), for messages.
    var fileExtensions: [String] { get }
    /// The folder whose files are checked against `contract` (`payload` → `payloads`), if any.
    func folderName(forContract contract: String) -> String?
    /// Parses `bytes` as one JSON document and checks it against the contract `contract`
    /// (one of ``contractNames``). Rules on the bytes as sent (such as the payload size
    /// limit) are checked on `bytes`.
    func check(_ bytes: [UInt8], contract: String) -> DocumentCheck
    /// The size violation for a document of `byteCount` bytes so far over the contract's size
    /// limit that no reading of it could fit, found without parsing it; nil to parse and check.
    func sizeViolation(byteCount: Int, contract: String) -> Violation?
    /// True only when `bytes` are a document ``check(_:contract:)`` would answer with no
    /// violation, decided without parsing it into a tree; false means nothing (check it).
    func isClean(_ bytes: UnsafeBufferPointer<UInt8>, contract: String) -> Bool
    /// ``isClean(_:contract:)``, and false only when the bytes were read and found not clean
    /// (nil when the quick check could not read them): then ``check(_:contract:knownNotClean:)``
    /// skips the same check on the tree.
    func cleanAnswer(_ bytes: UnsafeBufferPointer<UInt8>, contract: String) -> Bool?
    /// ``check(_:contract:)``; `knownNotClean` when ``cleanAnswer(_:contract:)`` said false.
    func check(_ bytes: [UInt8], contract: String, knownNotClean: Bool) -> DocumentCheck
}

extension DocumentChecker {
    package var folderNames: [String] { [] }
    package var fileExtensions: [String] { [] }
    package func folderName(forContract contract: String) -> String? { nil }
    package func sizeViolation(byteCount: Int, contract: String) -> Violation? { nil }
    package func isClean(_ bytes: UnsafeBufferPointer<UInt8>, contract: String) -> Bool { false }
    package func cleanAnswer(_ bytes: UnsafeBufferPointer<UInt8>, contract: String) -> Bool? {
        isClean(bytes, contract: contract) ? true : nil
    }
    package func check(_ bytes: [UInt8], contract: String, knownNotClean: Bool) -> DocumentCheck {
        check(bytes, contract: contract)
    }
}

/// The outcome of checking one document.
package enum DocumentCheck: Sendable, Hashable {
    /// The bytes are not JSON (RFC 8259): where and why.
    case syntaxError(position: SourcePosition, message: String)
    /// The document parsed; these are its violations (empty when it conforms).
    case checked([Violation])
}
