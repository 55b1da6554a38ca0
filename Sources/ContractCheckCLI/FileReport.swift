/// Everything `validate` found in one file (or one path that could not be read).
package struct FileReport: Sendable, Hashable {
    /// The path as shown: as given on the command line, plus the path inside a given folder.
    package var path: String
    /// The contract the file was checked against, when one could be told.
    package var contract: String?
    package var findings: [Finding]
    /// False for a path that was never read (missing, unreadable, a folder with nothing to
    /// check): it is reported, but not counted among the files checked.
    package var wasRead: Bool

    package init(path: String, contract: String?, findings: [Finding], wasRead: Bool = true) {
        self.path = path
        self.contract = contract
        self.findings = findings
        self.wasRead = wasRead
    }
}
