// PEM (RFC 7468) blocks: a label and base64 DER between BEGIN and END lines.
import Foundation

/// One `-----BEGIN LABEL-----` … `-----END LABEL-----` block.
package struct PEMDocument: Sendable, Equatable {
    package var label: String
    package var der: [UInt8]

    /// A block labelled `label` (e.g. `CERTIFICATE`) holding `der`.
    package init(label: String, der: [UInt8]) {
        self.label = label
        self.der = der
    }

    /// Every well-formed block in `text`, in order (text between blocks is ignored, as
    /// OpenSSL does; `openssl ecparam -genkey` writes an `EC PARAMETERS` block first).
    package static func parseAll(_ text: String) throws(CryptoEncodingError) -> [PEMDocument] {
        var documents: [PEMDocument] = []
        var label: String?
        var body = ""
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if let current = label {
                if line.hasPrefix("-----END "), line.hasSuffix("-----") {
                    let endLabel = String(line.dropFirst(9).dropLast(5))
                    guard endLabel == current else {
                        throw CryptoEncodingError(.notPEM, "'-----BEGIN \(current)-----' ends with '-----END \(endLabel)-----'")
                    }
                    guard let data = Data(base64Encoded: body) else { throw CryptoEncodingError(.invalidBase64, current) }
                    documents.append(PEMDocument(label: current, der: [UInt8](data)))
                    label = nil
                    body = ""
                } else if !line.contains(":") {
                    // RFC 1421 headers ("Proc-Type: …") would be encrypted keys; not taken.
                    body += line
                } else {
                    throw CryptoEncodingError(.encryptedPEM, current)
                }
            } else if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----"), line.count > 16 {
                label = String(line.dropFirst(11).dropLast(5))
            }
        }
        if let current = label {
            throw CryptoEncodingError(.notPEM, "'-----BEGIN \(current)-----' has no '-----END \(current)-----' line (truncated?)")
        }
        guard !documents.isEmpty else { throw CryptoEncodingError(.notPEM, "") }
        return documents
    }

    /// The PEM text: base64 in 64-character lines, newline-terminated.
    package var text: String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN \(label)-----"]
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        lines.append("-----END \(label)-----")
        return lines.joined(separator: "\n") + "\n"
    }
}
