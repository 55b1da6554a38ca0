/// The exit codes of every subcommand (sysexits' `EX_USAGE` for usage errors).
public enum ExitCode {
    /// Nothing to report (warnings alone still exit 0).
    public static let success: Int32 = 0
    /// Violations, breaking changes, or files that could not be checked.
    public static let findings: Int32 = 1
    /// The command line itself is wrong.
    public static let usage: Int32 = 64
}
