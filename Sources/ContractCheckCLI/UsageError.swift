import PushCore
import Contracts

/// A command line that cannot be run as written: an unknown subcommand or option, a missing
/// or malformed value. Printed as `Error: … / Usage: …` and exits 64.
package struct UsageError: Error, Sendable, Hashable, CustomStringConvertible, CodedError {
    /// The kinds; `==` compares these, the message carries the details.
    package enum Code: Hashable, Sendable {
        case unknownSubcommand, unknownOption, missingValue, invalidValue, repeatedOption,
             missingArgument, unexpectedArgument, conflictingOptions
    }

    package let code: Code
    /// The sentence after `Error: `, including any "did you mean" hint.
    package let message: String

    /// A subcommand name that is not in the command table.
    package static func unknownSubcommand(_ name: String, suggestion: String?) -> UsageError {
        UsageError(code: .unknownSubcommand, message: "unknown subcommand '\(name)'" + hint(suggestion))
    }

    /// An option the command does not take.
    package static func unknownOption(_ option: String, suggestion: String?) -> UsageError {
        UsageError(code: .unknownOption, message: "unknown option '\(option)'" + hint(suggestion))
    }

    /// An option that needs a value was the last argument (or was followed by another option).
    package static func missingValue(option: String, valueName: String) -> UsageError {
        UsageError(code: .missingValue, message: "option '\(option)' needs a value: \(option) \(valueName)")
    }

    /// A value outside the option's allowed set.
    package static func invalidValue(_ value: String, option: String, allowed: [String], suggestion: String?) -> UsageError {
        let choices = allowed.map { "'\($0)'" }.joined(separator: ", ")
        return UsageError(code: .invalidValue, message: "invalid value '\(value)' for '\(option)': expected one of \(choices)" + hint(suggestion))
    }

    /// A value the option's own check refuses, worded like a choice outside the allowed set:
    /// `invalid value '70000' for '--PORT-OPTION': expected a port from 0 to 65535`.
    /// - Parameter outOfRange: the value is a number of the right kind outside the range
    ///   (`-1` for a port): said as "out of range" before what is expected.
    package static func invalidValue(_ value: String, option: String, expected: String, outOfRange: Bool = false) -> UsageError {
        UsageError(code: .invalidValue, message: "invalid value '\(value)' for '\(option)': " + (outOfRange ? "out of range; " : "") + "expected \(expected)")
    }

    /// Two options that contradict each other: `--check and --write cannot be combined; give one`.
    /// - Parameter advice: what to do instead, after the semicolon.
    package static func conflictingOptions(_ first: String, _ second: String, advice: String) -> UsageError {
        UsageError(code: .conflictingOptions, message: "\(first) and \(second) cannot be combined; \(advice)")
    }

    /// A value of the right form that cannot be used: an empty path, a folder that does not
    /// exist, a git ref git does not know. `reason` says what is wrong and what to give.
    package static func unusableValue(_ value: String, option: String, reason: String) -> UsageError {
        UsageError(code: .invalidValue, message: "cannot use '\(value)' for '\(option)': \(reason)")
    }

    /// An option given twice that may appear only once.
    package static func repeatedOption(_ option: String) -> UsageError {
        UsageError(code: .repeatedOption, message: "option '\(option)' given more than once; give it once")
    }

    /// A required positional argument is absent.
    package static func missingArgument(_ name: String) -> UsageError {
        UsageError(code: .missingArgument, message: "missing expected argument '\(name)'")
    }

    /// A positional argument the command does not take.
    package static func unexpectedArgument(_ argument: String, hint: String? = nil) -> UsageError {
        UsageError(code: .unexpectedArgument, message: "unexpected argument '\(argument)'" + (hint.map { "; \($0)" } ?? ""))
    }

    private static func hint(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }

    /// A value outside the allowed set, with "did you mean" for a near name, or every name
    /// it begins (`live-activity`: `live-activity-payload` or `live-activity-registration`).
    package static func invalidValue(_ value: String, option: String, allowed: [String]) -> UsageError {
        if let near = Suggestion.closest(to: value, among: allowed, acceptingUniquePrefix: true) {
            return invalidValue(value, option: option, allowed: allowed, suggestion: near)
        }
        let begun = value.count >= 3 ? allowed.filter { $0.hasPrefix(value) } : []
        let error = invalidValue(value, option: option, allowed: allowed, suggestion: nil)
        guard !begun.isEmpty else { return error }
        return UsageError(code: .invalidValue, message: error.message + "; did you mean " + begun.map { "'\($0)'" }.joined(separator: " or ") + "?")
    }
}
