/// The Live Activity contracts (DESIGN "Live Activities"): the seed's order tracker is one
/// declared type (``OrderTrackerAttributes``) among those an app declares.
enum LiveActivityContracts {
    /// The APNs body of an order tracker push (`apns-push-type: liveactivity`).
    static let payload = Contract.liveActivityPayload(
        for: OrderTrackerAttributes.self, name: "live-activity-payload",
        summary: "The APNs body of a Live Activity push for the order tracker; the device decodes its content-state into the app's ContentState.",
        folderName: "live-activities")
}

extension Contract {
    /// The payload contract of a declared Live Activity type: the rules every activity
    /// follows (timestamp, event, the start/update/end members, 2001-epoch dates, nothing
    /// personal, 4 KB) and the type's own schema for `attributes` and `content-state`.
    ///
    /// ```swift
    /// let slot = Contract.liveActivityPayload(for: DeliverySlotAttributes.self, name: "delivery-slot-activity")
    /// let contracts = ContractSet(contracts: ContractSet.v1.contracts + [slot])
    /// ```
    /// - Parameters:
    ///   - type: the declared type; its ``LiveActivityAttributes/attributesType`` is the
    ///     only `attributes-type` the contract accepts.
    ///   - name: the contract's name. Rules shared by every activity keep their
    ///     `live-activity-payload.*` ids; generic ones (`<name>.type`, …) take this name.
    ///   - summary: one line; nil: says which type.
    ///   - folderName: the fixture folder `contract-check validate` reads as this contract.
    public static func liveActivityPayload<Attributes: LiveActivityAttributes>(
        for type: Attributes.Type, name: String, summary: String? = nil, folderName: String? = nil
    ) -> Contract {
        let line = summary ?? "The APNs body of a Live Activity push for \(Attributes.attributesType); the device decodes its content-state into \(Attributes.attributesType).ContentState."
        var contract = Contract(name: name, direction: .backendToApp, summary: line,
                                schema: LiveActivitySchema.payload(for: type, summary: "The APNs body of a Live Activity push for \(Attributes.attributesType)."),
                                rules: LiveActivityRules.all(for: type), folderName: folderName)
        // A valid push (FakeAPNs checks every one) is passed in one walk of its tree.
        if let admission = SchemaAdmission(contract.schema) {
            let dates = LiveActivitySchema.dateMembers(of: Attributes.contentStateSchema)
            contract.cleanCheck = CleanCheck { document, options in
                admission.admits(document) && LiveActivityRules.allHold(document, dateMembers: dates, options: options)
            }
        }
        return contract
    }
}
