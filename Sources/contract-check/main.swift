import ContractCheckCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A global, so the arguments are not freed on the way out (10,000 paths given to `validate`
// took ~0.4 M instructions to release just before the process ended anyway).
let arguments = Array(CommandLine.arguments.dropFirst())
exit(ContractCheck.main(arguments))
