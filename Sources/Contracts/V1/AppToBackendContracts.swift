/// The contracts of the app's requests to the backend (seed 000, DESIGN "Device
/// registration" and "Opened").
enum AppToBackendContracts {
    /// `PUT /v1/devices/{token}` body.
    static let deviceRegistration = Contract(
        name: "device-registration", direction: .appToBackend,
        summary: "The body of PUT /v1/devices/{token}: the app registers this phone's token for the signed-in account.",
        schema: .object([
            .required("platform", Schema.string(oneOf: ["ios"]).summary("Always \"ios\".")),
            .required("environment", Schema.string(oneOf: ["production", "sandbox"])
                .summary("The APNs environment the token belongs to; sandbox tokens must not reach production.")),
            .required("appVersion", Schema.string(format: .semver).rule("device-registration.app-version", "appVersion is MAJOR.MINOR.PATCH.")
                .summary("The app's version, MAJOR.MINOR.PATCH.")
                .advice("send Bundle.main's CFBundleShortVersionString as MAJOR.MINOR.PATCH")),
            .required("publicKey", Schema.string(format: .base64P256PublicKey).rule("device-registration.public-key", "publicKey is base64 of a 65-byte uncompressed P-256 key (first byte 0x04).")
                .summary("Base64 of the device's 65-byte uncompressed P-256 public key (first byte 0x04).")
                .advice("send SecKeyCopyExternalRepresentation of the P-256 public key, base64-encoded")),
            .optional("accountId", Schema.forbidden("the account comes from the Authorization header, never from the body; remove it")
                .rule("device-registration.account-in-body", "The body never names the account; the bearer session does.")
                .summary("The account never comes from the body; the bearer session names it.")),
        ]).summary("A device registration."),
        folderName: "devices")

    /// `{token}` in `/v1/devices/{token}`: 1–100 bytes as hex.
    static let deviceToken = Contract(
        name: "device-token", direction: .appToBackend,
        summary: "The {token} path parameter of /v1/devices/{token}: the APNs device token as hex, 1-100 bytes.",
        schema: Schema.string(minLength: 2, maxLength: 200, format: .hexBytes)
            .summary("APNs device token as hex; compared case-insensitively, stored lowercase.")
            .advice("send the token's bytes as hex, two digits per byte, without spaces or '<>'"),
        pathParameter: "token", folderName: "device-tokens")

    /// `POST /v1/notifications/{id}/opened` body.
    static let notificationOpened = Contract(
        name: "notification-opened", direction: .appToBackend,
        summary: "The body of POST /v1/notifications/{id}/opened: the app reports a tap, once per notification id.",
        schema: .object([
            .required("action", Schema.string(oneOf: ["open", "trackOrder", "seeOffer"])
                .summary("open (the notification body), trackOrder or seeOffer (the buttons).")),
        ]).summary("An opened report."),
        folderName: "opens")

    /// `{id}` in `/v1/notifications/{id}/opened`: 1–64 of `[A-Za-z0-9_-]`.
    static let notificationID = Contract(
        name: "notification-id", direction: .appToBackend,
        summary: "The {id} path parameter of /v1/notifications/{id}/opened: the payload's notificationId.",
        schema: Schema.string(minLength: 1, maxLength: 64, format: .identifier)
            .summary("The notificationId of the payload that was tapped.")
            .advice("send the payload's notificationId unchanged"),
        pathParameter: "id", folderName: "notification-ids")
}
