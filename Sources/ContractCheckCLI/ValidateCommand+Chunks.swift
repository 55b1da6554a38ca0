extension ValidateCommand {
    /// One chunk of ``ParallelChecker/chunkSize`` items, checked: its outcomes and, when asked,
    /// its report lines as plain text and its counts, made by the thread that checked it.
    struct CheckedChunk: Sendable {
        var outcomes: [ParallelChecker.Outcome] = []
        /// The text lines (no colour) of the chunk's reports, as ``ReportFormatter`` writes
        /// them; empty unless asked for.
        var text: [UInt8] = []
        var counts = ReportFormatter.Counts()
        /// True when an argument turned out to be a folder (its files are checked afterwards).
        var hasFolder = false
    }

    /// Checks `items` on `crew`'s threads and this one (`alongside` runs here first), in
    /// chunks of ``ParallelChecker/chunkSize``, in order; each thread resolves contracts with
    /// its own copy of `resolver`, and writes the chunk's text lines when `writingText`.
    static func check(_ items: [PathCollector.Item], forced: String?, checker: any DocumentChecker, crew: ParallelChecker,
                      resolver: ContractResolver, writingText: Bool, alongside: () -> Void = {}) -> [CheckedChunk] {
        crew.run(itemCount: items.count, state: ParallelChecker.WorkerState(resolver: resolver), alongside: alongside) { chunk, state in
            let start = chunk * ParallelChecker.chunkSize
            let end = min(start + ParallelChecker.chunkSize, items.count)
            var checked = CheckedChunk()
            checked.outcomes.reserveCapacity(end - start)
            for item in items[start..<end] {
                let outcome: ParallelChecker.Outcome
                switch item {
                case .problem(let path, let finding):
                    outcome = .report(FileReport(path: path, contract: nil, findings: [finding], wasRead: false))
                case .file(let path, let location), .argument(let path, let location):
                    let contract = forced ?? state.resolver.contract(for: location)
                    outcome = check(path, location: location, contract: contract, checker: checker, scratch: &state.scratch)
                }
                switch outcome {
                case .report(let report):
                    checked.counts.add(report)
                    guard writingText else { break }
                    for finding in report.findings {
                        ReportFormatter.appendPlainTextLine(finding, path: report.path, to: &checked.text)
                        checked.text.append(UInt8(ascii: "\n"))
                    }
                case .folder:
                    checked.hasFolder = true
                }
                checked.outcomes.append(outcome)
            }
            return checked
        }
    }

    /// For each item, whether no item before it has the same path (as `String`s compare,
    /// so canonically equal spellings count as one).
    static func firstOccurrences(_ items: [PathCollector.Item]) -> [Bool] {
        var seen = Set<String>(minimumCapacity: items.count)
        return items.map { seen.insert($0.path).inserted }
    }
}
