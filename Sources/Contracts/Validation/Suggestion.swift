/// "Did you mean": the closest known word to a mistyped one, by edit distance. The one edit
/// distance of the package: the validator's member and value hints and the CLI's option,
/// subcommand and value hints all come from here.
package enum Suggestion {
    /// The candidate nearest to `word` (case-insensitively), if it is near enough to be a
    /// plausible typo. Ties go to the earlier candidate, so suggestions are deterministic.
    ///
    /// - Parameters:
    ///   - maxEdits: the most edits allowed; `nil` allows a third of the word's length (at
    ///     least one edit), which suits short option and subcommand names.
    ///   - acceptingUniquePrefix: when nothing is near enough, a word of 3 or more characters
    ///     that prefixes exactly one candidate (`--form` for `--format`) suggests it.
    package static func closest(to word: String, among candidates: [String], maxEdits: Int? = nil,
                                acceptingUniquePrefix: Bool = false) -> String? {
        // Longer words are names nobody mistyped; skip the quadratic work.
        guard word.unicodeScalars.count <= 64 else { return nil }
        let limit = maxEdits ?? max(1, word.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        if best == nil, acceptingUniquePrefix, word.count >= 3 {
            let prefixed = candidates.filter { $0.hasPrefix(word) }
            if prefixed.count == 1 { return prefixed.first }
        }
        return best?.candidate
    }

    /// Levenshtein distance with adjacent transpositions counting as one edit
    /// (optimal string alignment), over Unicode scalars.
    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.unicodeScalars)
        let b = Array(rhs.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
