/// The contracts of the app's requests to the backend (seed 000, DESIGN "Device
/// registration" and "Opened").
enum AppToBackendContracts {
    /// `PUT /v1/devices/{token}` body.
    static let deviceRegistration = body(
        "device-registration",
        summary: "The body of PUT /v1/devices/{token}: the app registers this phone's token for the signed-in account.",
        about: "A device registration.", folderName: "devices", [
            .required("platform", Schema.string(oneOf: ["ios"]).summary("Always \"ios\".")),
            environment,
            .required("appVersion", Schema.string(format: .semver).rule("device-registration.app-version", "appVersion is MAJOR.MINOR.PATCH.")
                .summary("The app's version, MAJOR.MINOR.PATCH.")
                .advice("send Bundle.main's CFBundleShortVersionString as MAJOR.MINOR.PATCH")),
            .required("publicKey", Schema.string(format: .base64P256PublicKey).rule("device-registration.public-key", "publicKey is base64 of a 65-byte uncompressed P-256 key (first byte 0x04).")
                .summary("Base64 of the device's 65-byte uncompressed P-256 public key (first byte 0x04).")
                .advice("send SecKeyCopyExternalRepresentation of the P-256 public key, base64-encoded")),
            .optional("accountId", Schema.forbidden("the account comes from the Authorization header, never from the body; remove it")
                .rule("device-registration.account-in-body", "The body never names the account; the bearer session does.")
                .summary("The account never comes from the body; the bearer session names it.")),
        ])

    /// `{token}` in `/v1/devices/{token}`: 1–100 bytes as hex.
    static let deviceToken = pathParameter(
        "device-token", "token", folderName: "device-tokens",
        summary: "The {token} path parameter of /v1/devices/{token}: the APNs device token as hex, 1-100 bytes.",
        Schema.string(minLength: 2, maxLength: 200, format: .hexBytes)
            .summary("APNs device token as hex; compared case-insensitively, stored lowercase.")
            .advice("send the token's bytes as hex, two digits per byte, without spaces or '<>'"))

    /// `POST /v1/notifications/{id}/opened` body.
    static let notificationOpened = body(
        "notification-opened",
        summary: "The body of POST /v1/notifications/{id}/opened: the app reports a tap, once per notification id.",
        about: "An opened report.", folderName: "opens", [
            .required("action", Schema.string(oneOf: ["open", "trackOrder", "seeOffer"])
                .summary("open (the notification body), trackOrder or seeOffer (the buttons).")),
        ])

    /// `{id}` in `/v1/notifications/{id}/opened`: 1–64 of `[A-Za-z0-9_-]`.
    static let notificationID = pathParameter(
        "notification-id", "id", folderName: "notification-ids",
        summary: "The {id} path parameter of /v1/notifications/{id}/opened: the payload's notificationId.",
        Schema.string(minLength: 1, maxLength: 64, format: .identifier)
            .summary("The notificationId of the payload that was tapped.")
            .advice("send the payload's notificationId unchanged"))

    // MARK: - The shapes every app-to-backend contract takes

    /// The `environment` member of a token registration body.
    static let environment = Member.required(
        "environment", Schema.string(oneOf: ["production", "sandbox"])
            .summary("The APNs environment the token belongs to; sandbox tokens must not reach production."))

    /// A request body: an object of `members`, described as `about`.
    static func body(_ name: String, summary: String, about: String, folderName: String, _ members: [Member]) -> Contract {
        Contract(name: name, direction: .appToBackend, summary: summary,
                 schema: .object(members).summary(about), folderName: folderName)
    }

    /// The path parameter `{parameter}`, a string that `schema` describes.
    static func pathParameter(_ name: String, _ parameter: String, folderName: String, summary: String, _ schema: Schema) -> Contract {
        Contract(name: name, direction: .appToBackend, summary: summary, schema: schema,
                 pathParameter: parameter, folderName: folderName)
    }
}
