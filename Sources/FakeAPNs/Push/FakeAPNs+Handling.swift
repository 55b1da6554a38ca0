import Contracts
import Foundation
import LoopbackHTTP
import FakeSupport
import PushCore

extension FakeAPNs {
    /// Answers one request as APNs would, applying its effect (delivery, journal, waits).
    ///
    /// This is the fake's whole logic; the HTTP server only calls it. Never blocks: a
    /// delay fault is returned as the response's disposition.
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        if Self.isBroadcastPath(request.path) { return handleBroadcast(request) }
        let now = clock.nowMilliseconds()
        let headers = APNsRequestHeaders(request.headers)
        let framing = validator.checkFraming(request, headers: headers)
        let pathToken: String? = try? framing.get()
        // The one branch on the push type outside the checks: a Live Activity push's body is
        // read against its own contract (and as the device reads it); nothing else changes
        // for an alert push.
        let liveActivity: LiveActivityInspection?
        let inspection: PayloadInspection?
        if headers.pushType == "liveactivity" {
            liveActivity = inspectLiveActivity(request.body, token: pathToken)
            inspection = liveActivity?.inspection
        } else {
            liveActivity = nil
            inspection = inspectIfReadable(request.body)
        }
        let hostEnvironment = request.authority.flatMap(APNsEnvironment.init(host:))
        // Answered in one critical section when the connection knows the token (every push but
        // a connection's first, or a new token's); otherwise nothing is done there but reading
        // the bearer token and the keys, the signature is verified outside the lock, and the
        // push answered after. A request that fails framing never gets that far. The header
        // its connection's token was installed from, sent again, is not parsed again.
        var presented: PreverifiedToken?
        var keys: KeysToVerify?
        if let response = journaling(unless: { s in
            guard pathToken != nil else { return false }
            if request.tlsClientCertificate == nil, let header = headers.authorization,
               let token = s.authentication.installedToken(sentAs: header, on: request.connectionID) {
                presented = PreverifiedToken(token: token)
                return false
            }
            presented = presentedProviderToken(request, authorization: headers.authorization)
            keys = presented.flatMap { keysToVerify($0, connectionID: request.connectionID, in: s.authentication) }
            return keys != nil
        }, { s, wakeups in answer(&s, &wakeups, preverified: presented) }) {
            return response
        }
        let preverified = presented.flatMap { presented in keys.map { verified(presented, against: $0) } }
        return journaling { s, wakeups in answer(&s, &wakeups, preverified: preverified) }

