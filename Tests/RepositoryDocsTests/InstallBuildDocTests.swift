import Testing

/// README's "Set up" installs, on Linux, the build whose idle footprint `Benchmarks/idle.sh`
/// measures by default and `Docs/readme/hardening.md` reports (issue 27: idle `serve` under
/// 16 MiB RSS holds for that build, not for one with the shared Swift libraries), so the three
/// name the same options.
@Suite struct InstallBuildDocTests {
    static let options = "--static-swift-stdlib -Xlinker -no-pie"

    @Test func theReadmeInstallsTheBuildThatIdleShMeasures() throws {
        let readme = try DocsTests.text("README.md")
        #expect(readme.contains("swift build -c release \(Self.options)   # Linux"))
        let script = try DocsTests.text("Benchmarks/idle.sh")
        #expect(script.contains("STATIC=(-c release \(Self.options) --scratch-path .build/static)"))
        #expect(script.contains("IDLE_BUILD=\"${IDLE_BUILD:-static}\""))
        let hardening = try DocsTests.text("Docs/readme/hardening.md")
        #expect(hardening.contains("`swift build -c release \(Self.options)`"))
    }
}
