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
