import LoopbackHTTP
import Foundation
import Contracts
import FakeSupport

extension FakeBackend {
    /// Checks and applies a request to one of the Live Activity endpoints (DESIGN "Live
    /// Activities", Backend): `putLiveActivity`, `deleteLiveActivity`, `putPushToStart`.
    /// Called by the handler after faults, the media type and the bearer, as for the others.
    ///
    /// - An order's activity belongs to the account that registered it: another account's
    ///   PUT or DELETE of it is a 404, as a real backend answers for an order it does not hold.
    /// - PUT is idempotent: the same token and environment again change nothing (not even
    ///   `updatedAt`). A new token replaces the old one. A token already held by another
    ///   order moves: an activity token reaches one activity, so the other order forgets it.
    /// - DELETE of an order with no activity registered (for this account) is a 404.
    /// - Push-to-start needs the device token registered to this account (else 404); the
    ///   token is forgotten when the device is deleted.
    func applyLiveActivity(_ endpoint: Endpoint, parameter: UnsafeBufferPointer<UInt8>, request: HTTPRequest,
                           account: String, now: Date, fault: BackendFault?) -> HTTPResponse {
        let rawParameter = Self.string(parameter)
        let pathViolations = endpoint == .putPushToStart
            ? validator.validate(token: rawParameter) : validator.validate(orderID: rawParameter)
        switch endpoint {
        case .putLiveActivity:
            let (body, bodyViolations) = validator.validate(liveActivityBody: request.body)
            var violations = pathViolations + bodyViolations
            guard let token = Self.token(body?.pushToken, "pushToken", of: "live-activity-registration", &violations) else {
                return reject(violations, now: now, request: request, endpoint: endpoint, account: account, fault: fault)
            }
            let registration = RegisteredLiveActivity(orderId: rawParameter, account: account, pushToken: token,
                                                      environment: body?.environment ?? "", updatedAt: now)
            return commitDescribed(now: now, request: request, endpoint: endpoint, account: account, status: .ofResponse,
                                   violations: violations, fault: fault) { store, _ in
                Self.register(registration, in: &store)
            }

        case .deleteLiveActivity:
            guard !pathViolations.contains(where: { $0.severity == .error }) else {
                return reject(pathViolations, now: now, request: request, endpoint: endpoint, account: account, fault: fault)
            }
            return commitDescribed(now: now, request: request, endpoint: endpoint, account: account, status: .ofResponse,
                                   violations: pathViolations, fault: fault) { store, _ in
                guard let existing = store.liveActivities[rawParameter], existing.account == account else {
                    return (Self.notFound("No Live Activity is registered for order \(ProblemResponse.quoted(rawParameter)) on this account; register one with PUT first, or it has already ended."),
                            "no Live Activity for this order")
                }
                store.liveActivities[rawParameter] = nil
                store.orderByActivityToken[existing.pushToken] = nil
                return (Self.noContent, "ended")
            }

        default:
            let (body, bodyViolations) = validator.validate(pushToStartBody: request.body)
            var violations = pathViolations + bodyViolations
            guard let token = Self.token(body?.value, "pushToStartToken", of: "push-to-start-registration", &violations) else {
                return reject(violations, now: now, request: request, endpoint: endpoint, account: account, fault: fault)
            }
            let device = rawParameter.lowercased()
            return commitDescribed(now: now, request: request, endpoint: endpoint, account: account, status: .ofResponse,
                                   violations: violations, fault: fault) { store, _ in
                guard let registered = store.devices[device], registered.account == account else {
                    return (Self.notFound("Device \(device) is not registered to this account; register it with PUT /v1/devices/\(device) first."),
                            "device not registered to this account")
                }
                if let existing = store.pushToStartTokens[device], existing.account == account, existing.pushToStartToken == token {
                    return (Self.noContent, "unchanged")
                }
                store.pushToStartTokens[device] = RegisteredPushToStart(deviceToken: device, account: account,
                                                                        pushToStartToken: token, updatedAt: now)
                return (Self.noContent, "registered")
            }
        }
    }

