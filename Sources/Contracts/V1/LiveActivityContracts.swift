/// The Live Activity contracts of the lock-screen order tracker (DESIGN "Live Activities").
enum LiveActivityContracts {
    /// The APNs body of a Live Activity push (`apns-push-type: liveactivity`).
    static let payload = Contract(
        name: "live-activity-payload", direction: .backendToApp,
        summary: "The APNs body of a Live Activity push for the order tracker; the device decodes its content-state into the app's ContentState.",
        schema: LiveActivitySchema.payload,
        rules: LiveActivityRules.all,
        folderName: "live-activities")
}
