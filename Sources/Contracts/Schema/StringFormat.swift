/// A string format checked by a small hand-written matcher (no regex engine on the hot path)
/// and emitted as its ECMA-262 `pattern` for JSON Schema and OpenAPI.
///
/// The matcher and the pattern must accept the same strings; the tests check them against
/// each other with a regex engine.
public struct StringFormat: Sendable, Hashable {
    /// A stable name, e.g. `semver`, `hex-bytes`, `https-url`.
    public var name: String
    /// The equivalent ECMA-262 regular expression, anchored.
    public var pattern: String
    /// What a good value looks like, for messages: "MAJOR.MINOR.PATCH, e.g. 4.2.0".
    public var expectation: String
    /// A JSON Schema `format` annotation to emit alongside the pattern (e.g. `uri`), if any.
    public var jsonSchemaFormat: String?
    /// Returns nil when the value matches, else what is wrong with it ("an odd number of digits").
    private let problem: @Sendable (String) -> String?

    /// - Parameters:
    ///   - name: the format's name, used in rule ids and messages.
    ///   - pattern: the regular expression a value matches, as emitted in JSON Schema.
    ///   - expectation: what a good value looks like, for messages.
    ///   - jsonSchemaFormat: a JSON Schema `format` to emit alongside the pattern, if any.
    ///   - problem: nil when `value` matches; otherwise a short phrase saying what is wrong,
    ///     used after "found" in the violation message.
    public init(name: String, pattern: String, expectation: String, jsonSchemaFormat: String? = nil,
                problem: @escaping @Sendable (_ value: String) -> String?) {
        self.name = name
        self.pattern = pattern
        self.expectation = expectation
        self.jsonSchemaFormat = jsonSchemaFormat
        self.problem = problem
    }

    /// Nil when `value` has this format; otherwise what is wrong with it.
    public func problem(with value: String) -> String? { problem(value) }

    /// True when `value` has this format.
    public func matches(_ value: String) -> Bool { problem(value) == nil }

    public static func == (lhs: StringFormat, rhs: StringFormat) -> Bool {
        lhs.name == rhs.name && lhs.pattern == rhs.pattern && lhs.jsonSchemaFormat == rhs.jsonSchemaFormat
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(pattern)
    }
}

// MARK: - The formats the v1 contracts use

extension StringFormat {
    /// Hex digits in pairs (bytes), either case: a device token.
    public static let hexBytes = StringFormat(
        name: "hex-bytes", pattern: "^([0-9A-Fa-f]{2})+$",
        expectation: "hex digits, an even number of them",
        problem: FormatMatchers.hexBytesProblem)

    /// `[A-Za-z0-9_-]+`: notification ids, account ids, order and offer ids.
    public static let identifier = StringFormat(
        name: "identifier", pattern: "^[A-Za-z0-9_-]+$",
        expectation: "letters, digits, '_' and '-' only",
        problem: FormatMatchers.identifierProblem)

    /// `MAJOR.MINOR.PATCH` without leading zeros or suffixes.
    public static let semver = StringFormat(
        name: "semver", pattern: "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$",
        expectation: "MAJOR.MINOR.PATCH, e.g. 4.2.0",
        problem: FormatMatchers.semverProblem)

    /// Standard base64 with padding (RFC 4648 section 4).
    public static let base64 = StringFormat(
        name: "base64", pattern: "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
        expectation: "standard base64 with '=' padding",
        problem: FormatMatchers.base64Problem)

    /// Base64 of a 65-byte uncompressed P-256 public key (first byte 0x04): 88 characters.
    public static let base64P256PublicKey = StringFormat(
        name: "base64-p256-public-key", pattern: "^B[A-P][A-Za-z0-9+/]{84}[AEIMQUYcgkosw048]=$",
        expectation: "base64 of a 65-byte uncompressed P-256 public key (88 characters starting with 'B')",
        problem: FormatMatchers.p256KeyProblem)

    /// An absolute `https://` URL with a host.
    public static let httpsURL = StringFormat(
        name: "https-url", pattern: "^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#]\\S*)?$",
        expectation: "an https:// URL", jsonSchemaFormat: "uri",
        problem: FormatMatchers.httpsURLProblem)

    /// A bundle identifier such as `com.example.shop`.
    public static let bundleID = StringFormat(
        name: "bundle-id", pattern: "^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)+$",
        expectation: "a bundle identifier such as com.example.shop",
        problem: FormatMatchers.bundleIDProblem)

    /// `orders/<id>`: the route of an order update.
    public static let orderRoute = prefixedIdentifier(name: "order-route", prefix: "orders/")
    /// `offers/<id>`: the route of an offer.
    public static let offerRoute = prefixedIdentifier(name: "offer-route", prefix: "offers/")
    /// `order-<id>`: the thread id that groups one order's pushes.
    public static let orderThread = prefixedIdentifier(name: "order-thread-id", prefix: "order-")

    /// `<prefix><id>` where the id is 1–64 of `[A-Za-z0-9_-]`. The prefix must be plain
    /// ASCII without regex metacharacters other than '/', '-' and '.'.
    public static func prefixedIdentifier(name: String, prefix: String) -> StringFormat {
        let escaped = prefix.replacingDots()
        return StringFormat(
            name: name, pattern: "^\(escaped)[A-Za-z0-9_-]{1,64}$",
            expectation: "\(prefix)<id> (id: 1-64 of A-Z a-z 0-9 _ -)",
            problem: { FormatMatchers.prefixedIdentifierProblem($0, prefix: prefix) })
    }
}

extension String {
    fileprivate func replacingDots() -> String {
        var result = ""
        for character in self {
            if character == "." { result += "\\." } else { result.append(character) }
        }
        return result
    }
}
