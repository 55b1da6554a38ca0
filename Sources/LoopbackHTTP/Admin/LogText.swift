/// How both fakes write a request on one log line, so a backend line and an APNs line name
/// the same device token the same way.
package enum LogText {
    /// A device token (or any long hex segment) as a log line shows it: lowercased, and past
    /// 20 digits cut to the first 8 and the last 4 (`0a1b2c3d…e8f9`). The journal keeps it whole.
    package static func token<S: StringProtocol>(_ token: S) -> String {
        let lower = token.lowercased()
        return lower.count > 20 ? "\(lower.prefix(8))…\(lower.suffix(4))" : lower
    }

    /// The request target as requested, with each hex segment of 20 or more digits shortened
    /// as ``token(_:)`` does, and cut at 160 characters.
    package static func path(_ target: String) -> String {
        let query = target.firstIndex(of: "?")
        let path = target[..<(query ?? target.endIndex)]
        var shown = path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            segment.count >= 20 && segment.allSatisfy(\.isHexDigit) ? token(segment) : String(segment)
        }.joined(separator: "/")
        if let query { shown += target[query...] }
        return shown.count > 160 ? String(shown.prefix(160)) + "…" : shown
    }

    /// ` (why)`: a journal's detail, appended to a line when there is one.
    package static func detail(_ detail: String?) -> String {
        guard let detail, !detail.isEmpty else { return "" }
        return " (\(detail))"
    }
}