    /// Stores an order's activity token: the store's change and the journal's detail.
    private static func register(_ registration: RegisteredLiveActivity, in store: inout BackendStore) -> (HTTPResponse, String?) {
        let order = registration.orderId
        let existing = store.liveActivities[order]
        if let existing, existing.account != registration.account {
            return (notFound("Order \(ProblemResponse.quoted(order)) is not this account's; only the order's account registers its Live Activity."),
                    "order held by another account")
        }
        if let existing, existing.pushToken == registration.pushToken, existing.environment == registration.environment {
            return (noContent, "unchanged")
        }
        var detail = existing == nil ? "started" : "token changed"
        if let previous = store.orderByActivityToken[registration.pushToken], previous != order {
            store.liveActivities[previous] = nil
            detail += "; token moved from order \(previous)"
        }
        if let existing { store.orderByActivityToken[existing.pushToken] = nil }
        store.liveActivities[order] = registration
        store.orderByActivityToken[registration.pushToken] = order
        return (noContent, detail)
    }

    /// 404 problem with `detail`.
    static func notFound(_ detail: String) -> HTTPResponse {
        BackendProblemDetails(type: BackendProblemDetails.typeURI("not-found"), title: "Not Found", status: 404,
                              detail: detail).response()
    }

    /// The body's token `value` (its member `member`), lowercase, when `violations` (the
    /// path's and the body's) has no error; else nil. A body without the member but without
    /// an error (a contract set that declares it more loosely than v1) gets a `required`
    /// violation of `contract` added.
    private static func token(_ value: String?, _ member: String, of contract: String, _ violations: inout [Violation]) -> String? {
        guard !violations.contains(where: { $0.severity == .error }) else { return nil }
        guard let value else {
            violations.append(Violation(pointer: "", ruleID: "\(contract).required",
                                        message: "expected \"\(member)\", a token as hex; found none."))
            return nil
        }
        return value.lowercased()
    }

    // MARK: Test API

    /// Order id → the push token of its Live Activity, for every activity registered and not ended.
    public var liveActivities: [String: RegisteredLiveActivity] { store.withLock { $0.liveActivities } }

    /// The push token (lowercase hex) of `orderId`'s Live Activity, nil when none is registered.
    public func liveActivityToken(forOrder orderId: String) -> String? {
        store.withLock { $0.liveActivities[orderId]?.pushToken }
    }

    /// The push-to-start token (lowercase hex) registered for a device token (compared
    /// case-insensitively), nil when none is.
    public func pushToStartToken(device token: String) -> String? {
        store.withLock { $0.pushToStartTokens[token.lowercased()]?.pushToStartToken }
    }

    /// Waits until `orderId` has a Live Activity token (`token`, when given, compared
    /// case-insensitively) and returns its record.
    @discardableResult
    public func waitForLiveActivityToken(order orderId: String, token: String? = nil,
                                         timeout: Duration = .seconds(5)) async throws -> RegisteredLiveActivity {
        let wanted = token?.lowercased()
        let what = wanted.map { "Live Activity token \($0) for order \(orderId)" } ?? "a Live Activity token for order \(orderId)"
        let state = try await waitFor(what, timeout: timeout) { state in
            guard let activity = state.liveActivities[orderId] else { return false }
            return wanted == nil || activity.pushToken == wanted
        }
        guard let activity = state.liveActivities[orderId] else { throw PushFakeError.cancelled("FakeBackend", waitingFor: what) }
        return activity
    }

    /// Waits until `orderId` has no Live Activity token (its activity ended: `DELETE`).
    @discardableResult
    public func waitForLiveActivityEnd(order orderId: String, timeout: Duration = .seconds(5)) async throws -> FakeBackendState {
        try await waitFor("the Live Activity of order \(orderId) ended", timeout: timeout) { $0.liveActivities[orderId] == nil }
    }

    /// Waits until a device has a push-to-start token and returns its record.
    @discardableResult
    public func waitForPushToStartToken(device token: String, timeout: Duration = .seconds(5)) async throws -> RegisteredPushToStart {
        let key = token.lowercased()
        let what = "a push-to-start token for device \(key)"
        let state = try await waitFor(what, timeout: timeout) { $0.pushToStartTokens[key] != nil }
        guard let registration = state.pushToStartTokens[key] else { throw PushFakeError.cancelled("FakeBackend", waitingFor: what) }
        return registration
    }
}
