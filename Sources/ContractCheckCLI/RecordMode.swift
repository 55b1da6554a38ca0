import Contracts
/// When `contract-check schema` writes golden files, from `PUSHCONTRACTS_RECORD`
/// (`missing`, `all`, `never`), as snapshot-testing libraries do.
package enum RecordMode: String, Sendable, CaseIterable {
    /// Write files that do not exist yet; compare the others (the local default).
    case missing
    /// Rewrite every file that differs.
    case all
    /// Write nothing; a missing or different file is a failure (always on CI).
    case never

    /// The environment variable that sets the mode.
    package static let variable = "PUSHCONTRACTS_RECORD"

    /// The mode `environment` asks for. With `CI` set (to anything but `false` or `0`), the
    /// mode is `never` whatever the variable says, so CI never records over a golden file.
    /// - Throws: ``UsageError`` for a value that is not a mode.
    package static func from(_ environment: [String: String]) throws(UsageError) -> RecordMode {
        var mode = RecordMode.missing
        if let value = environment[variable], !value.isEmpty {
            guard let parsed = RecordMode(rawValue: value) else {
                throw .invalidValue(value, option: variable, allowed: allCases.map(\.rawValue),
                                    suggestion: Suggestion.closest(to: value, among: allCases.map(\.rawValue), acceptingUniquePrefix: true))
            }
            mode = parsed
        }
        return isCI(environment) ? .never : mode
    }

    /// True when `CI` is set to something other than empty, `false` or `0`.
    package static func isCI(_ environment: [String: String]) -> Bool {
        guard let value = environment["CI"] else { return false }
        return !["", "false", "0"].contains(value.lowercased())
    }
}
