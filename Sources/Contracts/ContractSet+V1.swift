extension ContractSet {
    /// The seed app's v1 contracts: `device-registration`, `device-token`,
    /// `notification-opened`, `notification-id`, `payload`, `apns-file`, `apns-error`, `apns-channel`,
    /// `live-activity-payload`, `live-activity-registration`, `push-to-start-registration`,
    /// `order-id`.
    public static let v1 = ContractSet(contracts: [
        AppToBackendContracts.deviceRegistration,
        AppToBackendContracts.deviceToken,
        AppToBackendContracts.notificationOpened,
        AppToBackendContracts.notificationID,
        APNsContracts.payload,
        APNsContracts.apnsFile,
        APNsContracts.apnsError,
        APNsContracts.apnsChannel,
        LiveActivityContracts.payload,
        LiveActivityRegistrationContracts.registration,
        LiveActivityRegistrationContracts.pushToStart,
        LiveActivityRegistrationContracts.orderID,
    ])
}
