import Foundation

/// Small whole-file helpers for the schema commands (golden files are small text files).
enum TextFiles {
    /// `path` made absolute against `directory` when it is relative.
    static func resolve(_ path: String, in directory: String) -> String {
        if path.hasPrefix("/") { return path }
        return directory.hasSuffix("/") ? directory + path : directory + "/" + path
    }

    /// The file's text, or nil when it does not exist or cannot be read as UTF-8.
    static func read(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// Writes `text` to `path` (atomically). The folder it goes in must exist: a path into a
    /// folder that is not there is a mistake (a typo, the wrong working directory) to report,
    /// not to create.
    /// - Parameter shown: the path as the user gave it (relative, say), for the message.
    /// - Throws: ``WriteFailure`` with a sentence that says what is wrong.
    static func write(_ text: String, to path: String, shown: String? = nil) throws(WriteFailure) {
        let parent = folder(of: path)
        let shownParent = shown.map(folder(of:)).flatMap { $0.isEmpty ? nil : $0 } ?? parent
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw WriteFailure(reason: "it is a folder; give a file path")
        }
        if !parent.isEmpty, !isExistingFolder(parent) {
            throw WriteFailure(reason: "the folder \(shownParent) does not exist")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw WriteFailure(reason: FileManager.default.isWritableFile(atPath: parent.isEmpty ? "." : parent)
                               ? "the file system refused it (\(error.localizedDescription))"
                               : "the folder \(shownParent) is not writable")
        }
    }

    /// Why ``write(_:to:)`` failed, as the end of an `Error: cannot write PATH: …` line.
    struct WriteFailure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
    }

    /// The folder part of `path`: `out` for `out/x.json`, `/` for `/x.json`, empty for `x.json`.
    /// By bytes, not `NSString.deletingLastPathComponent`, which traps on some inputs (".").
    static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        var folder = trimmed[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return String(folder)
    }

    /// True when `path` names an existing folder.
    static func isExistingFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The names in a folder, sorted; empty when it does not exist.
    static func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}
