/// The `contract-check` command line tool, callable in-process for tests.
public enum ContractCheck {
    /// Runs the tool with `arguments` (without the program name) and returns the exit code.
    public static func main(_ arguments: [String]) -> Int32 {
        print("contract-check: not yet implemented")
        return 64
    }
}
