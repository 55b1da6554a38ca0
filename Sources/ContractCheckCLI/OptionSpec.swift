/// One option a subcommand accepts: `--name`, or `--name VALUE` when it has a ``valueName``.
package struct OptionSpec: Sendable, Hashable {
    /// The spelling, with its dashes: `--contract`.
    package var name: String
    /// The placeholder for its value in help (`NAME`); `nil` for a flag that takes no value.
    package var valueName: String?
    /// The values it accepts, when it is a choice (`text`, `json`, `github`); `nil` for any.
    package var allowedValues: [String]?
    /// Whether it may be given more than once (each value is kept, in order).
    package var isRepeatable: Bool
    /// One line for `--help`.
    package var help: String
    /// The value the command uses when the option is not given, as it would be typed
    /// (`0`, `auto`); `nil` when there is none or it is not a value (a flag, a list).
    package var defaultValue: String?

    /// `OptionSpec("--contract", valueName: "NAME", help: "…")`; a flag has neither
    /// `valueName` nor `allowedValues`.
    package init(_ name: String, valueName: String? = nil, allowedValues: [String]? = nil, isRepeatable: Bool = false, help: String, defaultValue: String? = nil) {
        self.name = name
        self.valueName = valueName
        self.allowedValues = allowedValues
        self.isRepeatable = isRepeatable
        self.help = help
        self.defaultValue = defaultValue
    }

    /// `--contract NAME`, `--format text|json|github`, `--check`.
    package var synopsis: String {
        if let allowedValues { return "\(name) \(allowedValues.joined(separator: "|"))" }
        if let valueName { return "\(name) \(valueName)" }
        return name
    }
}
