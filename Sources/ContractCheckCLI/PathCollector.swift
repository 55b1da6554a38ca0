#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the PATH arguments into the list of files to check: files as given, folders
/// searched recursively, in a deterministic order (byte order of the path within each
/// argument, arguments in the order given).
///
/// Arguments are not `stat`ed up front: an argument is read as a file, and only when that
/// read says "is a folder" is it expanded with ``expand(_:location:)``. A run over 10,000
/// named files saves 10,000 system calls.
///
/// Inside folders, hidden entries (`.git`, `.DS_Store`) are skipped; `*.expect` fixture
/// sidecars are skipped everywhere. Paths that cannot be used become findings, so the run
/// goes on with the rest.
package enum PathCollector {
    /// One thing to report on.
    package enum Item: Sendable, Hashable {
        /// A regular file found in a folder: `path` as shown, `location` as opened.
        case file(path: String, location: String)
        /// A path named on the command line: a file, or a folder to expand once read.
        case argument(path: String, location: String)
        /// A path with a problem (missing, unreadable, a device…). Boxed: a `Finding` is
        /// ~80 bytes, and held inline it made every item that size (10,000 paths given to
        /// `validate`: a 1 MB array, ~250 pages touched for the first time, instead of ~100).
        indirect case problem(path: String, Finding)

        /// The path as shown in output.
        package var path: String {
            switch self {
            case .file(let path, _), .argument(let path, _), .problem(let path, _): return path
            }
        }
    }

    /// Folder nesting followed at most (a guard against pathological trees).
    static let maximumDepth = 64

    /// The items for `arguments`, in order: arguments ending in `/` are expanded now, the
    /// others are left as ``Item/argument(path:location:)``.
    /// - Parameter base: the absolute folder relative arguments are resolved against, or
    ///   `nil` to open them as given (from the process's working directory). Paths are shown
    ///   as given either way.
    ///   - claims: whether a file found in a folder (its location) is one a contract claims;
    ///     the others are skipped (and passed to `skipped`). Files named as arguments are
    ///     always checked.
    ///   - skipped: receives each skipped file's path, in order.
    package static func collect(_ arguments: [String], relativeTo base: String?,
                                claims: (String) -> Bool = { _ in true },
                                skipped: (String) -> Void = { _ in }) -> [Item] {
        var items: [Item] = []
        items.reserveCapacity(arguments.count)
        for argument in arguments {
            let location = startsWithSlash(argument) ? argument : base.map { $0 + "/" + argument } ?? argument
            let last = lastByte(argument)
            if last == UInt8(ascii: "/"), argument.hasSuffix("/") {
                items += expand(argument, location: location, claims: claims, skipped: skipped)
            } else if !isSidecar(argument) {
                items.append(.argument(path: argument, location: location))
            }
        }
        return items
    }

    /// True for files `validate` never checks: fixture sidecars.
    package static func isSidecar(_ name: String) -> Bool {
        // The last byte first: 10,000 paths cost a byte test each, not a string comparison.
        lastByte(name) == UInt8(ascii: "t") && name.hasSuffix(".expect")
    }

    /// `path.hasPrefix("/")`, told by the first byte when it is not `/` (only a string whose
    /// first byte is `/` can begin with it; the comparison still decides the rest).
    static func startsWithSlash(_ path: String) -> Bool {
        path.utf8.first == UInt8(ascii: "/") && path.hasPrefix("/")
    }

    /// The last UTF-8 byte of `text`, read from its contiguous storage (`utf8.last` walks
    /// the index API: ~80 instructions a call, twice for each of 10,000 arguments).
    static func lastByte(_ text: String) -> UInt8? {
        text.utf8.withContiguousStorageIfAvailable { $0.last } ?? text.utf8.last
    }

    /// The files in the folder `argument` (recursively, byte order) that `claims` accepts, or
    /// the problem with it: a folder with no such file is an error (a CI step pointed at the
    /// wrong folder must not pass).
    package static func expand(_ argument: String, location: String,
                               claims: (String) -> Bool = { _ in true },
                               skipped: (String) -> Void = { _ in }) -> [Item] {
        let (kind, identity) = FileReader.kind(of: location)
        switch kind {
        case .regularFile:
            return isSidecar(argument) ? [] : [.file(path: argument, location: location)]
        case .folder:
            var items: [Item] = []
            var visited: Set<[UInt64]> = [identity]
            var root = argument
            while root.count > 1 && root.hasSuffix("/") { root.removeLast() }
            var rootLocation = location
            while rootLocation.count > 1 && rootLocation.hasSuffix("/") { rootLocation.removeLast() }
            walk(root, location: rootLocation, depth: 0, visited: &visited, items: &items)
            var kept: [Item] = []
            var skippedCount = 0
            for item in items {
                if case .file(let path, let location) = item, !claims(location) {
                    skippedCount += 1
                    skipped(path)
                } else {
                    kept.append(item)
                }
            }
            if kept.isEmpty {
                return [.problem(path: argument, .emptyFolder(skipped: skippedCount))]
            }
            return kept
        case .other(let description):
            return [.problem(path: argument, .notRegular(description))]
        case .missing(let detail, let notFound):
            return [.problem(path: argument, notFound ? .notFound(detail) : .unreadable(detail))]
        }
    }

    private static func walk(_ folder: String, location folderLocation: String, depth: Int, visited: inout Set<[UInt64]>, items: inout [Item]) {
        guard depth < maximumDepth else {
            items.append(.problem(path: folder, Finding(message: "folders nested deeper than \(maximumDepth) levels; not searched further", ruleID: "file.too-deep")))
            return
        }
        guard let directory = opendir(folderLocation) else {
            items.append(.problem(path: folder, .unreadable(FileReader.describe(errno))))
            return
        }
        // Classify first, then sort with a folder's name followed by "/": the walk then
        // yields paths in plain byte order (`a.json` before `a/z.json`) without a final sort.
        var entries: [(key: [UInt8], name: String, kind: FileReader.Kind, identity: [UInt64])] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            let name = String(decoding: bytes, as: UTF8.self)
            guard name.utf8.elementsEqual(bytes) else {
                // Decoding replaced bytes: no path built from this String would open the file.
                if !name.hasPrefix(".") { items.append(.problem(path: join(folder, name), .nameNotUTF8(bytes))) }
                continue
            }
            if name.hasPrefix(".") || isSidecar(name) { continue }
            if Int32(entry.pointee.d_type) == Int32(DT_REG) {
                entries.append((Array(name.utf8), name, .regularFile, []))
            } else {
                // Links and file systems without d_type: ask stat (it follows links).
                let (kind, identity) = FileReader.kind(of: join(folderLocation, name))
                let key = Array(name.utf8) + (kind == .folder ? [UInt8(ascii: "/")] : [])
                entries.append((key, name, kind, identity))
            }
        }
        closedir(directory)
        entries.sort { $0.key.lexicographicallyPrecedes($1.key) }
        for entry in entries {
            let path = join(folder, entry.name)
            let location = join(folderLocation, entry.name)
            switch entry.kind {
            case .regularFile:
                items.append(.file(path: path, location: location))
            case .folder:
                if visited.insert(entry.identity).inserted {
                    walk(path, location: location, depth: depth + 1, visited: &visited, items: &items)
                }
            case .other(let description):
                items.append(.problem(path: path, .notRegular(description)))
            case .missing(let detail, let notFound):
                // readdir listed it, so a "not found" here is a link to nowhere.
                items.append(.problem(path: path, notFound ? .brokenLink() : .unreadable(detail)))
            }
        }
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
