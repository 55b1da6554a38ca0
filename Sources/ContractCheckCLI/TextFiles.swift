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

    /// Writes `text`, creating the parent folders.
    static func write(_ text: String, to path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The names in a folder, sorted; empty when it does not exist.
    static func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }
}
