import Foundation
import Contracts
import LoopbackHTTP
import FakeSupport

/// One request FakeAPNs received, with its verdict.
public struct APNsJournalEntry: Sendable, Hashable {
    /// 1 for the first request since start, counting dropped entries too; `FakeAPNs.reset()`
    /// does not restart it, so a `?since=` cursor stays valid.
    public var sequence: Int
    /// When it arrived (ms since 1970, on the fake's clock).
    public var receivedAt: Int64
    /// The request's method (`POST` for a push).
    public var method: String
    /// The request's path, e.g. `/3/device/<token>`.
    public var path: String
    /// The device token from the path (lowercased) when the path had one.
    public var deviceToken: String?
    /// The `apns-id` answered (echoed or generated).
    public var apnsID: String
    /// `apns-topic` as sent, nil when absent.
    public var topic: String?
    /// `apns-push-type` as sent (or as read, `alert` when absent and accepted).
    public var pushType: String?
    /// `apns-collapse-id` as sent.
    public var collapseID: String?
    /// The payload's size in bytes.
    public var payloadBytes: Int
    /// 200, or the error status.
    public var status: Int
    /// Apple's reason for an error, nil for 200.
    public var reason: String?
    /// Contract violations of the payload (recorded whether or not they caused a 400).
    public var violations: [Violation]
    /// The scripted fault that applied, if any.
    public var fault: APNsFault?
    /// What became of an accepted push.
    public var delivery: DeliveryOutcome?
    /// Why, in words, when the reason alone does not say (e.g. which provider-token check failed).
    public var detail: String?
    /// The connection the request came on (provider tokens are per connection).
    public var connectionID: UInt64
    /// HTTP/2 or HTTP/1.1.
    package var protocolVersion: HTTPProtocolVersion
    /// The environment the request was answered in: the Apple host it addressed
    /// (`api.push.apple.com` → production, `api.sandbox.push.apple.com` → sandbox), else
    /// ``FakeAPNs/Configuration/environment``.
    public var environment: APNsEnvironment = .sandbox
    /// The host name the sender put in TLS SNI (e.g. `api.sandbox.push.apple.com`), as sent;
    /// nil on a plain (h2c or HTTP/1.1) port and for a TLS client that sent none.
    public var serverName: String? = nil
    /// The client certificate the request's connection authenticated with (subject UID,
    /// serial, environment); nil on a connection without one.
    public var certificate: APNsCertificateIdentity? = nil
    /// The `apns-channel-id` of a broadcast or channel management request (or the channel a
    /// create made); nil for a push to a device.
    public var channelID: String? = nil
    /// The provider token's last 16 characters (from its signature): tells the tokens a
    /// sender used apart without keeping them. Nil for a request without a bearer token.
    public var providerTokenFingerprint: String? = nil
    /// The `iat` (seconds since 1970) of the provider token the request was authorized with,
    /// when the connection had installed it; nil otherwise.
    public var providerTokenIssuedAt: Int64? = nil
    /// `"HTTP/2"` or `"HTTP/1.1"`: what the sender spoke.
    public var httpVersion: String { protocolVersion.rawValue }

    /// True for a 200.
    public var isAccepted: Bool { status == 200 }

    /// `POST /3/device/0a1b2c3d…e8f9 400 BadPriority (why)`: a log line. The path is the one
    /// requested (device tokens shortened and lowercased as FakeBackend's lines do them), then
    /// the status, reason, delivery, fault, violation count and the ``detail``.
    public var logLine: String {
        var line: [UInt8] = []
        appendLogLine(to: &line)
        return String(decoding: line, as: UTF8.self)
    }

    /// ``logLine``, appended to a line being built (`serve` writes one per request).
    package func appendLogLine(to line: inout [UInt8]) {
        LineCursor.append(to: &line, capacity: logLineCapacity) { writeLogLine(to: &$0) }
    }

    /// ``logLine``, written through a cursor (`serve`'s line, with its time before it).
    package func writeLogLine(to line: inout LineCursor) {
        line.write(method: method, path: path, status: status == 0 ? nil : status)
        if let reason { line.write(utf8: " \(reason)") }
        if let delivery {
            line.write(literal: " delivery=")
            line.write(utf8: Self.caseName(delivery))
        }
        if let fault { line.write(utf8: " fault=\(fault)") }
        if let channelID { line.write(utf8: " channel=\(channelID)") }
        if let certificate {
            line.write(utf8: " certificate=\(certificate.subject ?? "-")/\(certificate.serial)/\(certificate.environment ?? "-")")
        }
        if !violations.isEmpty {
            line.write(literal: " violations=")
            line.write(decimal: violations.count)
        }
        line.write(detail: detail)
    }

    /// Room enough for ``writeLogLine(to:)`` unless its words are long (then it measures again).
    package var logLineCapacity: Int {
        LineCursor.capacity(method: method, path: path) + 96 + (detail?.utf8.count ?? 0)
    }

    /// The case's name, as `"\(delivery)"` writes it, without reflection (every accepted push).
    static func caseName(_ delivery: DeliveryOutcome) -> String {
        switch delivery {
        case .delivered: "delivered"
        case .deliveredTwice: "deliveredTwice"
        case .storedWhileOffline: "storedWhileOffline"
        case .droppedOffline: "droppedOffline"
        case .backgroundBudgetExceeded: "backgroundBudgetExceeded"
        case .activityStarted: "activityStarted"
        case .activityUpdated: "activityUpdated"
        case .activityEnded: "activityEnded"
        case .ignoredOlderTimestamp: "ignoredOlderTimestamp"
        case .ignoredAfterEnd: "ignoredAfterEnd"
        case .ignoredWrongToken: "ignoredWrongToken"
        case .droppedUndecodableContentState: "droppedUndecodableContentState"
        case .droppedUndecodableAttributes: "droppedUndecodableAttributes"
        case .droppedUnreadable: "droppedUnreadable"
        case .droppedOverBudget: "droppedOverBudget"
        case .droppedTooManyActivities: "droppedTooManyActivities"
        }
    }

    /// When it arrived, as a `Date` (``receivedAt`` is milliseconds since 1970).
    public var time: Date { Date(timeIntervalSince1970: Double(receivedAt) / 1000) }
}
