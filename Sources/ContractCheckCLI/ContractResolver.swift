/// Tells which contract a file is checked against when `--contract` is not given: the
/// `.apns` extension, else the nearest enclosing folder with a known name.
package struct ContractResolver: Sendable {
    /// Folder names that stand for a contract (plural, as a fixtures or samples folder is named).
    /// A folder named exactly after a contract (`payload/`) also works.
    package static let folderContracts: [String: String] = [
        "devices": "device-registration",
        "opens": "notification-opened",
        "payloads": "payload",
        "apns-errors": "apns-error",
        "apns-files": "apns-file",
    ]

    /// The contract for files ending in `.apns` (Simulator push files).
    package static let apnsFileContract = "apns-file"

    private let known: Set<String>
    private let currentDirectory: String

    /// - Parameters:
    ///   - contractNames: the contracts that exist; a folder or extension that names another
    ///     contract does not count.
    ///   - currentDirectory: absolute path relative paths are resolved against, so a file in
    ///     the current folder still finds its folder's name.
    package init(contractNames: [String], currentDirectory: String) {
        self.known = Set(contractNames)
        self.currentDirectory = currentDirectory
    }

    /// The contract for the file at `path`, or `nil` when none can be told.
    package func contract(for path: String) -> String? {
        if path.hasSuffix(".apns"), known.contains(Self.apnsFileContract) {
            return Self.apnsFileContract
        }
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        var folders: [Substring] = []
        for component in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = folders.popLast()
            default: folders.append(component)
            }
        }
        _ = folders.popLast()  // the file's own name
        for folder in folders.reversed() {
            let name = String(folder)
            if let contract = Self.folderContracts[name], known.contains(contract) { return contract }
            if known.contains(name) { return name }
        }
        return nil
    }
}
