import PushScenarios

/// Every option of `contract-check serve`, each declared once: its spelling, value name and
/// help line live here and nowhere else. Parsing, error messages, help text, other commands'
/// messages and comments refer to these (`ServeOption.quiet.name`), so renaming an option
/// is one edit; OptionDeclarationTests checks that each spelling occurs once in the sources.
enum ServeOption {
    static let backendPort = OptionSpec("--backend-port", valueName: "N", help: "Port for FakeBackend (default 0: a free port).", defaultValue: "0")
    static let adminPort = OptionSpec("--admin-port", valueName: "N", help: "Port for the admin API (default 0: a free port).", defaultValue: "0")
    static let session = OptionSpec("--session", valueName: "TOKEN=ACCOUNT", isRepeatable: true,
                                    help: "A bearer token and its account id; repeat for more.")
    static let readyFile = OptionSpec("--ready-file", valueName: "PATH",
                                      help: "Once every server listens, write their URLs to PATH as JSON (removed on exit while still this serve's).")
    static let quiet = OptionSpec("--quiet", help: "Do not log requests (the journals still keep them).")
    static let apnsPort = OptionSpec("--apns-port", valueName: "N", help: "Port for FakeAPNs (default 0: a free port).", defaultValue: "0")
    static let apnsChannelsPort = OptionSpec("--apns-channels-port", valueName: "N",
                                             help: "Run FakeAPNs' broadcast channel management listener on port N (0: a free port), printed as \"apns-channels URL\"; Docs/readme/broadcast.md.")
    static let noAPNs = OptionSpec("--no-apns", help: "Run FakeBackend only (no FakeAPNs).")
    static let apnsTopic = OptionSpec("--apns-topic", valueName: "BUNDLE_ID", isRepeatable: true, help: "A bundle id FakeAPNs serves; repeat for more.")
    static let apnsKey = OptionSpec("--apns-key", valueName: "KEY_ID:TEAM_ID:FILE.p8", isRepeatable: true,
                                    help: "A provider-token signing key (Apple's .p8, or a PEM public key); repeat for more.")
    static let apnsEnvironment = OptionSpec("--apns-environment", valueName: "production|development",
                                            help: "The environment of a push whose host is not Apple's (default development); a push to api.push.apple.com is production, to api.sandbox.push.apple.com development.",
                                            defaultValue: "development")
    static let apnsAnyToken = OptionSpec("--apns-any-token", help: "Accept every well-formed device token.")
    static let forwardToSimulator = OptionSpec("--forward-to-simulator", valueName: "BUNDLE_ID",
                                               help: "Write each delivered push as a .apns file and run `xcrun simctl push booted BUNDLE_ID FILE` (macOS with Xcode; without xcrun, said once at start-up, the files are only written).")
    static let scenario = OptionSpec("--scenario", valueName: "NAME",
                                     help: "Preload a scenario: \(PushScenario.allCases.map(\.rawValue).joined(separator: ", ")).")
    static let tls = OptionSpec("--tls", help: "Serve TLS 1.3 on the backend and APNs ports with a test CA (prints its path as \"ca PATH\").")
    static let tlsCADir = OptionSpec("--tls-ca-dir", valueName: "DIR",
                                     help: "With \(tls.name): keep the CA key and certificate in DIR (created on first use, reused after).")
    static let apnsClientCertificates = OptionSpec("--apns-client-certificates",
                                                   help: "With \(tls.name): the default, kept for scripts: FakeAPNs asks every client for an optional APNs client certificate, trusting the CA of \(tls.name); see Docs/readme/certificates.md.")
    static let apnsTrustClientCA = OptionSpec("--apns-trust-client-ca", valueName: "FILE", isRepeatable: true,
                                              help: "With \(tls.name): as \(apnsClientCertificates.name), also trusting the CA certificates in FILE (PEM), e.g. Apple's for a team's real certificate; repeat for more.")
    static let apnsAnyClientCertificate = OptionSpec("--apns-any-client-certificate",
                                                     help: "With \(tls.name): as \(apnsClientCertificates.name), accepting a certificate from any issuer (local development only; key possession, dates and Apple's topics and markers are still checked).")
    static let color = OptionSpec("--color", valueName: "WHEN", help: "auto (colour on a terminal unless NO_COLOR is set), always or never.",
                                   defaultValue: "auto")

    /// The client-certificate options (all need TLS).
    static let certificateOptions = [apnsClientCertificates, apnsTrustClientCA, apnsAnyClientCertificate]

    /// Every serve option, in `--help`'s order.
    static let all: [OptionSpec] = [
        backendPort, adminPort, session, readyFile, quiet, apnsPort, apnsChannelsPort, noAPNs, apnsTopic, apnsKey,
        apnsEnvironment, apnsAnyToken, forwardToSimulator, scenario, tls, tlsCADir,
    ] + certificateOptions + [color]

    /// The usage line, `serve [NAME VALUE] …`, from the declarations (the options that need
    /// TLS nested inside TLS's bracket).
    static var usage: String {
        func bracketed(_ option: OptionSpec) -> String { "[\(option.synopsis)\(option.isRepeatable ? " ..." : "")]" }
        let plain = [backendPort, apnsPort, apnsChannelsPort, adminPort, session, readyFile, quiet, apnsTopic, apnsKey,
                     apnsEnvironment, apnsAnyToken, noAPNs, forwardToSimulator, scenario]
        let tlsGroup = "[\(tls.synopsis) " + ([tlsCADir] + certificateOptions).map(bracketed).joined(separator: " ") + "]"
        return (["serve"] + plain.map(bracketed) + [tlsGroup, bracketed(color)]).joined(separator: " ")
    }
}

extension ParsedArguments {
    /// The (last) value given for `option`, or `nil`.
    func value(for option: OptionSpec) -> String? { value(for: option.name) }
    /// Every value given for a repeatable `option`, in order.
    func values(for option: OptionSpec) -> [String] { values[option.name] ?? [] }
    /// Whether `option` was given (a flag, or an option with a value).
    func has(_ option: OptionSpec) -> Bool { flags.contains(option.name) || values[option.name] != nil }
}
