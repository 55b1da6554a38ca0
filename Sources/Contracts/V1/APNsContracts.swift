/// The contracts of what reaches APNs or the Simulator: the payload, the `.apns` file and
/// APNs' error response.
enum APNsContracts {
    /// The APNs payload the backend sends (seed 000, "APNs payload").
    static let payload: Contract = {
        var contract = Contract(
            name: "payload", direction: .backendToApp,
            summary: "The APNs payload the backend sends; every installed app version reads it.",
            schema: PayloadSchema.payload,
            rules: PayloadRules.all(),
            folderName: "payloads")
        // A valid payload (FakeAPNs checks every push) is passed in one walk of its tree.
        if let admission = SchemaAdmission(PayloadSchema.payload) {
            contract.cleanCheck = CleanCheck({ document, options in
                admission.admits(document) && PayloadRules.allHold(document, options: options)
            }, flat: { document, options in
                admission.admits(document, 0) && PayloadRules.allHold(document, options: options)
            }, isSizeLimited: true)
        }
        return contract
    }()

    /// The key the Simulator reads to pick the app a dropped `.apns` file is for.
    static let simulatorTargetBundle = "Simulator Target Bundle"

    /// A `.apns` file for the Simulator: the payload plus "Simulator Target Bundle".
    static let apnsFile: Contract = {
        var members = PayloadSchema.members
        members.append(.required(simulatorTargetBundle, Schema.string(format: .bundleID).rule("apns-file.simulator-target-bundle", "\"Simulator Target Bundle\" is present and is a bundle id.")
            .summary("The bundle id of the app the Simulator delivers the file to.")
            .advice("set it to the app's bundle identifier"), rule: "apns-file.simulator-target-bundle"))
        return Contract(
            name: "apns-file", direction: .backendToApp,
            summary: "A .apns file dropped on the Simulator: the payload plus \"Simulator Target Bundle\".",
            schema: Schema(.object(ObjectSchema(members: members, unknownMembers: .allow)))
                .summary("A Simulator push file."),
            rules: PayloadRules.all(sizeExcluding: simulatorTargetBundle),
            ruleNamespace: "payload", folderName: "apns", fileExtension: "apns")
    }()

    /// Reasons APNs answers with a 410 and a `timestamp`.
    static let goneReasons: [JSONConstant] = APNsErrorReason.allCases.filter { $0.status == 410 }.map { .string($0.rawValue) }

    /// The JSON body of an APNs error response.
    static let apnsError = Contract(
        name: "apns-error", direction: .providerToAPNs,
        summary: "The JSON body of an APNs error response: {\"reason\": …} plus \"timestamp\" for 410.",
        schema: .object([
            .required("reason", Schema.string(oneOf: APNsErrorReason.allSpellings).rule("apns-error.reason", "reason is one of Apple's reason strings, spelled exactly.")
                .summary("Apple's reason string.")
                .advice("use one of Apple's reason strings exactly, e.g. BadDeviceToken")),
            .optional("timestamp", Schema.integer(minimum: 0)
                .summary("For 410: when APNs last confirmed the token invalid, in milliseconds since 1970.")),
        ]).summary("An APNs error response."),
        rules: [timestampRequired, timestampUnexpected],
        folderName: "apns-errors")

    /// A broadcast channel's configuration: the body of `POST /1/apps/{bundle}/channels` on
    /// APNs' channel management host, and of the `GET` answer (Docs/readme/broadcast.md).
    static let apnsChannel = Contract(
        name: "apns-channel", direction: .providerToAPNs,
        summary: "A broadcast channel's configuration: {\"message-storage-policy\": 0 or 1, \"push-type\": \"LiveActivity\"}.",
        schema: .object([
            .required("message-storage-policy", Schema.constants([.integer(0), .integer(1)])
                .rule("apns-channel.message-storage-policy", "message-storage-policy is 0 (no storage) or 1 (the newest message is stored).")
                .summary("0: an offline device misses a broadcast; 1: APNs keeps the newest for it.")
                .advice("send 0 (no storage) or 1 (most recent message stored)")),
            .required("push-type", Schema.constants([.string("LiveActivity")])
                .rule("apns-channel.push-type", "push-type is LiveActivity, the only push type a channel carries.")
                .summary("The channel's push type.")
                .advice("send \"LiveActivity\"")),
        ]).summary("A broadcast channel configuration."),
        rules: [],
        folderName: "apns-channels")

    static let timestampRequired = ContractRule(
        id: "apns-error.timestamp-required", summary: "410 reasons (ExpiredToken, Unregistered) carry a timestamp.",
        form: RuleForm(when: .equals(["reason"], goneReasons), then: .present(["timestamp"]))
    ) { document, report in
        guard let reason = NodeQuery.node(at: ["reason"], in: document), goneReasons.contains(where: { $0.matches(reason) }),
              NodeQuery.member("timestamp", of: document) == nil else { return }
        report.add("", at: document.position,
                   "\(NodeQuery.describe(reason)) expects \"timestamp\" (milliseconds since 1970), found none — APNs sends when it last confirmed the token invalid; add it.")
    }

    static let timestampUnexpected = ContractRule(
        id: "apns-error.timestamp-unexpected", summary: "Only 410 reasons carry a timestamp.",
        form: RuleForm(when: .present(["timestamp"]), then: .equals(["reason"], goneReasons))
    ) { document, report in
        guard let timestamp = NodeQuery.member("timestamp", of: document) else { return }
        let reason = NodeQuery.node(at: ["reason"], in: document)
        if let reason, goneReasons.contains(where: { $0.matches(reason) }) { return }
        report.add("/timestamp", at: timestamp.keyPosition,
                   "expected \"timestamp\" only with a 410 reason (ExpiredToken, Unregistered), found it with \(reason.map(NodeQuery.describe) ?? "no reason") — remove it.")
    }
}
