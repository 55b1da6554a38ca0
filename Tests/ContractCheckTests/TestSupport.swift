import ContractCheckCLI
import Contracts
import Foundation

/// What one in-process run of the tool printed and returned.
struct RunResult {
    var status: Int32
    var output: String
    var error: String
    var outputLines: [String] { output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    var errorLines: [String] { error.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
}

/// Runs `contract-check` in-process with the v1 contracts.
func runTool(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:], terminal: Bool = false) -> RunResult {
    let io = CommandIO.capturing(environment: environment, currentDirectory: directory, outputIsTerminal: terminal)
    let status = ContractCheck.main(arguments, io: io)
    return RunResult(status: status, output: io.capturedOutput, error: io.capturedError)
}

/// Runs `validate` in-process against `checker`.
func runValidate(_ arguments: [String], checker: any DocumentChecker, in directory: String? = nil, environment: [String: String] = [:], terminal: Bool = false) -> RunResult {
    let io = CommandIO.capturing(environment: environment, currentDirectory: directory, outputIsTerminal: terminal)
    let status = ValidateCommand.run(arguments, io: io, checker: checker)
    return RunResult(status: status, output: io.capturedOutput, error: io.capturedError)
}

/// A contract set for framework tests: real JSON syntax, and two rules that are easy to
/// trigger: a member `"bad"` is an error at its value, a member `"odd"` a warning.
struct FakeChecker: DocumentChecker {
    var contractNames: [String] { ["payload", "device-registration", "apns-file"] }

    func contractName(forFolder folder: String) -> String? {
        ["payloads": "payload", "devices": "device-registration"][folder]
    }

    func contractName(forFileExtension fileExtension: String) -> String? {
        fileExtension == "apns" ? "apns-file" : nil
    }

    func check(_ bytes: [UInt8], contract: String) -> DocumentCheck {
        let root: JSONNode
        do throws(JSONSyntaxError) {
            root = try JSONReader.parse(bytes)
        } catch {
            return .syntaxError(position: error.position, message: error.message)
        }
        var violations: [Violation] = []
        for member in root.value.objectMembers ?? [] {
            if member.key == "bad" {
                violations.append(Violation(pointer: "/bad", ruleID: "\(contract).no-bad", position: member.value.position, message: "expected no \"bad\", found one; remove it"))
            } else if member.key == "odd" {
                violations.append(Violation(pointer: "/odd", ruleID: "\(contract).odd", severity: .warning, position: member.value.position, message: "odd, but allowed"))
            }
        }
        return .checked(violations)
    }
}

/// A fresh temporary folder, removed when the value is dropped by `remove()`.
struct TemporaryFolder {
    let path: String

    init() throws {
        let template = NSTemporaryDirectory() + "contract-check-tests.XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    /// Writes `contents` at `relativePath`, creating folders on the way.
    @discardableResult
    func write(_ relativePath: String, _ contents: String) throws -> String {
        try write(relativePath, bytes: Array(contents.utf8))
    }

    @discardableResult
    func write(_ relativePath: String, bytes: [UInt8]) throws -> String {
        let full = path + "/" + relativePath
        let folder = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // POSIX rather than Data.write(to:), which is slow here (milliseconds per file).
        guard let file = fopen(full, "wb") else { throw CocoaError(.fileWriteUnknown) }
        let written = bytes.isEmpty ? 0 : fwrite(bytes, 1, bytes.count, file)
        guard fclose(file) == 0, written == bytes.count else { throw CocoaError(.fileWriteUnknown) }
        return full
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
