import LoopbackHTTP
import Foundation
import Contracts
import FakeSupport

extension FakeBackend {
    /// Answers one request: routing, faults, authentication, contract checks, then the
    /// change to the backend's state, all journaled. Never blocks and never traps on input.
    ///
    /// This is the whole fake without a socket (the server only calls it), so unit tests
    /// call it directly:
    /// ```swift
    /// let backend = FakeBackend(configuration: .init(sessions: ["s1": "a1"]))
    /// let response = backend.handle(HTTPRequest(method: "DELETE", path: "/v1/devices/ab12",
    ///                                           headers: ["Authorization": "Bearer s1"]))
    /// #expect(response.status == .noContent)
    /// ```
    package func handle(_ request: HTTPRequest) -> HTTPResponse {
        let now = configuration.clock.now
        // The target, the media type and the bearer are read as bytes where they lie: a
        // String is made of them only where an answer, a device or the journal needs one.
        // The target's bytes are read in place (a parsed request's is a native String),
        // without the copy `withUTF8` makes.
        if let response = request.path.utf8.withContiguousStorageIfAvailable({ handle(request, target: $0, now: now) }) {
            return response
        }
        var path = request.path
        return path.withUTF8 { handle(request, target: $0, now: now) }
    }

    /// ``handle(_:)`` with the target's bytes: reads the two header fields it needs.
    private func handle(_ request: HTTPRequest, target: UnsafeBufferPointer<UInt8>, now: Date) -> HTTPResponse {
        request.headers.withFirstValues(of: "Content-Type", "Authorization") { contentType, authorization in
            handle(request, target: target, contentType: contentType, authorization: authorization, now: now)
        }
    }

    /// ``handle(_:)`` with the target's bytes and the bytes of the two header fields it reads
    /// (nil when absent).
    private func handle(_ request: HTTPRequest, target: UnsafeBufferPointer<UInt8>, contentType: UnsafeBufferPointer<UInt8>?,
                        authorization: UnsafeBufferPointer<UInt8>?, now: Date) -> HTTPResponse {
        let route = BackendRoute.match(method: request.method, target: target)

        if request.bodyLimitExceeded {
            // The server dropped the body unread; answered here so it is journaled.
            let detail = "The body is over \(configuration.maxBodyBytes) bytes and was not read; the backend's requests are a few hundred bytes."
            let response = BackendProblemDetails(
                type: BackendProblemDetails.typeURI("content-too-large"), title: "Content Too Large", status: 413,
                detail: detail)
                .response()
            var endpoint: Endpoint?
            if case .endpoint(let matched, _) = route { endpoint = matched }
            let account = store.withLock { try? $0.account(forAuthorization: authorization).get() }
            commit(now: now, request: request, endpoint: endpoint, account: account, status: .code(413),
                   violations: [], fault: nil, detail: "body over \(configuration.maxBodyBytes) bytes, not read")
            return response
        }

        guard case .endpoint(let endpoint, let parameterRange) = route else {
            let response: HTTPResponse
            if case .methodNotAllowed(let allow) = route {
                response = BackendProblemDetails(
                    type: BackendProblemDetails.typeURI("method-not-allowed"), title: "Method Not Allowed", status: 405,
                    detail: "\(request.method) is not allowed on \(ProblemResponse.quoted(request.pathWithoutQuery)); use \(allow.joined(separator: " or ")).")
                    .response([("Allow", allow.joined(separator: ", "))])
            } else {
                response = BackendProblemDetails(
                    type: BackendProblemDetails.typeURI("not-found"), title: "Not Found", status: 404,
                    detail: "No endpoint at \(ProblemResponse.quoted(request.pathWithoutQuery)). The backend serves \(BackendRoute.servedPaths).")
                    .response()
            }
            let account = store.withLock { try? $0.account(forAuthorization: authorization).get() }
            commit(now: now, request: request, endpoint: nil, account: account, status: .code(response.status.code),
                   violations: [], fault: nil)
            return response
        }
        let parameter = UnsafeBufferPointer(rebasing: target[parameterRange])
        if endpoint == .putDevice, registersPlainly,
           let response = registerPlainly(request, token: parameterRange, in: target, contentType: contentType, authorization: authorization, now: now) {
            return response
        }

        // Faults and the account, drawn together so a fault's count is consumed once.
        let (offline, fault, auth) = store.withLock { store in
            (store.isOffline, store.isOffline ? nil : store.drawFault(for: endpoint),
             store.account(forAuthorization: authorization))
        }
        let account = try? auth.get()

        if offline {
            commit(now: now, request: request, endpoint: endpoint, account: account, status: .none,
                   violations: [], fault: .offline)
            return HTTPResponse(status: .serviceUnavailable, disposition: .reset)
        }
        if let fault, !fault.appliesRequest {
            let response = Self.response(for: fault)
            commit(now: now, request: request, endpoint: endpoint, account: account,
                   status: response.disposition == .send ? .code(response.status.code) : .none, violations: [], fault: fault)
            return response
        }

        if endpoint.readsJSONBody, let mediaType = Self.unsupportedMediaType(contentType) {
            commit(now: now, request: request, endpoint: endpoint, account: account, status: .code(415),
                   violations: [], fault: fault, detail: "Content-Type \(mediaType), not application/json")
            return Self.unsupportedMediaTypeResponse(mediaType)
        }

        var response: HTTPResponse
        switch auth {
        case .failure(let failure):
            response = Self.unauthorized(failure)
            commit(now: now, request: request, endpoint: endpoint, account: nil, status: .code(401), violations: [], fault: fault,
                   detail: failure.journalDetail)
        case .success(let account):
            response = apply(endpoint, parameter: parameter, request: request, account: account, now: now, fault: fault)
        }
        switch fault {
        case .delay(let milliseconds)?: response.disposition = .delay(milliseconds: milliseconds)
        case .loseResponse?: response.disposition = .loseResponse
        default: break
        }
        return response
    }

