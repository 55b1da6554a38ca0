import Foundation

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
                    outcome = check(path, location: location, contract: contract, checker: checker, scratch: &state.scratch,
                                    shortReadIsEnd: state.wholeFileReads.shortReadIsEnd(for: location))
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
    package static func firstOccurrences(_ items: [PathCollector.Item]) -> [Bool] {
        if let answer = ASCIIPathSet.firstOccurrences(items) { return answer }
        var seen = Set<String>(minimumCapacity: items.count)
        return items.map { seen.insert($0.path).inserted }
    }
}

/// Repeated paths found by their bytes when every path is ASCII: such strings are equal as
/// `String`s exactly when their bytes are (an ASCII string can equal only a string with the
/// same bytes), so a byte hash and a byte compare answer what `Set<String>` would, for a
/// fraction of its cost (SipHash, and comparisons through Unicode's rules).
package enum ASCIIPathSet {
    /// For each item, whether no item before it has the same path bytes; `nil` when a path
    /// is not ASCII (the caller asks `Set<String>`).
    package static func firstOccurrences(_ items: [PathCollector.Item]) -> [Bool]? {
        var capacity = 16
        while capacity < items.count * 4 { capacity *= 2 }
        let mask = capacity - 1
        // Each kept path: where its bytes start in `bytes` and end, by the slot's index.
        var slots = [Int32](repeating: -1, count: capacity)
        var bounds: [(start: Int, end: Int)] = []
        bounds.reserveCapacity(items.count)
        var bytes: [UInt8] = []
        var answer = [Bool](repeating: true, count: items.count)
        for index in items.indices {
            var path: String
            switch items[index] {
            case .file(let shown, _), .argument(let shown, _), .problem(let shown, _): path = shown
            }
            let first = path.withUTF8 { text -> Bool? in
                guard let code = hash(text) else { return nil }
                var slot = Int(truncatingIfNeeded: code ^ (code >> 29)) & mask
                while slots[slot] >= 0 {
                    let kept = bounds[Int(slots[slot])]
                    if kept.end - kept.start == text.count, bytes.withUnsafeBufferPointer({ keptBytes in
                        guard let keptBase = keptBytes.baseAddress, let base = text.baseAddress else { return true }
                        return memcmp(keptBase + kept.start, base, text.count) == 0
                    }) {
                        return false
                    }
                    slot = (slot + 1) & mask
                }
                slots[slot] = Int32(truncatingIfNeeded: bounds.count)
                bounds.append((bytes.count, bytes.count + text.count))
                bytes.append(contentsOf: text)
                return true
            }
            guard let first else { return nil }
            if !first { answer[index] = false }
        }
        return answer
    }

    /// A 64-bit hash of `text` eight bytes at a time, or `nil` when a byte is not ASCII.
    private static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard let base = text.baseAddress else { return 0 }
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(text.count)
        var high: UInt64 = 0
        var offset = 0
        while offset + 8 <= text.count {
            let word = UnsafeRawPointer(base + offset).loadUnaligned(as: UInt64.self)
            high |= word
            hash = (hash ^ word) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 32
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < text.count {
            tail |= UInt64(base[offset]) << shift
            shift += 8
            offset += 1
        }
        high |= tail
        guard high & 0x8080_8080_8080_8080 == 0 else { return nil }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 33)
    }
}
