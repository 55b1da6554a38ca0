/// The exit codes of every subcommand (sysexits' `EX_USAGE` for usage errors).
package enum ExitCode {
    /// Nothing to report (warnings alone still exit 0).
    package static let success: Int32 = 0
    /// Violations, breaking changes, or files that could not be checked.
    package static let findings: Int32 = 1
    /// The command line itself is wrong.
    package static let usage: Int32 = 64
}
