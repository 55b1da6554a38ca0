import ContractCheckCLI
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(ContractCheck.main(Array(CommandLine.arguments.dropFirst())))
