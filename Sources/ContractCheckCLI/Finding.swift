import Contracts

/// One line of `validate` output: a contract violation, or a problem with the file itself
/// (unreadable, empty, binary, not JSON, no contract).
package struct Finding: Sendable, Hashable {
    package var severity: Violation.Severity
    /// Where in the file, when known.
    package var position: SourcePosition?
    /// The JSON Pointer for a violation; `nil` for a problem with the whole file.
    package var pointer: String?
    package var message: String
    /// A stable rule id; file problems use `file.*` and `json.syntax`.
    package var ruleID: String

    package init(severity: Violation.Severity = .error, position: SourcePosition? = nil, pointer: String? = nil, message: String, ruleID: String) {
        self.severity = severity
        self.position = position
        self.pointer = pointer
        self.message = message
        self.ruleID = ruleID
    }

    package init(_ violation: Violation) {
        self.init(severity: violation.severity, position: violation.position, pointer: violation.pointer, message: violation.message, ruleID: violation.ruleID)
    }

    // MARK: File problems

    package static func notFound(_ detail: String) -> Finding {
        Finding(message: "no such file or folder (\(detail)); check the path", ruleID: "file.not-found")
    }

    /// A name found in a folder that is not UTF-8: the file cannot be named to be opened.
    package static func nameNotUTF8(_ name: [UInt8]) -> Finding {
        let escaped = name.map { byte in
            byte < 0x80 && byte >= 0x20 ? String(UnicodeScalar(byte)) : "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
        return Finding(message: "file name is not valid UTF-8 (\(escaped)), so it cannot be checked; rename it", ruleID: "file.name-not-utf8")
    }

    package static func brokenLink() -> Finding {
        Finding(message: "symbolic link to a file that does not exist; fix or remove the link", ruleID: "file.not-found")
    }

    package static func unreadable(_ detail: String) -> Finding {
        Finding(message: "cannot read the file (\(detail)); check its permissions", ruleID: "file.unreadable")
    }

    package static func notRegular(_ kind: String) -> Finding {
        Finding(message: "not a regular file (\(kind)); pass JSON files or folders", ruleID: "file.not-regular")
    }

    package static func tooLarge(_ size: Int, limit: Int) -> Finding {
        Finding(message: "file is \(size) bytes, more than the \(limit) bytes contract-check reads; no contract allows a document this large", ruleID: "file.too-large")
    }

    package static let empty = Finding(message: "empty file; expected one JSON document", ruleID: "file.empty")

    package static let blank = Finding(message: "file holds only whitespace; expected one JSON document", ruleID: "file.empty")

    package static func binary(offset: Int) -> Finding {
        Finding(message: "binary file (NUL byte at offset \(offset)); expected UTF-8 JSON text", ruleID: "file.binary")
    }

    package static let utf16 = Finding(message: "file starts with a UTF-16 or UTF-32 byte order mark; JSON must be UTF-8, save it as UTF-8 without a BOM", ruleID: "file.binary")

    package static func syntax(_ message: String, at position: SourcePosition) -> Finding {
        Finding(position: position, message: message, ruleID: "json.syntax")
    }

    /// The document breaks `contract` (the folder's, or `--contract`'s) but conforms to
    /// `other`: which one it looks like and how to pick it.
    package static func fitsOtherContract(_ other: String, not contract: String, folder: String?) -> Finding {
        let ways = "--contract \(other)" + (folder.map { " or put it under \($0)/" } ?? "")
        return Finding(severity: .warning,
                       message: "this document breaks the \(contract) contract but fits \(other): if it is a \(other), check it with \(ways)",
                       ruleID: "file.other-contract")
    }

    /// Names the ways to select a contract that this contract set offers.
    package static func unknownContract(known: [String], folders: [String], extensions: [String]) -> Finding {
        var ways: [String] = []
        if !folders.isEmpty {
            let listed = folders.map { $0 + "/" }
            let text = listed.count == 1 ? listed[0] : listed.dropLast().joined(separator: ", ") + " or " + (listed.last ?? "")
            ways.append("put the file under \(text)")
        }
        if !extensions.isEmpty {
            ways.append("name it " + extensions.map { "*." + $0 }.joined(separator: " or "))
        }
        let option = "pass --contract NAME (one of \(known.joined(separator: ", ")))"
        return Finding(
            message: "cannot tell which contract applies; " + (ways.isEmpty ? option : ways.joined(separator: ", ") + ", or " + option),
            ruleID: "file.unknown-contract"
        )
    }

    /// A folder argument with nothing to check: empty, or only files no contract claims.
    package static func emptyFolder(skipped: Int = 0) -> Finding {
        Finding(message: "folder holds no files to check"
                    + (skipped == 0 ? "" : " (\(skipped) file\(skipped == 1 ? "" : "s") no contract claims skipped; --verbose lists them)")
                    + "; point at a folder of .json files named after a contract, or .apns files",
                ruleID: "file.empty-folder")
    }
}
