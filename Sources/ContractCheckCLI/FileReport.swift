/// Everything `validate` found in one file (or one path that could not be read).
package struct FileReport: Sendable, Hashable {
    /// The path as shown: as given on the command line, plus the path inside a given folder.
    package var path: String
    /// The contract the file was checked against, when one could be told.
    package var contract: String?
    package var findings: [Finding]

    package init(path: String, contract: String?, findings: [Finding]) {
        self.path = path
        self.contract = contract
        self.findings = findings
    }
}
