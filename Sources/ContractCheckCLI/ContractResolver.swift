/// Tells which contract a file is checked against when `--contract` is not given: its
/// extension (`.apns` → `apns-file`), else the nearest enclosing folder that names a contract
/// (`devices/`, `opens/`, `payloads/`, `apns-errors/`, … as the contract set declares, or a
/// folder named exactly after a contract).
package struct ContractResolver {
    private let checker: any DocumentChecker
    private let known: Set<String>
    private let currentDirectory: String
    /// Answers by folder and extension, the only parts of a path that decide: a folder of
    /// 10,000 payloads is resolved once.
    private var cache: [String: String?] = [:]
    /// The last answer, checked first without allocating: files come folder by folder.
    private var last: (folder: String, fileExtension: String, contract: String?)?

    /// - Parameters:
    ///   - checker: the contract set, which names the folders and extensions.
    ///   - currentDirectory: absolute path relative paths are resolved against, so a file in
    ///     the current folder still finds its folder's name.
    package init(checker: any DocumentChecker, currentDirectory: String) {
        self.checker = checker
        self.known = Set(checker.contractNames)
        self.currentDirectory = currentDirectory
    }

    /// The contract for the file at `path`, or `nil` when none can be told.
    package mutating func contract(for path: String) -> String? {
        let slash = path.lastIndex(of: "/") ?? path.startIndex
        let folder = path[..<slash]
        let name = path[slash...]
        let fileExtension = name.lastIndex(of: ".").map { name[$0...] } ?? ""
        if let last, last.folder == folder, last.fileExtension == fileExtension { return last.contract }
        let key = String(folder) + "/*" + String(fileExtension)
        let contract: String?
        if let known = cache[key] {
            contract = known
        } else {
            contract = resolve(path)
            cache[key] = .some(contract)
        }
        last = (String(folder), String(fileExtension), contract)
        return contract
    }

    private func resolve(_ path: String) -> String? {
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        var folders: [Substring] = []
        for component in absolute.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..": _ = folders.popLast()
            default: folders.append(component)
            }
        }
        let fileName = folders.popLast() ?? ""
        if let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex,
           let contract = checker.contractName(forFileExtension: String(fileName[fileName.index(after: dot)...])) {
            return contract
        }
        for folder in folders.reversed() {
            let name = String(folder)
            if let contract = checker.contractName(forFolder: name) { return contract }
            if known.contains(name) { return name }
        }
        return nil
    }
}
