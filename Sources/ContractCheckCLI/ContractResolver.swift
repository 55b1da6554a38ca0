#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// The last answer (folder and extension as UTF-8), checked first by comparing bytes
    /// in place: files come folder by folder, so 10,000 payloads cost one lookup and 9,999
    /// byte comparisons, with no string built per file.
    private var last: (folder: [UInt8], fileExtension: [UInt8], contract: String?)?

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
        var path = path
        let last = self.last
        let (folderEnd, extensionStart, hit) = path.withUTF8 { bytes -> (Int, Int, String??) in
            let (folderEnd, extensionStart) = ContractResolver.split(bytes)
            guard let last, last.folder.count == folderEnd, last.fileExtension.count == bytes.count - extensionStart,
                  ContractResolver.equal(bytes, from: 0, last.folder),
                  ContractResolver.equal(bytes, from: extensionStart, last.fileExtension) else { return (folderEnd, extensionStart, nil) }
            return (folderEnd, extensionStart, .some(last.contract))
        }
        if let hit { return hit }
        let bytes = Array(path.utf8)
        let folder = Array(bytes[..<folderEnd])
        let fileExtension = Array(bytes[extensionStart...])
        let key = String(decoding: folder, as: UTF8.self) + "/*" + String(decoding: fileExtension, as: UTF8.self)
        let contract: String?
        if let known = cache[key] {
            contract = known
        } else {
            contract = resolve(path)
            cache[key] = .some(contract)
        }
        self.last = (folder, fileExtension, contract)
        return contract
    }

    /// Where the folder part of a path ends (its last `/`, or 0) and where the file
    /// extension starts (the last `.` after that, or the end).
    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (folderEnd: Int, extensionStart: Int) {
        var index = bytes.count
        var extensionStart = bytes.count
        while index > 0 {
            index -= 1
            let byte = bytes[index]
            if byte == UInt8(ascii: "/") { return (index, extensionStart) }
            if byte == UInt8(ascii: "."), extensionStart == bytes.count { extensionStart = index }
        }
        return (0, extensionStart)
    }

    /// True when `bytes` from `start` begin with `expected`.
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, _ expected: [UInt8]) -> Bool {
        guard start >= 0, bytes.count - start >= expected.count else { return false }
        guard let base = bytes.baseAddress, !expected.isEmpty else { return true }
        return expected.withUnsafeBytes { wanted in
            guard let wantedBase = wanted.baseAddress else { return false }
            return memcmp(base + start, wantedBase, wanted.count) == 0
        }
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
