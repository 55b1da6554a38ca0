import Foundation
import PushScenarios

/// `sender-check`'s report: text for people, JSON for tools, JUnit XML for CI dashboards.
struct SenderCheckReport {
    var sender: String
    var authentication: SenderCheckAuthentication
    var tls: Bool
    var run: SenderCheckRun
    /// The sender's log (stderr and stdout lines that were not answers).
    var log: [String]
    var seconds: Double

    /// Log lines the text report shows when something failed.
    static let logTail = 20

    func count(_ outcome: SenderCheckResult.Outcome) -> Int { run.results.filter { $0.outcome == outcome }.count }

    /// `✓ basic`, `✗ connection-reuse: …` per case, then the summary line.
    func text() -> String {
        var lines = ["sender-check: \(sender) (\(authentication.rawValue) authentication, \(tls ? "TLS" : "h2c"))"]
        for result in run.results {
            switch result.outcome {
            case .passed: lines.append("✓ \(result.testCase.rawValue)")
            case .skipped: lines.append("- \(result.testCase.rawValue) (skipped: \(result.sentences.first ?? ""))")
            case .failed:
                lines.append("✗ \(result.testCase.rawValue): \(result.sentences.first ?? "")")
                lines += result.sentences.dropFirst().map { "    \($0)" }
            }
        }
        if let misbehaviour = run.misbehaviour {
            lines.append("The sender broke the protocol: \(misbehaviour)")
        }
        if !run.passed, !log.isEmpty {
            lines.append("The sender's log (last \(min(Self.logTail, log.count)) of \(log.count) lines):")
            lines += log.suffix(Self.logTail).map { "  | \($0)" }
        }
        lines.append("\(run.results.count) cases: \(count(.passed)) passed, \(count(.failed)) failed, \(count(.skipped)) skipped "
                     + "in \(String(format: "%.1f", seconds)) s" + (run.passed ? "" : " — FAILED"))
        return lines.joined(separator: "\n") + "\n"
    }

    /// One JSON object: the run's verdict, each case with its sentences and steps, the log.
    func json() -> String {
        let cases: [[String: Any]] = run.results.map { result in
            ["name": result.testCase.rawValue, "outcome": result.outcome.rawValue, "sentences": result.sentences,
             "steps": result.steps, "seconds": (result.seconds * 1000).rounded() / 1000]
        }
        let object: [String: Any] = [
            "sender": sender, "authentication": authentication.rawValue, "tls": tls, "passed": run.passed,
            "misbehaviour": run.misbehaviour ?? NSNull(), "cases": cases, "log": log,
            "summary": ["passed": count(.passed), "failed": count(.failed), "skipped": count(.skipped)],
            "seconds": (seconds * 1000).rounded() / 1000,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]) else {
            return "{}\n"
        }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// JUnit XML: one `testsuite` named sender-check, one `testcase` per case run.
    func junit() -> String {
        let time = String(format: "%.3f", seconds)
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<testsuites name=\"sender-check\" tests=\"\(run.results.count)\" failures=\"\(count(.failed))\" skipped=\"\(count(.skipped))\" time=\"\(time)\">",
            "  <testsuite name=\"sender-check\" tests=\"\(run.results.count)\" failures=\"\(count(.failed))\" errors=\"0\" skipped=\"\(count(.skipped))\" time=\"\(time)\">",
        ]
        for result in run.results {
            let open = "    <testcase classname=\"sender-check\" name=\"\(Self.escape(result.testCase.rawValue))\" time=\"\(String(format: "%.3f", result.seconds))\""
            switch result.outcome {
            case .passed:
                lines.append(open + "/>")
            case .skipped:
                lines += [open + ">", "      <skipped message=\"\(Self.escape(result.sentences.first ?? ""))\"/>", "    </testcase>"]
            case .failed:
                let body = (result.sentences + [""] + result.steps).joined(separator: "\n")
                lines += [open + ">",
                          "      <failure message=\"\(Self.escape(result.sentences.first ?? ""))\">\(Self.escape(body))</failure>",
                          "    </testcase>"]
            }
        }
        var out = log
        if let misbehaviour = run.misbehaviour { out.insert("The sender broke the protocol: \(misbehaviour)", at: 0) }
        if !out.isEmpty {
            lines.append("    <system-out>\(Self.escape(out.joined(separator: "\n")))</system-out>")
        }
        lines += ["  </testsuite>", "</testsuites>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` escaped for XML attributes and text, with characters XML 1.0 forbids dropped.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if let entity = xmlEntities[scalar] {
                escaped += entity
            } else if !(scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF) {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// What ``escape(_:)`` writes for each character XML gives a meaning (a line feed and a
    /// tab as character references, so an attribute keeps them).
    private static let xmlEntities: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&apos;", "\n": "&#10;", "\t": "&#9;",
    ]
}