    /// Checks the request against its contracts and, when it has no error (warnings are
    /// journaled but pass), changes the state.
    /// `parameter` is the path parameter's bytes (valid UTF-8: a slice of the target's).
    private func apply(_ endpoint: Endpoint, parameter: UnsafeBufferPointer<UInt8>, request: HTTPRequest, account: String,
                       now: Date, fault: BackendFault?) -> HTTPResponse {
        switch endpoint {
        case .putDevice:
            let (body, bodyViolations) = validator.validate(registrationBody: request.body)
            // A valid token has no violations to add: no String is made to find none.
            let violations = validator.admits(token: parameter)
                ? bodyViolations : validator.validate(token: Self.string(parameter)) + bodyViolations
            guard !violations.contains(where: { $0.severity == .error }), let body else {
                return reject(violations, now: now, request: request, endpoint: endpoint, account: account, fault: fault)
            }
            let token = RegisteredDevice.token(lowercasing: parameter)
            let device = RegisteredDevice(
                token: token, account: account,
                environment: body.environment ?? "",
                appVersion: body.appVersion ?? "",
                publicKey: body.publicKey ?? "",
                platform: body.platform ?? "ios",
                updatedAt: now)
            var held = device  // what the backend holds after the change, for `onDeviceRegistered`
            let response = commit(now: now, request: request, endpoint: endpoint, account: account, status: .code(204),
                                  violations: violations, fault: fault) { store, sequence in
                if let existing = store.devices[token], existing.sameRegistration(as: device) {
                    held = existing
                    return Self.noContent
                }
                store.devices[token] = device
                return Self.noContent
            }
            configuration.onDeviceRegistered?(held)
            return response

        case .deleteDevice:
            let violations = validator.admits(token: parameter) ? [] : validator.validate(token: Self.string(parameter))
            guard !violations.contains(where: { $0.severity == .error }) else {
                return reject(violations, now: now, request: request, endpoint: endpoint, account: account, fault: fault)
            }
            let token = RegisteredDevice.token(lowercasing: parameter)
            return commit(now: now, request: request, endpoint: endpoint, account: account, status: .ofResponse,
                          violations: violations, fault: fault) { store, sequence in
                guard let existing = store.devices[token] else { return Self.noContent }
                guard existing.account == account else {
                    return BackendProblemDetails(
                        type: BackendProblemDetails.typeURI("not-found"), title: "Not Found", status: 404,
                        detail: "Device \(token) is registered to another account; only its account can delete it.")
                        .response()
                }
                store.devices[token] = nil
                store.pushToStartTokens[token] = nil
                return Self.noContent
            }

        case .opened:
            let (body, bodyViolations) = validator.validate(openedBody: request.body)
            let id = Self.string(parameter)
            let violations = validator.admits(notificationID: parameter)
                ? bodyViolations : validator.validate(notificationID: id) + bodyViolations
            guard !violations.contains(where: { $0.severity == .error }), let body else {
                return reject(violations, now: now, request: request, endpoint: endpoint, account: account, fault: fault)
            }
            let action = body.value ?? ""
            let key = request.headers["Idempotency-Key"]
            return commit(now: now, request: request, endpoint: endpoint, account: account, status: .code(204),
                          violations: violations, fault: fault) { store, sequence in
                let isRepeat = store.isRepeatOpen(key: key, account: account)
                store.recordOpen(RecordedOpen(notificationID: id, account: account, action: action,
                                              time: now, sequence: sequence, idempotencyKey: key,
                                              isRepeat: isRepeat))
                return Self.noContent
            }

        case .putLiveActivity, .deleteLiveActivity, .putPushToStart:
            return applyLiveActivity(endpoint, parameter: parameter, request: request, account: account, now: now, fault: fault)
        }
    }

