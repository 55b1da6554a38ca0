import Foundation
import Dispatch
import Testing
@testable import ContractCheckCLI
import PushTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 27's "what a new user hit", items 6–11 and 14: each command line that misled a
/// newcomer, with what it says now.
@Suite struct NewcomerEdgeTests {
    /// serve run to its first failure (a serve that wrongly starts stops at once).
    static func serveFailing(_ arguments: [String]) -> (status: Int32, output: [String], error: [String]) {
        let output = ServeCommandTests.Collected()
        let status = ServeCommand.serve(arguments, output: output, until: ServeCommandTests.stopAtOnce())
        return (status, output.output, output.errorOutput)
    }

    // MARK: 6, 7, 8, 11: serve's command line, refused before anything listens

    @Test(arguments: [
        // 6: a key file that is not there, or a folder: exit 64, said in words.
        (["--apns-key", "K:T:/nonexistent.p8"],
         "Error: cannot use 'K:T:/nonexistent.p8' for '--apns-key': /nonexistent.p8 does not exist; give the path of the key file (Apple's .p8)"),
        (["--apns-key", "K:T:/tmp"],
         "Error: cannot use 'K:T:/tmp' for '--apns-key': /tmp is a folder; give the path of the key file in it (Apple's .p8)"),
        // 7: one port for two servers names both options.
        (["--backend-port", "18095", "--apns-port", "18095"],
         "Error: --backend-port 18095 and --apns-port 18095 cannot be combined; each server needs its own port; give another, or 0 for a free port"),
        (["--apns-port", "18096", "--admin-port=18096"],
         "Error: --apns-port 18096 and --admin-port 18096 cannot be combined; each server needs its own port; give another, or 0 for a free port"),
        // 8: a negative number is a value out of range, not a missing value.
        (["--backend-port", "-1"], "Error: invalid value '-1' for '--backend-port': out of range; expected a port from 0 to 65535 (0 picks a free port)"),
        // 11: a ready file serve cannot create, found before the URLs are printed.
        (["--ready-file", "/proc/ready.json"], "Error: cannot use '/proc/ready.json' for '--ready-file': cannot create a file there ("),
    ])
    func refusedBeforeListeningWithExit64(arguments: [String], expected: String) {
        let run = Self.serveFailing(arguments)
        #expect(run.status == 64)
        #expect(run.error.first?.hasPrefix(expected) == true, "\(run.error)")
        #expect(run.output.isEmpty, "no URL printed: \(run.output)")
    }

