import Foundation
import Testing

/// Shell snippets a newcomer copies: every one that starts serve in the background waits for
/// it (`--ready-file` and `wait-ready`, or a bounded loop watching the pid) and fails loudly
/// (the tour's once curled at once with `curl -s`: connection refused, hidden, and an empty
/// provider token); every page that calls the bare `contract-check` says where it comes from.
@Suite struct DocsSnippetTests {
    static let pages = DocsTests.markdownFiles.filter { $0 == "README.md" || $0.hasPrefix("Docs/readme/") }

    @Test(arguments: pages)
    func everySnippetThatBackgroundsServeWaitsForItAndFailsLoudly(_ file: String) throws {
        #expect(ShellSnippets.backgroundServeProblems(in: try DocsTests.text(file)) == [], "\(file)")
    }

    @Test(arguments: pages.filter { $0 != "README.md" })
    func aPageCallingTheBareToolLinksToItsSetUp(_ file: String) throws {
        let text = try DocsTests.text(file)
        // A command to run (a subcommand and arguments), not a mention or a synopsis.
        let bare = MarkdownCommands.commands(in: text).filter {
            $0.text.hasPrefix("contract-check ") && !$0.text.contains(" [") && $0.text.split(separator: " ").count >= 3
        }
        guard let first = bare.first else { return }
        let linked = text.contains("README.md#set-up")
        #expect(linked, "\(file):\(first.line) calls `\(first.text)` without saying how to put contract-check on PATH")
    }

    @Test func theReadmeSaysHowToPutTheToolOnPath() throws {
        let readme = try DocsTests.text("README.md")
        #expect(readme.contains("## Set up"))
        #expect(readme.contains("swift build -c release") && readme.contains(".build/release/contract-check"))
    }

    // MARK: The check bites

    @Test func theToursOldSnippetIsFound() {
        let old = """
            ```sh
            swift run contract-check serve --session s1=a1 \\
                --backend-port 18080 &
            PROVIDER_TOKEN=$(curl -s http://127.0.0.1:18081/apns/provider-token)
            ```
            """
        #expect(ShellSnippets.backgroundServeProblems(in: old) == [
            "line 2: serve is started in the background without --ready-file",
            "line 2: nothing in the snippet waits for serve (contract-check wait-ready FILE --timeout N --pid $!)",
            "line 2: the snippet never stops serve (SERVE=$! then trap 'kill $SERVE' EXIT)",
            "line 4: curl without -f: an HTTP error or a refused connection goes unnoticed (curl -fsS)",
        ])
    }

    @Test func aSnippetThatWaitsAndFailsLoudlyPasses() {
        let good = """
            ```sh
            set -e
            contract-check serve --ready-file "$TMP/ready.json" > "$TMP/serve.log" 2>&1 &
            SERVE=$!; trap 'kill $SERVE' EXIT
            contract-check wait-ready "$TMP/ready.json" --timeout 10 --pid $SERVE
            curl -fsS -i http://127.0.0.1:18080/
            ```
            """
        #expect(ShellSnippets.backgroundServeProblems(in: good) == [])
        let unchecked = good.replacingOccurrences(of: "set -e\n", with: "")
        #expect(ShellSnippets.backgroundServeProblems(in: unchecked) == [
            "line 4: the wait is not checked: add `|| exit 1` or start the snippet with `set -e`",
        ])
    }
}

/// Code blocks read as shell: continuations joined, prompts dropped.
enum ShellSnippets {
    /// What is wrong with each code block that backgrounds `contract-check serve`.
    static func backgroundServeProblems(in text: String) -> [String] {
        var problems: [String] = []
        for block in blocks(in: text) {
            guard let serve = block.firstIndex(where: isBackgroundServe) else { continue }
            let line = block[serve]
            var report: [String] = []
            let readyFile = value(after: "--ready-file", in: line.text)
            if readyFile == nil { report.append("line \(line.number): serve is started in the background without --ready-file") }
            let after = block[(serve + 1)...]
            let wait = after.first { $0.text.contains("wait-ready") || ($0.text.contains("[ -s ") && $0.text.contains("kill -0")) }
            if let wait {
                let checked = wait.text.contains("exit 1") || block[..<serve].contains { $0.text.hasPrefix("set -e") }
                if !checked { report.append("line \(wait.number): the wait is not checked: add `|| exit 1` or start the snippet with `set -e`") }
            } else {
                report.append("line \(line.number): nothing in the snippet waits for serve (contract-check wait-ready FILE --timeout N --pid $!)")
            }
            // Issue 39: a serve left running keeps its port and ready file; the next run of
            // the snippet met the old server.
            if !after.contains(where: { $0.text.contains("kill ") && !$0.text.contains("kill -0") }) {
                report.append("line \(line.number): the snippet never stops serve (SERVE=$! then trap 'kill $SERVE' EXIT)")
            }
            for curl in after where curl.text.contains("curl ") && !failsOnHTTPError(curl.text) {
                report.append("line \(curl.number): curl without -f: an HTTP error or a refused connection goes unnoticed (curl -fsS)")
            }
            problems += report
        }
        return problems
    }

    struct Line {
        var number: Int
        var text: String
    }

    /// Each fenced block's logical lines (with the line number each starts on).
    static func blocks(in text: String) -> [[Line]] {
        var blocks: [[Line]] = []
        var current: [Line]?
        var pending: Line?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                if let block = current { blocks.append(block) }
                current = current == nil ? [] : nil
                pending = nil
                continue
            }
            guard current != nil else { continue }
            var line = pending.map { Line(number: $0.number, text: $0.text + " " + trimmed) } ?? Line(number: index + 1, text: trimmed)
            pending = nil
            if line.text.hasPrefix("$ ") { line.text.removeFirst(2) }
            if line.text.hasSuffix("\\") {
                line.text.removeLast()
                pending = line
                continue
            }
            current?.append(line)
        }
        return blocks
    }

    static func isBackgroundServe(_ line: Line) -> Bool {
        let command = line.text.components(separatedBy: " #").first ?? line.text
        return command.contains("contract-check serve") && command.trimmingCharacters(in: .whitespaces).hasSuffix("&")
    }

    static func value(after option: String, in text: String) -> String? {
        let words = text.split(separator: " ").map(String.init)
        guard let index = words.firstIndex(of: option), index + 1 < words.count else { return nil }
        return words[index + 1]
    }

    /// `-f`, `-fsS`, `--fail`, `--fail-with-body` among curl's options.
    static func failsOnHTTPError(_ text: String) -> Bool {
        text.split(separator: " ").contains { word in
            word.hasPrefix("--fail") || (word.hasPrefix("-") && !word.hasPrefix("--") && word.contains("f"))
        }
    }
}
