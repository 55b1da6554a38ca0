import Contracts
import Foundation
import FakeAPNs
import PushScenarios
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ServeCommand.Options {
    /// The options that configure FakeAPNs, which `--no-apns` does not run.
    static let apnsOptions = ["--apns-port", "--apns-channels-port", "--apns-topic", "--apns-key", "--apns-environment", "--apns-any-token",
                              "--forward-to-simulator", "--scenario"] + certificateOptions

    /// The options `parsed` gives, each value checked.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        var options = Self()
        if let extra = parsed.positionals.first {
            throw UsageError.unexpectedArgument(extra, hint: "serve takes options only.")
        }
        options.quiet = parsed.flags.contains("--quiet")
        options.apnsAnyToken = parsed.flags.contains("--apns-any-token")
        options.noAPNs = parsed.flags.contains("--no-apns")
        if options.noAPNs, let apnsOption = Self.apnsOptions.first(where: { parsed.values[$0] != nil || parsed.flags.contains($0) }) {
            // An option for a server that will not run is a mistake in the script, not a no-op.
            throw UsageError.conflictingOptions("--no-apns", apnsOption, advice: "--no-apns runs no FakeAPNs, so drop one of them")
        }
        options.tls = parsed.flags.contains("--tls")
        if let value = parsed.value(for: "--tls-ca-dir") {
            guard options.tls else { throw UsageError.unusableValue(value, option: "--tls-ca-dir", reason: "it keeps the CA of --tls; add --tls") }
            guard !value.isEmpty else { throw UsageError.unusableValue(value, option: "--tls-ca-dir", reason: "give a directory") }
            options.tlsCADirectory = value
        }
        try options.readCertificateOptions(parsed)
        if let value = parsed.value(for: "--backend-port") { options.backendPort = try ServeCommand.port(value, option: "--backend-port") }
        if let value = parsed.value(for: "--admin-port") { options.adminPort = try ServeCommand.port(value, option: "--admin-port") }
        if let value = parsed.value(for: "--apns-port") { options.apnsPort = try ServeCommand.port(value, option: "--apns-port") }
        if let value = parsed.value(for: "--apns-channels-port") {
            options.apnsChannelsPort = try ServeCommand.port(value, option: "--apns-channels-port")
        }
        // One port asked of two servers: the second would fail to bind with "Address already
        // in use", which reads as someone else's server. Said as the command line's mistake.
        let ports = [("--backend-port", options.backendPort), ("--apns-port", options.apnsPort ?? 0), ("--admin-port", options.adminPort),
                     ("--apns-channels-port", options.apnsChannelsPort ?? 0)]
        for (index, first) in ports.enumerated() where first.1 != 0 {
            if let second = ports[(index + 1)...].first(where: { $0.1 == first.1 }) {
                throw UsageError.conflictingOptions("\(first.0) \(first.1)", "\(second.0) \(second.1)",
                                                    advice: "each server needs its own port; give another, or 0 for a free port")
            }
        }
        for value in parsed.values["--session"] ?? [] {
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw UsageError.invalidValue(value, option: "--session", expected: "TOKEN=ACCOUNT, e.g. s1=a1")
            }
            options.sessions[String(parts[0])] = String(parts[1])
        }
        if let value = parsed.value(for: "--ready-file") {
            options.readyFile = try ServeCommand.readyFilePath(value)
        }
        for value in parsed.values["--apns-topic"] ?? [] {
            guard !value.isEmpty, !value.contains(" ") else {
                throw UsageError.invalidValue(value, option: "--apns-topic", expected: "a bundle id such as com.example.app")
            }
            options.apnsTopics.append(value)
        }
        for value in parsed.values["--apns-key"] ?? [] {
            guard let spec = try? APNsKeySpec(parsing: value) else {
                throw UsageError.invalidValue(value, option: "--apns-key", expected: "KEY_ID:TEAM_ID:FILE.p8, e.g. ABC123DEFG:DEF123GHIJ:AuthKey_ABC123DEFG.p8")
            }
            options.apnsKeys.append(spec)
        }
        if let value = parsed.value(for: "--apns-environment") {
            switch value {
            case "production": options.apnsEnvironment = .production
            case "development", "sandbox": options.apnsEnvironment = .sandbox
            default: throw ServeCommand.notAChoice(value, option: "--apns-environment", allowed: ["production", "development"])
            }
        }
        if let value = parsed.value(for: "--forward-to-simulator") {
            guard !value.isEmpty else { throw UsageError.invalidValue(value, option: "--forward-to-simulator", expected: "a bundle id such as com.example.app") }
            options.simulatorBundleID = value
        }
        if let value = parsed.value(for: "--scenario") {
            guard let scenario = PushScenario(name: value) else {
                throw ServeCommand.notAChoice(value, option: "--scenario", allowed: PushScenario.allCases.map(\.rawValue))
            }
            options.scenario = scenario
        }
        if let value = parsed.value(for: "--color") {
            guard ["auto", "always", "never"].contains(value) else {
                throw ServeCommand.notAChoice(value, option: "--color", allowed: ["auto", "always", "never"])
            }
            options.colour = value
        }
        self = options
    }
}

