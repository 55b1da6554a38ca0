extension ContractSet {
    /// The seed app's v1 contracts: `device-registration`, `device-token`,
    /// `notification-opened`, `notification-id`, `payload`, `apns-file`, `apns-error`,
    /// `live-activity-payload`.
    public static let v1 = ContractSet(contracts: [
        AppToBackendContracts.deviceRegistration,
        AppToBackendContracts.deviceToken,
        AppToBackendContracts.notificationOpened,
        AppToBackendContracts.notificationID,
        APNsContracts.payload,
        APNsContracts.apnsFile,
        APNsContracts.apnsError,
        LiveActivityContracts.payload,
    ])
}