    /// A 400 listing every violation; journaled with them.
    func reject(_ violations: [Violation], now: Date, request: HTTPRequest, endpoint: Endpoint,
                        account: String, fault: BackendFault?) -> HTTPResponse {
        let count = violations.count
        // A hostile body can break a rule thousands of times; the answer and the journal keep
        // the first ones, so neither grows without bound.
        let kept = Array(violations.prefix(Self.maxViolationsKept))
        var detail = "The request breaks the \(endpoint) contract in \(count) place\(count == 1 ? "" : "s"); fix each listed violation and send it again."
        if kept.count < count { detail += " The first \(kept.count) are listed." }
        let response = BackendProblemDetails(
            type: BackendProblemDetails.typeURI("contract-violation"), title: "Contract violation", status: 400,
            detail: detail, violations: kept.map(BackendProblemDetails.Item.init))
            .response()
        commit(now: now, request: request, endpoint: endpoint, account: account, status: .code(400),
               violations: kept, fault: fault)
        return response
    }

    /// Journals a request and applies its change in one critical section, so a snapshot
    /// never shows one without the other; then wakes waiters and calls `onRequest`.
    /// `change` gets the request's journal sequence number.
    @discardableResult
    func commit(now: Date, request: HTTPRequest, endpoint: Endpoint?, account: String?, status: JournalStatus,
                violations: [Violation], fault: BackendFault?, detail: String? = nil,
                change: (inout BackendStore, UInt64) -> HTTPResponse = { _, _ in HTTPResponse(status: .noContent) }) -> HTTPResponse {
        commitDescribed(now: now, request: request, endpoint: endpoint, account: account, status: status,
                        violations: violations, fault: fault) { store, sequence in (change(&store, sequence), detail) }
    }

    /// ``commit(now:request:endpoint:account:status:violations:fault:detail:change:)`` whose
    /// change also says, for the journal's detail, what it did (nil: no detail).
    func commitDescribed(now: Date, request: HTTPRequest, endpoint: Endpoint?, account: String?, status: JournalStatus,
                         violations: [Violation], fault: BackendFault?,
                         change: (inout BackendStore, UInt64) -> (HTTPResponse, String?)) -> HTTPResponse {
        let (entry, response, hasWaiters) = store.withLock { store in
            let (response, detail) = change(&store, store.sequence &+ 1)
            let entry = store.record(time: now, endpoint: endpoint, method: request.method, path: Self.journaled(request.path),
                                     account: account, status: status.code(response),
                                     violations: violations, fault: fault, detail: detail,
                                     serverName: request.tlsServerName)
            return (entry, response, !store.waiters.isEmpty)
        }
        if hasWaiters { notifyWaiters() }
        configuration.onRequest?(entry)
        return response
    }

    static let noContent = HTTPResponse(status: .noContent)

    /// A String of bytes that are valid UTF-8 (a slice of a String's, cut at ASCII bytes).
    static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Violations listed in one answer and journal entry at most.
    static let maxViolationsKept = 100
    /// Request-target bytes a journal entry keeps at most (a full journal stays small).
    static let maxJournaledPathBytes = 2048

