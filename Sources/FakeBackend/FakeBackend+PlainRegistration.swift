import LoopbackHTTP
import Foundation

extension FakeBackend {
    /// What apps send most, answered in one critical section: a PUT whose token and body are
    /// plain and valid (``PlainInputAcceptor``), sent as JSON, with a known bearer, while the
    /// backend is online with no fault plan. The answer, the device and the journal entry are
    /// those of the general path (which this leaves every other request to, returning nil
    /// before it changes anything), without its second lock and with no String made for a
    /// field that matches the device already stored. A body byte for byte the one the device
    /// was registered with from the same account (an app's next launch) is that registration
    /// again, valid as it was: it is not read a second time. A device registered lately is
    /// found by the token's bytes as they are (``DeviceTable/recentRegistration(token:account:body:)``),
    /// any other by its key (``DeviceTable/sameRegistration(key:account:body:)``).
    func registerPlainly(_ request: HTTPRequest, token range: Range<Int>, in target: UnsafeBufferPointer<UInt8>,
                                 contentType: UnsafeBufferPointer<UInt8>?, authorization: UnsafeBufferPointer<UInt8>?, now: Date) -> HTTPResponse? {
        guard Self.unsupportedMediaType(contentType) == nil else { return nil }
        let parameter = UnsafeBufferPointer(rebasing: target[range])
        return request.body.withUnsafeBufferPointer { body -> HTTPResponse? in
            let committed = store.withLock { store -> (entry: BackendJournalEntry, device: RegisteredDevice, hasWaiters: Bool)? in
                // Where the general path would draw a fault, refuse or reject, it answers.
                guard !store.isOffline, store.faults.isEmpty,
                      case .success(let account) = store.account(forAuthorization: authorization) else { return nil }
                let registered: (device: RegisteredDevice, hexToken: Bool)
                // A stored token's bytes are hex digits, but a token's contract may tell their
                // case apart (the stored one is lowercase): checked as the key's path does.
                if let recent = store.devices.recentRegistration(token: parameter, account: account, body: body),
                   validator.admits(hexTokenOfCount: parameter.count) ?? validator.admits(token: parameter) {
                    registered = (recent, true)
                } else {
                    guard let read = register(parameter, body: body, account: account, now: now, in: &store.devices) else { return nil }
                    registered = read
                }
                let entry = store.record(time: now, endpoint: .putDevice, method: request.method, path: Self.journaled(request.path),
                                         account: account, status: 204, violations: [], fault: nil, serverName: request.tlsServerName,
                                         hexTokenStart: registered.hexToken && range.upperBound == target.count ? range.lowerBound : nil)
                return (entry, registered.device, !store.waiters.isEmpty)
            }
            guard let committed else { return nil }
            if committed.hasWaiters { notifyWaiters() }
            configuration.onRequest?(committed.entry)
            configuration.onDeviceRegistered?(committed.device)
            return HTTPResponse(status: .noContent)
        }
    }

    /// ``registerPlainly(_:token:in:contentType:authorization:now:)`` for a device not found
    /// in its recent slot: the token's ``DeviceTable/HexKey`` (no String is made for a hex
    /// token registered already; its digits, read for the key, are not read again for the
    /// token's check), then the device registered with these bytes, or the body read and the
    /// device stored as it says. The device, and whether its token has a key; nil when the
    /// token or the body is not plain and valid (nothing changed).
    private func register(_ parameter: UnsafeBufferPointer<UInt8>, body: UnsafeBufferPointer<UInt8>, account: String, now: Date,
                          in devices: inout DeviceTable) -> (device: RegisteredDevice, hexToken: Bool)? {
        let key = DeviceTable.HexKey(parameter)
        let tokenAdmitted = key.flatMap { _ in validator.admits(hexTokenOfCount: parameter.count) } ?? validator.admits(token: parameter)
        guard tokenAdmitted else { return nil }
        if let key, let same = devices.sameRegistration(key: key, account: account, body: body) { return (same, true) }
        // Read here, under the lock, only when the device's body is not these bytes (the
        // validator is the backend's own, and the same for its life).
        guard let fields = validator.plainRegistration(body) else { return nil }
        let named = key == nil ? RegisteredDevice.token(lowercasing: parameter) : nil
        // The general path's `existing.sameRegistration(as: device)`, without the device: a
        // device is stored under its own token. One another path stored keeps these bytes
        // from now on, so that the next such request is found without reading them.
        let stored = devices.device(key: key, token: named)
        if let stored, fields.isRegistration(of: stored, account: account, in: body) {
            if let key { devices.keep(body, key: key) }
            return (stored, key != nil)
        }
        let device = RegisteredDevice(
            token: stored?.token ?? named ?? RegisteredDevice.token(lowercasing: parameter), account: account,
            environment: fields.environment?.string(in: body) ?? "",
            appVersion: fields.appVersion?.string(in: body) ?? "",
            publicKey: fields.publicKey?.string(in: body) ?? "",
            platform: fields.platform?.string(in: body) ?? "ios",
            updatedAt: now)
        devices.register(device, key: key, body: body)
        return (device, key != nil)
    }
}
