import Contracts
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `contract-check validate [--contract NAME] [--format text|json|github] PATH...`
///
/// Checks JSON files against the contracts and prints one line per violation
/// (`path:line:col: error: /pointer: message [rule-id]`), then a summary. Files that cannot
/// be checked (unreadable, empty, binary, not JSON, no contract) get an error line each and
/// the run goes on. Exit 0 clean (warnings allowed), 1 any error, 64 usage error.
package enum ValidateCommand: Subcommand {
    package static let name = "validate"

    /// Abstract, usage, options and the rules for choosing a contract.
    package static var help: CommandHelp {
        CommandHelp(
            abstract: "Validate JSON files against the contracts.",
            usage: "validate [--contract NAME] [--format text|json|github] [--verbose] PATH...",
            arguments: [("PATH...", "Files, or folders searched recursively for the files a contract claims (other files, hidden entries and *.expect files are skipped; a folder with none is an error).")],
            options: options,
            discussion: """
            CONTRACT: --contract NAME, else the .apns extension (apns-file), else the nearest
            folder: devices/ (device-registration), opens/ (notification-opened),
            payloads/ (payload), apns-errors/ (apns-error), apns/ (apns-file),
            device-tokens/ (device-token), notification-ids/ (notification-id),
            or a folder named after a contract.

            OUTPUT: text prints path:line:col: error: /pointer: message [rule-id] and a summary;
            github prints workflow annotations; json prints one report object.
            Colour only on a terminal, and never with NO_COLOR set.

            EXIT STATUS: 0 no errors (warnings allowed), 1 errors, 64 usage error.

            SIZE: a file more than 16 times over its contract's size limit (a payload over
            64 KiB) is reported as too large without being parsed. `swift run` builds in debug,
            which parses large files slowly; for big batches use `swift run -c release`.

            EXAMPLES:
              contract-check validate Fixtures/valid
              contract-check validate --contract payload --format github out/push.json
            """
        )
    }

    static let options: [OptionSpec] = [
        OptionSpec("--contract", valueName: "NAME", help: "Check every file against this contract."),
        OptionSpec("--format", allowedValues: ReportFormatter.Format.allCases.map(\.rawValue), help: "Output format (default: text)."),
        OptionSpec("--verbose", help: "List the files in folders that were skipped because no contract claims them."),
    ]

    /// Validates with the v1 contracts. Returns 0 (no errors), 1 (errors) or 64 (usage).
    package static func run(_ arguments: [String], io: CommandIO) -> Int32 {
        run(arguments, io: io, checker: ContractSetChecker(.v1))
    }

    /// Runs against any contract set (a team's own, or a test's).
    package static func run(_ arguments: [String], io: CommandIO, checker: any DocumentChecker) -> Int32 {
        // The helper threads start first: their start-up overlaps the argument handling.
        let crew = ParallelChecker(privateFileTables: io.isProcessStreams)
        defer { crew.stop() }
        let parsed: ParsedArguments
        switch parse(arguments, io: io) {
        case .exit(let status): return status
        case .run(let arguments): parsed = arguments
        }
        let names = checker.contractNames
        let forced = parsed.value(for: "--contract")
        if let forced, !names.contains(forced) {
            return reportUsageError(.invalidValue(forced, option: "--contract", allowed: names), io: io)
        }
        guard !parsed.positionals.isEmpty else {
            return reportUsageError(.missingArgument("PATH..."), io: io)
        }
        let format = parsed.value(for: "--format").flatMap(ReportFormatter.Format.init(rawValue:)) ?? .text

        var resolver = ContractResolver(checker: checker, currentDirectory: io.currentDirectory)
        // In folders, only files a contract claims are read: files with a contract's
        // extension (`.apns`) and `.json` files whose folder (or --contract) names a contract.
        func claims(_ location: String) -> Bool {
            let name = location.lastIndex(of: "/").map { location[location.index(after: $0)...] } ?? location[...]
            if let dot = name.lastIndex(of: "."), checker.contractName(forFileExtension: String(name[name.index(after: dot)...])) != nil {
                return true
            }
            return name.hasSuffix(".json") && (forced ?? resolver.contract(for: location)) != nil
        }
        let verbose = parsed.flags.contains("--verbose")
        func skipped(_ path: String) {
            if verbose { io.writeErrorLine("skipped \(path): no contract claims it") }
        }
        let items = PathCollector.collect(parsed.positionals, relativeTo: io.isProcessDirectory ? nil : io.currentDirectory,
                                          claims: claims, skipped: skipped)
        // Which items repeat an earlier path (a file named twice is reported once), worked
        // out by this thread while the helpers start on the files. Plain text is written by
        // the threads that check, chunk by chunk, and used when nothing repeats.
        let color = format == .text && io.usesColor
        var firstNamed: [Bool] = []
        let chunks = check(items, forced: forced, checker: checker, crew: crew, resolver: resolver, writingText: format == .text && !color) {
            firstNamed = firstOccurrences(items)
        }
        let hasFolder = chunks.contains { $0.hasFolder }
        if format == .text, !color, !hasFolder, firstNamed.count == items.count, !firstNamed.contains(false) {
            var counts = ReportFormatter.Counts()
            for chunk in chunks {
                io.write(bytes: chunk.text)
                counts.add(chunk.counts)
            }
            io.writeLine(ReportFormatter(format: .text, color: false).summary(counts))
            crew.dispose(of: consume chunks)
            // The paths (10,000 strings in a big run) are freed by a helper too, not here
            // while the exit waits.
            crew.dispose(of: arguments)
            crew.dispose(of: items)
            crew.dispose(of: parsed)
            return exitStatus(counts)
        }
        var reports: [FileReport] = []
        reports.reserveCapacity(items.count)
        if !hasFolder {
            var index = 0
            for chunk in chunks {
                for case .report(let report) in chunk.outcomes {
                    if firstNamed[index] { reports.append(report) }
                    index += 1
                }
            }
        } else {
            // An argument was a folder: its files take its place, and a path is reported
            // once however often the arguments and folders name it.
            var seen = Set<String>(minimumCapacity: items.count)
            for chunk in chunks {
                for outcome in chunk.outcomes {
                    switch outcome {
                    case .report(let report):
                        if seen.insert(report.path).inserted { reports.append(report) }
                    case .folder(let path, let location):
                        let inner = check(PathCollector.expand(path, location: location, claims: claims, skipped: skipped),
                                          forced: forced, checker: checker, crew: crew, resolver: resolver, writingText: false)
                        for chunk in inner {
                            for case .report(let report) in chunk.outcomes where seen.insert(report.path).inserted {
                                reports.append(report)
                            }
                        }
                    }
                }
            }
        }
        return exitStatus(ReportFormatter(format: format, color: color).write(reports, to: io))
    }

    /// 1 when a file has an error, else 0: warnings alone pass.
    static func exitStatus(_ counts: ReportFormatter.Counts) -> Int32 {
        counts.errors > 0 ? ExitCode.findings : ExitCode.success
    }

    /// Reads and checks one file (or finds it is a folder); never throws, whatever the file holds.
    /// - Parameters:
    ///   - path: the path as shown.
    ///   - location: the path as opened.
    ///   - scratch: a read buffer kept from file to file (see ``FileReader/read(_:scratch:)``).
    ///   - shortReadIsEnd: see ``FileReader/readInPlace(_:scratch:shortReadIsEnd:)``.
    package static func check(_ path: String, location: String, contract: String?, checker: any DocumentChecker, scratch: inout [UInt8],
                              shortReadIsEnd: Bool = false) -> ParallelChecker.Outcome {
        let count: Int
        switch FileReader.readInPlace(location, scratch: &scratch, shortReadIsEnd: shortReadIsEnd) {
        case .success(let read): count = read
        case .failure(let other):
            switch other.result {
            case .folder: return .folder(path: path, location: location)
            case .problem(let finding): return .report(FileReport(path: path, contract: contract, findings: [finding], wasRead: false))
            case .bytes(let read): return check(path, contract: contract, read, checker: checker)
            }
        }
        // A plain clean document needs no copy out of the read buffer: not empty, binary or
        // blank (it holds a JSON value), not too large (its contract passed its size).
        // One found not clean on its bytes is validated without the same check on its tree.
        let clean = contract.flatMap { contract in
            scratch.withUnsafeBufferPointer { checker.cleanAnswer(UnsafeBufferPointer(rebasing: $0[..<count]), contract: contract) }
        }
        if let contract, clean == true, checker.sizeViolation(byteCount: count, contract: contract) == nil {
            return .report(FileReport(path: path, contract: contract, findings: []))
        }
        return check(path, contract: contract, Array(scratch[..<count]), checker: checker, knownNotClean: clean == false)
    }

    /// Checks the bytes read from `path` against `contract`.
    static func check(_ path: String, contract: String?, _ bytes: [UInt8], checker: any DocumentChecker,
                      knownNotClean: Bool = false) -> ParallelChecker.Outcome {
        guard let contract else {
            return .report(FileReport(path: path, contract: nil, findings: [.unknownContract(known: checker.contractNames, folders: checker.folderNames, extensions: checker.fileExtensions)]))
        }
        if let problem = textProblem(bytes) {
            return .report(FileReport(path: path, contract: contract, findings: [problem]))
        }
        if let tooLarge = checker.sizeViolation(byteCount: bytes.count, contract: contract) {
            return .report(FileReport(path: path, contract: contract, findings: [Finding(tooLarge)]))
        }
        switch checker.check(bytes, contract: contract, knownNotClean: knownNotClean) {
        case .syntaxError(let position, let message):
            return .report(FileReport(path: path, contract: contract, findings: [.syntax(message, at: position)]))
        case .checked(let violations):
            var findings = violations.map(Finding.init)
            // Members the contract does not know: the shape may be another contract's.
            if findings.contains(where: { $0.severity == .error && $0.ruleID.hasSuffix(".unknown-member") }),
               let other = lookalike(bytes, breaking: contract, checker: checker) {
                findings.insert(.fitsOtherContract(other, not: contract, folder: checker.folderName(forContract: other)), at: 0)
            }
            return .report(FileReport(path: path, contract: contract, findings: findings))
        }
    }

    /// The first other contract `bytes` conforms to (no error) when they break `contract`
    /// with members it does not know: a Live Activity push under `payloads/` is a
    /// `live-activity-payload` (issue 39). Only such failing files pay for the extra checks.
    static func lookalike(_ bytes: [UInt8], breaking contract: String, checker: any DocumentChecker) -> String? {
        checker.contractNames.first { other in
            guard other != contract, case .checked(let violations) = checker.check(bytes, contract: other) else { return false }
            return !violations.contains { $0.severity == .error }
        }
    }

    /// Empty, blank, binary or UTF-16/32 files: said plainly rather than as a syntax error.
    static func textProblem(_ bytes: [UInt8]) -> Finding? {
        guard let first = bytes.first else { return .empty }
        if (first == 0xFF || first == 0xFE || first == 0),
           bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0, 0, 0xFE, 0xFF]) {
            return .utf16
        }
        let zero = bytes.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress, let found = memchr(base, 0, raw.count) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
        if let zero { return .binary(offset: zero) }
        if !bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) { return .blank }
        return nil
    }
}
