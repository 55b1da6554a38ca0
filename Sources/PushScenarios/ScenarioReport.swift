/// What a scenario saw: the failures (empty when the client and sender behaved) and a short
/// log of the steps, both written for a person reading a failed test.
public struct ScenarioReport: Sendable, Hashable, CustomStringConvertible {
    /// The scenario's name, as `--scenario` spells it.
    public var scenario: String
    /// One sentence per failure: what the user would see, and what the code should do.
    public var failures: [String]
    /// The steps the scenario took and what the fakes answered.
    public var steps: [String]

    /// A report for `scenario`; it passes when `failures` is empty.
    public init(scenario: String, failures: [String] = [], steps: [String] = []) {
        self.scenario = scenario
        self.failures = failures
        self.steps = steps
    }

    /// True when nothing failed.
    public var passed: Bool { failures.isEmpty }

    /// "scenario: passed", or the failures, one per line.
    public var description: String {
        if failures.isEmpty { return "\(scenario): passed" }
        return "\(scenario): \(failures.count) failure\(failures.count == 1 ? "" : "s")\n"
            + failures.map { "  - " + $0 }.joined(separator: "\n")
    }

    mutating func step(_ text: String) { steps.append(text) }
    mutating func fail(_ text: String) { failures.append(text) }
}
