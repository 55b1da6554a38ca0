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
    /// The options that configure FakeAPNs, which `ServeOption.noAPNs` does not run.
    static let apnsOptions: [OptionSpec] = [
        ServeOption.apnsPort, ServeOption.apnsChannelsPort, ServeOption.apnsTopic, ServeOption.apnsKey,
        ServeOption.apnsEnvironment, ServeOption.apnsAnyToken,
        ServeOption.forwardToSimulator, ServeOption.scenario,
    ] + ServeOption.certificateOptions

    /// The options `parsed` gives, each value checked.
    init(_ parsed: ParsedArguments) throws(UsageError) {
        var options = Self()
        if let extra = parsed.positionals.first {
            throw UsageError.unexpectedArgument(extra, hint: "serve takes options only.")
        }
        options.quiet = parsed.has(ServeOption.quiet)
        options.apnsAnyToken = parsed.has(ServeOption.apnsAnyToken)
        options.noAPNs = parsed.has(ServeOption.noAPNs)
        if options.noAPNs, let apnsOption = Self.apnsOptions.first(where: parsed.has)?.name {
            // An option for a server that will not run is a mistake in the script, not a no-op.
            throw UsageError.conflictingOptions(ServeOption.noAPNs.name, apnsOption, advice: "\(ServeOption.noAPNs.name) runs no FakeAPNs, so drop one of them")
        }
        options.tls = parsed.has(ServeOption.tls)
        if let value = parsed.value(for: ServeOption.tlsCADir) {
            guard options.tls else { throw UsageError.unusableValue(value, option: ServeOption.tlsCADir.name, reason: "it keeps the CA of \(ServeOption.tls.name); add \(ServeOption.tls.name)") }
            guard !value.isEmpty else { throw UsageError.unusableValue(value, option: ServeOption.tlsCADir.name, reason: "give a directory") }
            options.tlsCADirectory = value
        }
        try options.readCertificateOptions(parsed)
        if let value = parsed.value(for: ServeOption.backendPort) { options.backendPort = try ServeCommand.port(value, option: ServeOption.backendPort.name) }
        if let value = parsed.value(for: ServeOption.adminPort) { options.adminPort = try ServeCommand.port(value, option: ServeOption.adminPort.name) }
        if let value = parsed.value(for: ServeOption.apnsPort) { options.apnsPort = try ServeCommand.port(value, option: ServeOption.apnsPort.name) }
        if let value = parsed.value(for: ServeOption.apnsChannelsPort) {
            options.apnsChannelsPort = try ServeCommand.port(value, option: ServeOption.apnsChannelsPort.name)
        }
        // One port asked of two servers: the second would fail to bind with "Address already
        // in use", which reads as someone else's server. Said as the command line's mistake.
        let ports = [(ServeOption.backendPort.name, options.backendPort), (ServeOption.apnsPort.name, options.apnsPort), (ServeOption.adminPort.name, options.adminPort),
                     (ServeOption.apnsChannelsPort.name, options.apnsChannelsPort ?? 0)]
        for (index, first) in ports.enumerated() where first.1 != 0 {
            if let second = ports[(index + 1)...].first(where: { $0.1 == first.1 }) {
                throw UsageError.conflictingOptions("\(first.0) \(first.1)", "\(second.0) \(second.1)",
                                                    advice: "each server needs its own port; give another, or 0 for a free port")
            }
        }
        for value in parsed.values(for: ServeOption.session) {
            let parts = value.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw UsageError.invalidValue(value, option: ServeOption.session.name, expected: "TOKEN=ACCOUNT, e.g. s1=a1")
            }
            options.sessions[String(parts[0])] = String(parts[1])
        }
        if let value = parsed.value(for: ServeOption.readyFile) {
            options.readyFile = try ServeCommand.readyFilePath(value)
        }
        for value in parsed.values(for: ServeOption.apnsTopic) {
            guard !value.isEmpty, !value.contains(" ") else {
                throw UsageError.invalidValue(value, option: ServeOption.apnsTopic.name, expected: "a bundle id such as com.example.app")
            }
            options.apnsTopics.append(value)
        }
        for value in parsed.values(for: ServeOption.apnsKey) {
            guard let spec = try? APNsKeySpec(parsing: value) else {
                throw UsageError.invalidValue(value, option: ServeOption.apnsKey.name, expected: "KEY_ID:TEAM_ID:FILE.p8, e.g. ABC123DEFG:DEF123GHIJ:AuthKey_ABC123DEFG.p8")
            }
            options.apnsKeys.append(spec)
        }
        if let value = parsed.value(for: ServeOption.apnsEnvironment) {
            switch value {
            case "production": options.apnsEnvironment = .production
            case "development", "sandbox": options.apnsEnvironment = .sandbox
            default: throw ServeCommand.notAChoice(value, option: ServeOption.apnsEnvironment.name, allowed: ["production", "development"])
            }
        }
        if let value = parsed.value(for: ServeOption.forwardToSimulator) {
            guard !value.isEmpty else { throw UsageError.invalidValue(value, option: ServeOption.forwardToSimulator.name, expected: "a bundle id such as com.example.app") }
            options.simulatorBundleID = value
        }
        if let value = parsed.value(for: ServeOption.scenario) {
            guard let scenario = PushScenario(name: value) else {
                throw ServeCommand.notAChoice(value, option: ServeOption.scenario.name, allowed: PushScenario.allCases.map(\.rawValue))
            }
            options.scenario = scenario
        }
        if let value = parsed.value(for: ServeOption.color) {
            guard ["auto", "always", "never"].contains(value) else {
                throw ServeCommand.notAChoice(value, option: ServeOption.color.name, allowed: ["auto", "always", "never"])
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

    /// `ServeOption.readyFile PATH`, checked before any server starts: its folder must exist, so a
    /// typo fails at once with a sentence rather than after the servers listen.
    static func readyFilePath(_ path: String) throws(UsageError) -> String {
        guard !path.isEmpty else {
            throw UsageError.unusableValue(path, option: ServeOption.readyFile.name, reason: "it is empty (an unset variable?); give a file path")
        }
        if TextFiles.isExistingFolder(path) {
            throw UsageError.unusableValue(path, option: ServeOption.readyFile.name, reason: "it is a folder; give a file path")
        }
        let parent = TextFiles.folder(of: path)
        if !parent.isEmpty, case .regularFile = FileReader.kind(of: parent).kind {
            throw UsageError.unusableValue(path, option: ServeOption.readyFile.name, reason: "\(parent) is a file, not a folder; give a path in a folder")
        }
        if !parent.isEmpty, !TextFiles.isExistingFolder(parent) {
            throw UsageError.unusableValue(path, option: ServeOption.readyFile.name, reason: "the folder \(parent) does not exist; create it or give another path")
        }
        return path
    }

    /// The public keys of `ServeOption.apnsKey`, read before any server starts.
    /// - Throws: ``UsageError`` naming the option and saying what is wrong with the file
    ///   (missing, a folder, not a P-256 key), so serve exits 64 as for any bad value.
    static func loadKeys(_ specs: [APNsKeySpec]) throws(UsageError) -> [(spec: APNsKeySpec, key: APNsPublicKey)] {
        var keys: [(spec: APNsKeySpec, key: APNsPublicKey)] = []
        for spec in specs {
            do {
                keys.append((spec, try spec.loadPublicKey()))
            } catch {
                throw UsageError.unusableValue("\(spec.keyID):\(spec.teamID):\(spec.path)", option: ServeOption.apnsKey.name, reason: "\(error)")
            }
        }
        return keys
    }

    /// `ServeOption.readyFile PATH` can be written: a file is created beside it and removed, before
    /// any server listens (a folder serve may not write in was found only after the URLs
    /// were printed).
    /// - Throws: ``UsageError`` with the reason from the system.
    static func checkReadyFileCanBeWritten(_ path: String) throws(UsageError) {
        let probe = path + ".probe-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = FileReader.describe(errno)
            throw UsageError.unusableValue(path, option: ServeOption.readyFile.name, reason: "cannot create a file there (\(reason)); give a path in a folder serve can write")
        }
        close(fd)
        unlink(probe)
    }
}