extension ServeCommand {
    static func port(_ text: String, option: String) throws(UsageError) -> UInt16 {
        guard let port = UInt16(text) else {
            throw UsageError.invalidValue(text, option: option, expected: "a port from 0 to 65535 (0 picks a free port)",
                                          outOfRange: Int(text) != nil)
        }
        return port
    }

    /// A value outside a fixed set, worded (with its did-you-mean) as every subcommand words it.
    static func notAChoice(_ value: String, option: String, allowed: [String]) -> UsageError {
        .invalidValue(value, option: option, allowed: allowed, suggestion: Suggestion.closest(to: value, among: allowed, acceptingUniquePrefix: true))
    }

    /// `--ready-file PATH`, checked before any server starts: its folder must exist, so a
    /// typo fails at once with a sentence rather than after the servers listen.
    static func readyFilePath(_ path: String) throws(UsageError) -> String {
        guard !path.isEmpty else {
            throw UsageError.unusableValue(path, option: "--ready-file", reason: "it is empty (an unset variable?); give a file path")
        }
        if TextFiles.isExistingFolder(path) {
            throw UsageError.unusableValue(path, option: "--ready-file", reason: "it is a folder; give a file path")
        }
        let parent = TextFiles.folder(of: path)
        if !parent.isEmpty, case .regularFile = FileReader.kind(of: parent).kind {
            throw UsageError.unusableValue(path, option: "--ready-file", reason: "\(parent) is a file, not a folder; give a path in a folder")
        }
        if !parent.isEmpty, !TextFiles.isExistingFolder(parent) {
            throw UsageError.unusableValue(path, option: "--ready-file", reason: "the folder \(parent) does not exist; create it or give another path")
        }
        return path
    }

    /// The public keys of `--apns-key`, read before any server starts.
    /// - Throws: ``UsageError`` naming the option and saying what is wrong with the file
    ///   (missing, a folder, not a P-256 key), so serve exits 64 as for any bad value.
    static func loadKeys(_ specs: [APNsKeySpec]) throws(UsageError) -> [(spec: APNsKeySpec, key: APNsPublicKey)] {
        var keys: [(spec: APNsKeySpec, key: APNsPublicKey)] = []
        for spec in specs {
            do {
                keys.append((spec, try spec.loadPublicKey()))
            } catch {
                throw UsageError.unusableValue("\(spec.keyID):\(spec.teamID):\(spec.path)", option: "--apns-key", reason: "\(error)")
            }
        }
        return keys
    }

    /// `--ready-file PATH` can be written: a file is created beside it and removed, before
    /// any server listens (a folder serve may not write in was found only after the URLs
    /// were printed).
    /// - Throws: ``UsageError`` with the reason from the system.
    static func checkReadyFileCanBeWritten(_ path: String) throws(UsageError) {
        let probe = path + ".probe-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = FileReader.describe(errno)
            throw UsageError.unusableValue(path, option: "--ready-file", reason: "cannot create a file there (\(reason)); give a path in a folder serve can write")
        }
        close(fd)
        unlink(probe)
    }
}