    /// 11: a ready file whose "folder" is a regular file.
    @Test func aReadyFileUnderARegularFileIsAUsageError() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let file = try folder.write("plain", "x")
        let run = Self.serveFailing(["--ready-file", file + "/ready.json"])
        #expect(run.status == 64)
        #expect(run.error.first == "Error: cannot use '\(file)/ready.json' for '--ready-file': \(file) is a file, not a folder; give a path in a folder",
                "\(run.error)")
    }

    /// 8: wait-ready's own numbers, negative.
    @Test(arguments: [
        (["--timeout", "-1"], "Error: invalid value '-1' for '--timeout': out of range; expected a number of seconds from 0 to 86400"),
        (["--pid", "-5"], "Error: invalid value '-5' for '--pid': out of range; expected a process id"),
    ])
    func waitReadyNegativeNumbersAreOutOfRange(option: [String], expected: String) {
        let result = runTool(["wait-ready", "/tmp/x.json"] + option)
        #expect(result.status == 64)
        #expect(result.errorLines.first?.hasPrefix(expected) == true, "\(result.error)")
    }

    @Test func aNegativeNumberIsAValueButADashWordIsStillAnOption() throws {
        let specs = [OptionSpec("--timeout", valueName: "SECONDS", help: ""), OptionSpec("--quiet", help: "")]
        #expect(try ParsedArguments.parse(["--timeout", "-0.5"], options: specs).value(for: "--timeout") == "-0.5")
        #expect(throws: UsageError.missingValue(option: "--timeout", valueName: "SECONDS")) {
            try ParsedArguments.parse(["--timeout", "--quiet"], options: specs)
        }
    }

    // MARK: 10

    /// A ready file in a folder that does not exist can never appear: said at once (64),
    /// not after the whole timeout (1).
    @Test func waitReadyOnAMissingFolderFailsAtOnce() {
        let result = runTool(["wait-ready", "/nonexistentdir/x.json", "--timeout", "5"])
        #expect(result.status == 64)
        #expect(result.errorLines.first?.hasPrefix("Error: cannot use '/nonexistentdir/x.json' for 'FILE': the folder /nonexistentdir does not exist") == true,
                "\(result.error)")
    }

    // MARK: 9

    /// The tool this build made, for the one test that needs a process of its own (signals).
    static let builtTool: String? = {
        let path = packageRoot + "/.build/debug/contract-check"
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }()

    /// SIGHUP (the terminal closed) stops serve as SIGTERM does: exit 0, ready file removed
    /// (it used to die of the signal, status 129, and leave the file).
    @Test(.enabled(if: builtTool != nil, "needs .build/debug/contract-check"))
    func sighupStopsServeCleanlyAndRemovesTheReadyFile() async throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let readyFile = folder.path + "/ready.json"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.builtTool))
        process.arguments = ["serve", "--quiet", "--no-apns", "--ready-file", readyFile]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let ready = runTool(["wait-ready", readyFile, "--timeout", "60", "--pid", String(process.processIdentifier)])
        #expect(ready.status == 0, "\(ready.error)")
        try await Self.expectCleanStop(process, after: SIGHUP, readyFile: readyFile)
    }

    /// Sends `signal` to a serve process and expects a clean stop within 10 s: exit 0 (not
    /// killed by the signal) and the ready file removed.
    static func expectCleanStop(_ process: Process, after signal: Int32, readyFile: String) async throws {
        kill(process.processIdentifier, signal)
        for _ in 0..<1000 where process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!process.isRunning)
        guard !process.isRunning else { return }
        #expect(process.terminationReason == .exit, "killed by signal \(process.terminationStatus)")
        #expect(process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: readyFile), "the ready file is removed")
    }

    /// `--tls` without `--tls-ca-dir` makes a CA for this run only: its folder goes on exit.
    @Test func aCAMadeForOneRunIsRemovedOnExit() async throws {
        let run = try await ServeRun(["--tls", "--quiet"])
        let line = try #require(run.output.output.first { $0.hasPrefix("ca ") })
        let caFolder = TextFiles.folder(of: String(line.dropFirst(3)))
        #expect(caFolder.contains("pushcontracts-tls-"), "\(line)")
        #expect(TextFiles.isExistingFolder(caFolder))
        #expect(run.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: caFolder), "\(caFolder) is left behind")
    }

    // MARK: 14

    @Test func everyRepeatableOptionShowsItsEllipsisInTheUsageLine() {
        for entry in ContractCheck.commandTable {
            for option in entry.help.options where option.isRepeatable {
                #expect(entry.help.usage.contains("[\(option.synopsis) ...]"), "\(entry.name): \(option.name) in \(entry.help.usage)")
            }
        }
    }

    @Test func theToolsExitStatusNamesServeAndWaitReadyFailures() {
        let help = runTool(["--help"]).output
        #expect(help.contains("serve: a server cannot start"), "\(help)")
        #expect(help.contains("wait-ready: timed out or serve exited first"), "\(help)")
    }

    @Test(arguments: ["serve", "validate", "wait-ready"])
    func aSubcommandGivenVersionPrintsTheVersion(_ subcommand: String) {
        let result = runTool([subcommand, "--version"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "contract-check \(ContractCheck.version)\n")
        #expect(!result.error.contains("did you mean"))
    }

    @Test func anEmptyFolderIsNotCalledUnreadable() throws {
        let folder = try ScratchFolder(prefix: "contract-check-tests")
        defer { folder.remove() }
        let result = runTool(["validate", folder.path])
        #expect(result.outputLines.last == "checked 0 files: 1 error, 0 warnings (1 folder held no files to check)", "\(result.output)")
        let mixed = runTool(["validate", folder.path, folder.path + "/missing.json"])
        #expect(mixed.outputLines.last == "checked 0 files: 2 errors, 0 warnings (1 path could not be read; 1 folder held no files to check)",
                "\(mixed.output)")
    }
}