        func answer(_ s: inout FakeAPNsState, _ wakeups: inout Wakeups, preverified: PreverifiedToken?) -> (HTTPResponse, APNsJournalEntry) {
            let sequence = s.journal.nextSequence()
            let environment = hostEnvironment ?? settings.environment
            let sentID = headers.apnsID
            let apnsID = sentID.flatMap { APNsRequestValidator.isUUID($0) ? $0 : nil } ?? APNsIdentifier.make(using: &s.identifiers)
            var entry = APNsJournalEntry(
                sequence: sequence, receivedAt: now, method: request.method, path: request.path,
                deviceToken: pathToken, apnsID: apnsID, topic: headers.topic,
                pushType: headers.pushType, collapseID: headers.collapseID,
                payloadBytes: request.body.count, status: 0, reason: nil, violations: inspection?.violations ?? [],
                fault: nil, delivery: nil, detail: nil, connectionID: request.connectionID, protocolVersion: request.version)
            entry.environment = environment
            entry.serverName = request.tlsServerName
            entry.certificate = request.tlsClientCertificate.map { APNsProviderCertificate(certificate: $0).identity }
            s.connectionRecords.noteAuthentication(request)
            if let unprocessed = Self.unprocessedAfterGoAway(request, entry: &entry, authentication: s.authentication) {
                return (unprocessed, entry)
            }

            let fault = s.faults.takeFault(for: pathToken)
            entry.fault = fault
            var response: HTTPResponse
            switch fault {
            case .reason(let reason)?:
                // Every 410 carries a timestamp, as Apple documents; a fault without one gets "now".
                let timestamp = reason.timestamp ?? (reason.status == 410 ? now : nil)
                response = errorResponse(reason, apnsID: apnsID, timestamp: timestamp)
                entry.status = reason.status
                entry.reason = reason.reason
            case .reset?:
                response = HTTPResponse(status: .internalServerError, disposition: .reset)
            case .hang?:
                response = HTTPResponse(status: .internalServerError, disposition: .hang)
            case .goAway(let reason)?:
                response = HTTPResponse(status: .serviceUnavailable,
                                        disposition: .goAway(debugData: APNsReason(status: 503, reason: reason).body()))
            case .delay?, .loseResponse?, nil:
                let verdict = evaluate(request, headers: headers, framing: framing, inspection: inspection,
                                       liveActivity: liveActivity?.push, apnsID: apnsID, environment: environment, now: now,
                                       preverified: preverified, state: &s, wakeups: &wakeups)
                entry.status = verdict.status
                entry.reason = verdict.reason?.reason
                entry.delivery = verdict.delivery
                entry.detail = verdict.detail
                if let push = verdict.push {
                    entry.topic = push.topic
                    entry.pushType = push.pushType.rawValue
                }
                response = verdict.response
                response.liftsStreamLimit = verdict.authenticated
                if case .delay(let ms)? = fault { response.disposition = .delay(milliseconds: ms) }
                if case .loseResponse? = fault { response.disposition = .loseResponse }
                if let reason = verdict.reason, reason.countsAsConnectionError,
                   let limit = settings.goAwayAfterErrors {
                    countTowardGoAway(\.errors, limit: limit, what: "errors", request.connectionID,
                                      response: &response, entry: &entry, authentication: &s.authentication)
                }
                if verdict.providerTokenRejected, let limit = settings.goAwayAfterProviderTokenFailures {
                    countTowardGoAway(\.tokenFailures, limit: limit, what: "provider tokens refused", request.connectionID,
                                      response: &response, entry: &entry, authentication: &s.authentication)
                }
            }
            noteProviderToken(headers.authorization, presented: preverified?.token, connectionID: request.connectionID, fault: fault, now: now, entry: &entry, authentication: &s.authentication)
            if request.bodyLimitExceeded {
                entry.detail = [entry.detail, "the body exceeded the server's \(settings.maxBodyBytes)-byte limit and was discarded unread"]
                    .compactMap { $0 }.joined(separator: "; ")
            }
            Self.noteGoAway(response, request, in: &s.authentication)
            return (response, entry)
        }
    }

    /// Reads the payload when its size is one APNs accepts (the inspection is pure, so it
    /// runs outside the lock).
    private func inspectIfReadable(_ body: [UInt8]) -> PayloadInspection? {
        guard !body.isEmpty, body.count <= APNsPushType.voip.maximumPayloadBytes else { return nil }
        return inspectionCache.inspection(of: body, inspectPayload)
    }

    struct Verdict {
        var status: Int
        var reason: APNsReason?
        var push: APNsPushRequest?
        var delivery: DeliveryOutcome?
        var response: HTTPResponse
        var detail: String? = nil
        /// The provider token was refused (counted toward `goAwayAfterProviderTokenFailures`).
        var providerTokenRejected = false
        /// The request authenticated (its provider token verified, or a certificate): on a
        /// token connection the answer lifts the one-stream limit.
        var authenticated = false
    }

    /// Steps 1–11 of ``APNsRequestValidator``'s order.
    ///
    /// `environment` is the request's: the Apple host it addressed, else the configured one.
    private func evaluate(_ request: HTTPRequest, headers: APNsRequestHeaders, framing: Result<String, APNsReason>,
                          inspection: PayloadInspection?, liveActivity: Result<LiveActivityPush, LiveActivityPush.Unreadable>?, apnsID: String, environment: APNsEnvironment,
                          now: Int64, preverified: PreverifiedToken?, state s: inout FakeAPNsState, wakeups: inout Wakeups) -> Verdict {
        func reject(_ reason: APNsReason, push: APNsPushRequest? = nil, timestamp: Int64? = nil) -> Verdict {
            Verdict(status: reason.status, reason: reason, push: push, delivery: nil,
                    response: errorResponse(reason, apnsID: apnsID, timestamp: timestamp))
        }
        let token: String
        switch framing {
        case .failure(let reason): return reject(reason)
        case .success(let t): token = t
        }
        let tokenNote: String?
        let certificateTopics: [String]?
        switch authenticate(request, authorization: headers.authorization, environment: environment, now: now,
                             preverified: preverified, authentication: &s.authentication) {
        case .failure(let refusal):
            var verdict = reject(refusal.reason)
            verdict.providerTokenRejected = refusal.providerTokenRejected
            verdict.detail = refusal.detail
            return verdict
        case .success(let passed):
            (tokenNote, certificateTopics) = (passed.note, passed.certificateTopics)
        }
        var verdict = evaluatePush(request, headers: headers, token: token, certificateTopics: certificateTopics,
                                   inspection: inspection, liveActivity: liveActivity, apnsID: apnsID,
                                   environment: environment, now: now, state: &s, wakeups: &wakeups)
        if let tokenNote {
            verdict.detail = [tokenNote, verdict.detail].compactMap { $0 }.joined(separator: "; ")
        }
        verdict.authenticated = true
        return verdict
    }

    /// How a request authenticated: the certificate's topics on a certificate connection,
    /// and a note for the journal.
    struct Authenticated {
        var certificateTopics: [String]?
        var note: String?
    }

    /// Why a request did not authenticate.
    struct AuthenticationRefusal: Error {
        var reason: APNsReason
        var detail: String?
        /// The provider token was refused (counted toward `goAwayAfterProviderTokenFailures`).
        var providerTokenRejected: Bool
    }

    /// Step 5, for pushes, broadcasts and channel management alike: on a certificate
    /// connection the certificate authenticates and a token is not read (Apple:
    /// MissingProviderToken is for a connection without a certificate); otherwise the
    /// provider token, unless the configuration ignores tokens.
    func authenticate(_ request: HTTPRequest, authorization: String?, environment: APNsEnvironment, now: Int64,
                      preverified: PreverifiedToken? = nil,
                      authentication: inout ProviderAuthenticationState) -> Result<Authenticated, AuthenticationRefusal> {
        if let presented = request.tlsClientCertificate {
            let certificate = APNsProviderCertificate(certificate: presented)
            if let rejection = certificate.check(environment: environment,
                                                 acceptsAnyIssuer: settings.clientCertificates?.acceptsAnyIssuer ?? false) {
                return .failure(AuthenticationRefusal(reason: rejection.reason, detail: rejection.detail, providerTokenRejected: false))
            }
            let note = authorization != nil ? "authorization ignored: the connection authenticated with a client certificate" : nil
            return .success(Authenticated(certificateTopics: certificate.topics, note: note))
        }
        var note: String?
        if settings.providerTokens == .verify,
           let rejection = checkProviderToken(request, authorization: authorization, environment: environment, now: now,
                                              authentication: &authentication, note: &note, preverified: preverified) {
            return .failure(AuthenticationRefusal(reason: rejection.reason, detail: [note, rejection.detail].compactMap { $0 }.joined(separator: "; "),
                                                  providerTokenRejected: true))
        }
        return .success(Authenticated(certificateTopics: nil, note: note))
    }

    /// Steps 6–11: the push itself, once its provider token passed.
    private func evaluatePush(_ request: HTTPRequest, headers: APNsRequestHeaders, token: String, certificateTopics: [String]?,
                              inspection: PayloadInspection?,
                              liveActivity: Result<LiveActivityPush, LiveActivityPush.Unreadable>?, apnsID: String, environment: APNsEnvironment, now: Int64,
                              state s: inout FakeAPNsState, wakeups: inout Wakeups) -> Verdict {
        func reject(_ reason: APNsReason, push: APNsPushRequest? = nil, timestamp: Int64? = nil, detail: String? = nil) -> Verdict {
            Verdict(status: reason.status, reason: reason, push: push, delivery: nil,
                    response: errorResponse(reason, apnsID: apnsID, timestamp: timestamp), detail: detail)
        }
        let push: APNsPushRequest
        switch validator.checkPush(request, headers: headers, token: token, certificateTopics: certificateTopics,
                                   isJSONObject: { _ in inspection?.isJSONObject ?? false }) {
        case .failure(let reason): return reject(reason)
        case .success(let p): push = p
        }
        if settings.payloadContract == .reject,
           let inspection, inspection.violations.contains(where: { $0.severity == .error }) {
            return reject(.payloadContractViolation, push: push)
        }
        if let liveActivity {
            return evaluateLiveActivity(push, request: request, reading: liveActivity, apnsID: apnsID,
                                        environment: environment, now: now, liveActivities: &s.liveActivities,
                                        channels: &s.channels, devices: s.devices, identifiers: &s.identifiers)
        }

        // Device state: a known token's record is worked on in place (one lookup); a record
        // `acceptAnyDeviceToken` creates is stored after.
        let admitted: Result<DeliveryOutcome, DeviceRefusal>
        if let slot = s.devices.slot(of: push.deviceToken) {
            admitted = admit(push, apnsID: apnsID, request: request, environment: environment, now: now, known: true,
                             device: &s.devices[slot: slot], faults: &s.faults, waits: &s.waits, wakeups: &wakeups)
        } else if settings.acceptAnyDeviceToken {
            var device = DeviceStore.Device(environment: environment)
            s.devices.rememberImplicitDevice(push.deviceToken, cap: max(1, settings.maxImplicitDevices), isAwaited: s.waits.isAwaited)
            admitted = admit(push, apnsID: apnsID, request: request, environment: environment, now: now, known: false,
                             device: &device, faults: &s.faults, waits: &s.waits, wakeups: &wakeups)
            s.devices.put(device, for: push.deviceToken)
        } else {
            return reject(.badDeviceToken, push: push, detail: "the token is not registered")
        }
        switch admitted {
        case .failure(let refusal):
            return reject(refusal.reason, push: push, timestamp: refusal.timestamp, detail: refusal.detail)
        case .success(let outcome):
            return Verdict(status: 200, reason: nil, push: push, delivery: outcome,
                           response: acceptedResponse(apnsID: apnsID, environment: environment, identifiers: &s.identifiers))
        }
    }

    /// Why a device's state or rate refused a push (steps 10–11).
    struct DeviceRefusal: Error {
        var reason: APNsReason
        var timestamp: Int64?
        var detail: String
    }

    /// Steps 10–11 on the device's record (`known`: the fake had one before this push): its
    /// state, its rate, then delivery.
    private func admit(_ push: APNsPushRequest, apnsID: String, request: HTTPRequest, environment: APNsEnvironment, now: Int64,
                       known: Bool, device: inout DeviceStore.Device, faults: inout InjectedFaults, waits: inout PendingWaits,
                       wakeups: inout Wakeups) -> Result<DeliveryOutcome, DeviceRefusal> {
        if known {
            if let at = device.unregisteredAt {
                return .failure(DeviceRefusal(reason: .unregistered, timestamp: at, detail: "unregistered at \(AdminJSON.timestamp(milliseconds: at))"))
            }
            if settings.acceptAnyDeviceToken {
                // Any state but unregistered is accepted.
            } else if !device.registered {
                return .failure(DeviceRefusal(reason: .badDeviceToken, detail: "the token is not registered"))
            } else if device.environment != environment {
                return .failure(DeviceRefusal(reason: .badDeviceToken,
                                              detail: Self.environmentMismatch(device.environment, request: request, environment: environment)))
            } else if !device.anyTopic && !device.topics.contains(push.topic) {
                return .failure(DeviceRefusal(reason: .deviceTokenNotForTopic,
                                              detail: "the token is registered for \(device.topics.sorted().joined(separator: ", ")), not \(push.topic)"))
            }
        }
        // Rate.
        if let throttle = settings.throttle {
            let windowStart = now &- Int64(throttle.windowSeconds * 1000)
            device.acceptedPushes.removeAll { $0 <= windowStart }
            if device.acceptedPushes.count >= throttle.limit {
                return .failure(DeviceRefusal(reason: .tooManyRequests,
                                              detail: "\(throttle.limit) pushes to this token in \(String(format: "%g", throttle.windowSeconds)) s already"))
            }
            device.acceptedPushes.append(now)
        }
        return .success(accept(push, apnsID: apnsID, now: now, device: &device, faults: &faults, waits: &waits, wakeups: &wakeups))
    }

    /// The journal's detail for a token of the other environment: both named, and why the
    /// request is in its environment.
    static func environmentMismatch(_ tokens: APNsEnvironment, request: HTTPRequest, environment: APNsEnvironment) -> String {
        let why = request.authority.flatMap(APNsEnvironment.init(host:)) != nil
            ? "addressed to \(request.authority ?? "")" : "the fake's default environment"
        return "the token is registered for \(tokens.displayName); this request is for \(environment.displayName) (\(why))"
    }

    /// 200 with `apns-id`, and `apns-unique-id` in the development environment. Built with its
    /// fields at once (appending to a field list grows it on every push).
    func acceptedResponse(apnsID: String, environment: APNsEnvironment, identifiers: inout SplitMix64) -> HTTPResponse {
        let headers: HTTPFields
        if environment == .sandbox {  // Apple: "only available in the Development environment"
            headers = HTTPFields([HTTPFields.Field(name: "apns-id", value: apnsID),
                                  HTTPFields.Field(name: "apns-unique-id", value: APNsIdentifier.make(uppercase: false, using: &identifiers))])
        } else {
            headers = HTTPFields([HTTPFields.Field(name: "apns-id", value: apnsID)])
        }
        return HTTPResponse(status: .ok, headers: headers)
    }

    func errorResponse(_ reason: APNsReason, apnsID: String, timestamp: Int64?) -> HTTPResponse {
        var headers = HTTPFields()
        headers.append(name: "content-type", value: "application/json")
        headers.append(name: "apns-id", value: apnsID)
        return HTTPResponse(status: HTTPStatus(code: reason.status), headers: headers,
                            body: reason.body(timestamp: timestamp))
    }
}
