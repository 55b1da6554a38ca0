import Foundation
import Testing
import FakeAPNs
import FakeBackend

/// The body limits the docs state are the configuration defaults, read from the code (the
/// fake pages once said 1 MiB while serve answered 413 over 65,536 and 8,192 bytes).
@Suite struct DocsLimitsTests {
    static let backendLimit = FakeBackend.Configuration().maxBodyBytes
    static let apnsLimit = FakeAPNs.Configuration().maxBodyBytes

    /// The byte count written after each mention of `name` in `text` ("`NAME` (default
    /// 65,536 bytes", "`NAME`, 8,192 bytes"), or nil for a mention without one close by.
    static func statedBytes(after name: String, in text: String) -> [Int?] {
        text.components(separatedBy: "`\(name)`").dropFirst().map { rest in
            let window = String(rest.prefix(40))
            guard let range = window.range(of: #"[0-9][0-9,]* bytes"#, options: .regularExpression) else { return nil }
            return Int(window[range].dropLast(" bytes".count).replacingOccurrences(of: ",", with: ""))
        }
    }

    @Test(arguments: [
        ("Docs/readme/fake-backend.md", "FakeBackend.Configuration.maxBodyBytes", backendLimit),
        ("Docs/readme/fake-apns.md", "FakeAPNs.Configuration.maxBodyBytes", apnsLimit),
        ("Docs/readme/hardening.md", "FakeBackend.Configuration.maxBodyBytes", backendLimit),
        ("Docs/readme/hardening.md", "FakeAPNs.Configuration.maxBodyBytes", apnsLimit),
    ])
    func theDocsStateTheConfiguredBodyLimit(file: String, name: String, limit: Int) throws {
        let stated = Self.statedBytes(after: name, in: try DocsTests.text(file))
        #expect(!stated.isEmpty, "\(file) does not mention \(name)")
        #expect(stated.allSatisfy { $0 == limit }, "\(file): \(name) stated as \(stated), configured \(limit)")
    }

    /// A fake's page names its own limit, never the bare server option (whose default, 1 MiB,
    /// is not what the fake uses).
    @Test(arguments: ["Docs/readme/fake-backend.md", "Docs/readme/fake-apns.md"])
    func theFakePagesNameTheirOwnLimit(file: String) throws {
        #expect(!(try DocsTests.text(file)).contains("`maxBodyBytes`"), "\(file)")
    }

    @Test func theExtractorReadsCommaGroupedCounts() {
        #expect(Self.statedBytes(after: "X", in: "over `X` (default 65,536 bytes) and `X`, 8192 bytes; `X` alone") == [65_536, 8192, nil])
    }
}
