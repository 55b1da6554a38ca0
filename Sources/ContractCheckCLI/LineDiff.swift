/// A unified diff of two texts, line by line, from a longest-common-subsequence table.
///
/// Golden files are a few hundred lines, so the quadratic table is small; past
/// ``maximumCells`` the diff degrades to "every old line removed, every new line added",
/// which is still a correct (if long) unified diff.
///
/// ```swift
/// let text = LineDiff.unified(old: golden, new: emitted, oldLabel: "a/payload.schema.json", newLabel: "b/payload.schema.json")
/// ```
package enum LineDiff {
    /// One line of an edit script.
    package enum Edit: Equatable, Sendable {
        case same(String)
        case removed(String)
        case added(String)
    }

    /// Above this many table cells (old lines × new lines) no LCS is computed.
    static let maximumCells = 4_000_000

    /// The edit script turning `old` into `new`.
    package static func edits(old: [String], new: [String]) -> [Edit] {
        let rows = old.count
        let columns = new.count
        guard rows > 0, columns > 0, rows.multipliedReportingOverflow(by: columns).partialValue <= maximumCells,
              !rows.multipliedReportingOverflow(by: columns).overflow else {
            return old.map(Edit.removed) + new.map(Edit.added)
        }
        // lengths[i][j]: LCS length of old[i...] and new[j...], in one flat array.
        let width = columns + 1
        var lengths = [Int](repeating: 0, count: (rows + 1) * width)
        for i in stride(from: rows - 1, through: 0, by: -1) {
            for j in stride(from: columns - 1, through: 0, by: -1) {
                lengths[i * width + j] = old[i] == new[j]
                    ? lengths[(i + 1) * width + j + 1] + 1
                    : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var edits: [Edit] = []
        var i = 0
        var j = 0
        while i < rows && j < columns {
            if old[i] == new[j] {
                edits.append(.same(old[i])); i += 1; j += 1
            } else if lengths[(i + 1) * width + j] >= lengths[i * width + j + 1] {
                edits.append(.removed(old[i])); i += 1
            } else {
                edits.append(.added(new[j])); j += 1
            }
        }
        while i < rows { edits.append(.removed(old[i])); i += 1 }
        while j < columns { edits.append(.added(new[j])); j += 1 }
        return edits
    }

    /// The lines of `text` without their `\n` (a final newline does not make an empty line).
    package static func lines(_ text: String) -> [String] {
        var result = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if result.last == "" { result.removeLast() }
        return result
    }

    /// A unified diff (`---`/`+++` headers, `@@` hunks, `context` lines around changes);
    /// empty when the texts are equal.
    package static func unified(old: String, new: String, oldLabel: String, newLabel: String, context: Int = 3) -> String {
        let script = edits(old: lines(old), new: lines(new))
        guard script.contains(where: { if case .same = $0 { return false }; return true }) else { return "" }
        // Line numbers (1-based) of each edit in the old and new text.
        var oldLine = 1
        var newLine = 1
        var positions: [(old: Int, new: Int)] = []
        for edit in script {
            positions.append((oldLine, newLine))
            switch edit {
            case .same: oldLine += 1; newLine += 1
            case .removed: oldLine += 1
            case .added: newLine += 1
            }
        }
        let changed = script.indices.filter { if case .same = script[$0] { return false }; return true }
        // Group changes whose context windows touch into hunks.
        var hunks: [ClosedRange<Int>] = []
        for index in changed {
            let lower = max(0, index - context)
            let upper = min(script.count - 1, index + context)
            if let last = hunks.last, lower <= last.upperBound + 1 {
                hunks[hunks.count - 1] = last.lowerBound...max(last.upperBound, upper)
            } else {
                hunks.append(lower...upper)
            }
        }
        var output = "--- \(oldLabel)\n+++ \(newLabel)\n"
        for hunk in hunks {
            var oldCount = 0
            var newCount = 0
            var body = ""
            for index in hunk {
                switch script[index] {
                case .same(let line): body += " \(line)\n"; oldCount += 1; newCount += 1
                case .removed(let line): body += "-\(line)\n"; oldCount += 1
                case .added(let line): body += "+\(line)\n"; newCount += 1
                }
            }
            let start = positions[hunk.lowerBound]
            let oldStart = oldCount == 0 ? start.old - 1 : start.old
            let newStart = newCount == 0 ? start.new - 1 : start.new
            output += "@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@\n" + body
        }
        return output
    }
}
