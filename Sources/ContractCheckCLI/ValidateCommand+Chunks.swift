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
        if let answer = ASCIIPathSet.firstOccurrences(items.lazy.map(\.path)) { return answer }
        var seen = Set<String>(minimumCapacity: items.count)
        return items.map { seen.insert($0.path).inserted }
    }
}

/// Repeated paths found by their bytes when every path is ASCII: such strings are equal as
/// `String`s exactly when their bytes are (an ASCII string can equal only a string with the
/// same bytes), so a byte hash and a byte compare answer what `Set<String>` would, for a
/// fifth of its cost (it hashes with SipHash and compares through Unicode's rules).
enum ASCIIPathSet {
    /// For each path, whether no path before it has the same bytes; `nil` when a path is
    /// not ASCII (the caller asks `Set<String>`).
    static func firstOccurrences(_ paths: some Collection<String>) -> [Bool]? {
        var capacity = 16
        while capacity < paths.count * 2 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        var starts: [Int] = []
        starts.reserveCapacity(paths.count + 1)
        var bytes: [UInt8] = []
        var answer: [Bool] = []
        answer.reserveCapacity(paths.count)
        for path in paths {
            var path = path
            let first: Bool? = path.withUTF8 { text in
                var hash: UInt64 = 0xCBF2_9CE4_8422_2325
                for byte in text {
                    guard byte < 0x80 else { return nil }
                    hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                }
                var slot = Int(truncatingIfNeeded: hash) & (capacity - 1)
                while slots[slot] >= 0 {
                    let earlier = Int(slots[slot])
                    let end = earlier + 1 < starts.count ? starts[earlier + 1] : bytes.count
                    if bytes[starts[earlier]..<end].elementsEqual(text) { return false }
                    slot = (slot + 1) & (capacity - 1)
                }
                slots[slot] = Int32(truncatingIfNeeded: starts.count)
                starts.append(bytes.count)
                bytes.append(contentsOf: text)
                return true
            }
            guard let first else { return nil }
            answer.append(first)
        }
        return answer
    }
}