    /// The request target as journaled: cut (and marked with `…`) past ``maxJournaledPathBytes``.
    static func journaled(_ path: String) -> String {
        guard path.utf8.count > maxJournaledPathBytes else { return path }
        return String(decoding: path.utf8.prefix(maxJournaledPathBytes), as: UTF8.self) + "…"
    }

    /// The status a journal entry records.
    enum JournalStatus {
        /// This status.
        case code(Int)
        /// No response was produced (offline, hang, reset).
        case none
        /// The status of the response the change produced.
        case ofResponse

        func code(_ response: HTTPResponse) -> Int? {
            switch self {
            case .code(let code): return code
            case .none: return nil
            case .ofResponse: return response.status.code
            }
        }
    }

    /// The answer a fault that stops a request gives.
    static func response(for fault: BackendFault) -> HTTPResponse {
        switch fault {
        case .status(let code, let retryAfter):
            let status = HTTPStatus(code: code)
            var extra: [(String, String)] = []
            var detail = "Injected fault: the backend answers \(status)."
            if let retryAfter {
                extra.append(("Retry-After", String(retryAfter)))
                detail += " Retry after \(retryAfter) second\(retryAfter == 1 ? "" : "s")."
            }
            return BackendProblemDetails(type: BackendProblemDetails.typeURI("injected-fault"), title: status.reasonPhrase,
                                  status: code, detail: detail).response(extra)
        case .hang:
            return HTTPResponse(status: .serviceUnavailable, disposition: .hang)
        case .reset, .offline:
            return HTTPResponse(status: .serviceUnavailable, disposition: .reset)
        case .delay, .loseResponse:
            return HTTPResponse(status: .noContent)
        }
    }

    /// The media type of a body the backend does not read (`text/plain`, curl's default
    /// `application/x-www-form-urlencoded`), or nil: `application/json` with any parameters
    /// (`; charset=utf-8`) is read, and so is a request without `Content-Type`, which
    /// URLSession code often forgets; the contract check then reads the body as JSON.
    /// `contentType` is the bytes of the first `Content-Type` value, nil when there is none.
    static func unsupportedMediaType(_ contentType: UnsafeBufferPointer<UInt8>?) -> String? {
        guard let contentType else { return nil }
        // What apps send, answered from the bytes (no String, no splitting; every PUT).
        let json: StaticString = "application/json"
        if contentType.count == json.utf8CodeUnitCount, let bytes = contentType.baseAddress,
           memcmp(bytes, json.utf8Start, json.utf8CodeUnitCount) == 0 { return nil }
        let value = string(contentType)
        let mediaType = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first
            .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return mediaType.lowercased() == "application/json" ? nil : (mediaType.isEmpty ? "(empty)" : mediaType)
    }

    /// 415 naming the type sent and the one to send.
    static func unsupportedMediaTypeResponse(_ mediaType: String) -> HTTPResponse {
        BackendProblemDetails(
            type: BackendProblemDetails.typeURI("unsupported-media-type"), title: "Unsupported Media Type", status: 415,
            detail: "The body is sent as \(mediaType); the backend reads application/json. Send Content-Type: application/json (a charset parameter is fine).")
            .response([("Accept", "application/json")])
    }

    /// 401 with `WWW-Authenticate: Bearer` and a problem body saying what was wrong.
    static func unauthorized(_ failure: BackendStore.AuthFailure) -> HTTPResponse {
        let detail: String
        let challenge: String
        switch failure {
        case .missing:
            detail = "No bearer token. Send Authorization: Bearer <session>."
            challenge = "Bearer"
        case .notBearer:
            detail = "The Authorization header is not a bearer token. Send Authorization: Bearer <session>."
            challenge = "Bearer"
        case .unknown:
            detail = "The bearer token names no session. Sign in again and send Authorization: Bearer <session>, or add the session to the fake."
            challenge = #"Bearer error="invalid_token""#
        }
        return BackendProblemDetails(type: BackendProblemDetails.typeURI("unauthorized"), title: "Unauthorized", status: 401,
                              detail: detail).response([("WWW-Authenticate", challenge)])
    }
}
