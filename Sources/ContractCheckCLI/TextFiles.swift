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
    /// - Throws: ``WriteFailure`` with a sentence that says what is wrong.
    static func write(_ text: String, to path: String) throws(WriteFailure) {
        let parent = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw WriteFailure(reason: "it is a folder; give a file path")
        }
        if !parent.isEmpty, !isExistingFolder(parent) {
            throw WriteFailure(reason: "the folder \(parent) does not exist")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw WriteFailure(reason: FileManager.default.isWritableFile(atPath: parent.isEmpty ? "." : parent)
                               ? "the file system refused it (\(error.localizedDescription))"
                               : "the folder \(parent) is not writable")
        }
    }

    /// Why ``write(_:to:)`` failed, as the end of an `Error: cannot write PATH: …` line.
    struct WriteFailure: Error, CustomStringConvertible {
        var reason: String
        var description: String { reason }
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
