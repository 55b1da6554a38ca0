import Foundation

/// The package root, found from this file's path, so tests read the shipped fixtures and docs.
package let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// What an OpenAPI document of the package (JSON, at `relativePath` under the package root)
/// declares: its `openapi` version and every operation as `METHOD /path`.
package struct OpenAPIOperations {
    /// The document is not a JSON object with a `paths` object.
    package struct Unreadable: Error {}

    /// The `openapi` member.
    package var version: String?
    /// Every operation, `"GET /journal"` and so on.
    package var operations: Set<String>

    /// Reads the document at `relativePath`.
    package init(_ relativePath: String) throws {
        let url = URL(fileURLWithPath: packageRoot).appendingPathComponent(relativePath)
        guard let document = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any],
              let paths = document["paths"] as? [String: [String: Any]] else { throw Unreadable() }
        version = document["openapi"] as? String
        operations = Set(paths.flatMap { path, methods in methods.keys.map { "\($0.uppercased()) \(path)" } })
    }
}
