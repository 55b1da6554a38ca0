import PushCore
/// The alert descriptions this server sends (RFC 8446 §6.2); the names are the RFC's.
package enum TLSAlertDescription: UInt8, Sendable, Hashable {
    case closeNotify = 0
    case unexpectedMessage = 10
    case badRecordMAC = 20
    case recordOverflow = 22
    case handshakeFailure = 40
    case badCertificate = 42
    case unsupportedCertificate = 43
    case illegalParameter = 47
    case decodeError = 50
    case decryptError = 51
    case protocolVersion = 70
    case internalError = 80
    case missingExtension = 109
    case noApplicationProtocol = 120
}

/// A fatal problem with what the peer sent: the alert to send before closing, and why.
///
/// Equal on the alert description alone (like ``CodedError``), so a test compares with
/// `error.code == .decodeError` or `== TLSAlert(.decodeError)` while the message says where.
package struct TLSAlert: CodedError {
    package var code: TLSAlertDescription
    package var message: String

    package init(_ code: TLSAlertDescription, _ message: String = "") {
        self.code = code
        self.message = message.isEmpty ? "\(code)" : "\(code): \(message)"
    }

    /// A malformed message: a length runs past its container, or a vector is the wrong size.
    static func decode(_ message: String) -> TLSAlert { TLSAlert(.decodeError, message) }

    /// The alert message body: level (1 warning, 2 fatal) and description.
    package var body: [UInt8] {
        [code == .closeNotify ? 1 : 2, code.rawValue]
    }
}
