import Contracts
import FakeSupport

/// Writes `validate` reports as text, GitHub workflow annotations, or JSON.
package struct ReportFormatter {
    /// The `--format` values.
    package enum Format: String, CaseIterable, Sendable {
        case text
        case json
        case github
    }

    /// Error and warning totals over a run.
    package struct Counts: Sendable, Hashable {
        /// Files read and checked (paths that could not be read are not files checked).
        package var files = 0
        /// Paths reported without being read: missing, unreadable, a folder with nothing to check.
        package var unread = 0
        /// Of ``unread``, folder arguments with nothing to check: read, but holding no file
        /// to check, which the summary does not call "could not be read".
        package var emptyFolders = 0
        package var filesWithErrors = 0
        package var errors = 0
        package var warnings = 0

        package init(_ reports: [FileReport]) {
            for report in reports { add(report) }
        }

        /// No report yet.
        package init() {}

        /// Counts `report` too.
        package mutating func add(_ report: FileReport) {
            if report.wasRead { files += 1 } else { unread += 1 }
            if !report.wasRead, report.findings.contains(where: { $0.ruleID == Finding.emptyFolder().ruleID }) { emptyFolders += 1 }
            var fileHasError = false
            for finding in report.findings {
                switch finding.severity {
                case .error:
                    errors += 1
                    fileHasError = true
                case .warning:
                    warnings += 1
                }
            }
            if fileHasError { filesWithErrors += 1 }
        }

        /// Counts `other`'s reports too.
        package mutating func add(_ other: Counts) {
            files += other.files
            unread += other.unread
            emptyFolders += other.emptyFolders
            filesWithErrors += other.filesWithErrors
            errors += other.errors
            warnings += other.warnings
        }
    }

    package let format: Format
    package let color: Bool

    package init(format: Format, color: Bool) {
        self.format = format
        self.color = color
    }

    /// Writes every report and, for text and github, the summary line; returns the counts.
    @discardableResult
    package func write(_ reports: [FileReport], to io: CommandIO) -> Counts {
        let counts = Counts(reports)
        switch format {
        case .text:
            for report in reports {
                for finding in report.findings {
                    // Without colour, the line's bytes go straight into the output buffer
                    // (the same bytes as `textLine`, with no string built per line).
                    if color {
                        io.writeLine(textLine(finding, path: report.path))
                    } else {
                        io.writeLines(1) { _, line in Self.appendPlainTextLine(finding, path: report.path, to: &line) }
                    }
                }
            }
            io.writeLine(summary(counts))
        case .github:
            for report in reports {
                for finding in report.findings { io.writeLine(githubLine(finding, path: report.path)) }
            }
            io.writeLine(summary(counts))
        case .json:
            writeJSON(reports, counts: counts, to: io)
        }
        return counts
    }

    /// `checked 12 files: 2 errors, 1 warning`, and `(1 path could not be read)` when one was
    /// not, `(1 folder held no files to check)` for an empty folder.
    package func summary(_ counts: Counts) -> String {
        let unreadable = counts.unread - counts.emptyFolders
        var notes: [String] = []
        if unreadable > 0 { notes.append("\(Self.plural(unreadable, "path")) could not be read") }
        if counts.emptyFolders > 0 { notes.append("\(Self.plural(counts.emptyFolders, "folder")) held no files to check") }
        return "checked \(Self.plural(counts.files, "file")): \(Self.plural(counts.errors, "error")), \(Self.plural(counts.warnings, "warning"))"
            + (notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")")
    }

    /// `path:line:col: error: /pointer: message [rule-id]`
    package func textLine(_ finding: Finding, path: String) -> String {
        var place = path
        if let position = finding.position { place += ":\(position.line):\(position.column)" }
        let label = finding.severity == .error ? "error:" : "warning:"
        let subject = finding.pointer.map { "\(Self.pointerText($0)): " } ?? ""
        guard color else {
            return "\(place): \(label) \(subject)\(finding.message) [\(finding.ruleID)]"
        }
        let labelColor = finding.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;33m"
        return "\u{1B}[1m\(place):\u{1B}[0m \(labelColor)\(label)\u{1B}[0m \(subject)\(finding.message) \u{1B}[2m[\(finding.ruleID)]\u{1B}[0m"
    }

    /// ``textLine(_:path:)`` without colour, appended as UTF-8 to `buffer`: each part copied
    /// from its contiguous UTF-8 in one go, where `append(contentsOf: text.utf8)` went byte by
    /// byte (~170 instructions a part).
    package static func appendPlainTextLine(_ finding: Finding, path: String, to buffer: inout [UInt8]) {
        LogText.appendUTF8(path, to: &buffer)
        if let position = finding.position {
            buffer.append(UInt8(ascii: ":"))
            LogText.appendDecimal(position.line, to: &buffer)
            buffer.append(UInt8(ascii: ":"))
            LogText.appendDecimal(position.column, to: &buffer)
        }
        LogText.appendUTF8(finding.severity == .error ? ": error: " : ": warning: ", to: &buffer)
        if let pointer = finding.pointer {
            LogText.appendUTF8(pointerText(pointer), to: &buffer)
            LogText.appendUTF8(": ", to: &buffer)
        }
        LogText.appendUTF8(finding.message, to: &buffer)
        LogText.appendUTF8(" [", to: &buffer)
        LogText.appendUTF8(finding.ruleID, to: &buffer)
        buffer.append(UInt8(ascii: "]"))
    }

    /// `::error file=…,line=…,col=…,title=rule-id::/pointer: message`
    package func githubLine(_ finding: Finding, path: String) -> String {
        var properties = "file=\(Self.escapeProperty(path))"
        if let position = finding.position {
            properties += ",line=\(position.line),col=\(position.column)"
        }
        properties += ",title=\(Self.escapeProperty(finding.ruleID))"
        let subject = finding.pointer.map { "\(Self.pointerText($0)): " } ?? ""
        let command = finding.severity == .error ? "error" : "warning"
        return "::\(command) \(properties)::\(Self.escapeData(subject + finding.message))"
    }

    private func writeJSON(_ reports: [FileReport], counts: Counts, to io: CommandIO) {
        io.writeLine("{")
        io.writeLine("  \"counts\" : {")
        io.writeLine("    \"errors\" : \(counts.errors),")
        io.writeLine("    \"files\" : \(counts.files),")
        io.writeLine("    \"filesWithErrors\" : \(counts.filesWithErrors),")
        io.writeLine("    \"unread\" : \(counts.unread),")
        io.writeLine("    \"warnings\" : \(counts.warnings)")
        io.writeLine("  },")
        io.write("  \"files\" : [")
        for (fileIndex, report) in reports.enumerated() {
            io.write(fileIndex == 0 ? "\n" : ",\n")
            io.writeLine("    {")
            io.writeLine("      \"contract\" : \(report.contract.map(Self.jsonString) ?? "null"),")
            io.writeLine("      \"path\" : \(Self.jsonString(report.path)),")
            io.write("      \"violations\" : [")
            for (index, finding) in report.findings.enumerated() {
                io.write(index == 0 ? "\n" : ",\n")
                io.writeLine("        {")
                io.writeLine("          \"column\" : \(finding.position.map { String($0.column) } ?? "null"),")
                io.writeLine("          \"line\" : \(finding.position.map { String($0.line) } ?? "null"),")
                io.writeLine("          \"message\" : \(Self.jsonString(finding.message)),")
                io.writeLine("          \"pointer\" : \(finding.pointer.map(Self.jsonString) ?? "null"),")
                io.writeLine("          \"ruleID\" : \(Self.jsonString(finding.ruleID)),")
                io.writeLine("          \"severity\" : \(Self.jsonString(finding.severity.rawValue))")
                io.write("        }")
            }
            io.writeLine(report.findings.isEmpty ? "]" : "\n      ]")
            io.write("    }")
        }
        io.writeLine(reports.isEmpty ? "]," : "\n  ],")
        io.writeLine("  \"tool\" : \"contract-check validate\",")
        io.writeLine("  \"version\" : 1")
        io.writeLine("}")
    }

    // MARK: Text helpers

    static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// The empty pointer names the whole document; say so rather than print nothing.
    static func pointerText(_ pointer: String) -> String {
        pointer.isEmpty ? "(document)" : pointer
    }

    /// A JSON string literal for `text` (RFC 8259 escapes; non-ASCII kept as UTF-8).
    package static func jsonString(_ text: String) -> String { JSONTreeWriter.quoted(text) }

    /// GitHub workflow command data: `%`, CR and LF are percent-encoded.
    static func escapeData(_ text: String) -> String {
        percentEncode(text, ["%", "\r", "\n"])
    }

    /// GitHub workflow command property values: as data, plus `:` and `,`.
    static func escapeProperty(_ text: String) -> String {
        percentEncode(text, ["%", "\r", "\n", ":", ","])
    }

    // Scalar by scalar: "\r\n" is one Character, so a Character-wise replace would miss it.
    private static func percentEncode(_ text: String, _ reserved: Set<Unicode.Scalar>) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if reserved.contains(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "%" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
