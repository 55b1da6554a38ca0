import Foundation

/// The package root, found from this file's path, so tests read the shipped fixtures and docs.
package let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()
