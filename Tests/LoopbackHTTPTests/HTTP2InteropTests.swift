import Foundation
import Testing
import PushTestSupport

/// Real HTTP/2 clients against the in-process server: each sends 100 concurrent POSTs with
/// bodies on one connection and every response is checked. A peer that is not installed
/// skips its test (run `scripts/install-peers.sh`; `scripts/interop-h2.sh` runs this suite).
@Suite(.serialized) struct HTTP2InteropTests {
    static let count = 100

    static func expectedLines(_ count: Int) -> Set<String> {
        Set((1...count).map { "/echo/\($0):payload-\($0)" })
    }

    static func checkOneConnection(_ server: ExternalPeer.EchoServer) {
        let connections = server.connections.snapshot
        #expect(connections.count == 1, "requests arrived on \(connections.count) connections: \(connections)")
        #expect(connections.values.reduce(0, +) == count)
    }

    @Test(.enabled(if: ExternalPeer.find("curl") != nil, "curl is not installed: run scripts/install-peers.sh"))
    func curlPriorKnowledgeParallel() throws {
        let server = try ExternalPeer.EchoServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var config = ""
        for index in 1...Self.count {
            if index > 1 { config += "next\n" }
            config += "url = \"\(server.url)/echo/\(index)\"\ndata = \"payload-\(index)\"\noutput = \"\(directory.path)/\(index)\"\n"
        }
        let configURL = directory.appendingPathComponent("requests.cfg")
        try config.write(to: configURL, atomically: true, encoding: .utf8)
        let result = try ExternalPeer.run(ExternalPeer.find("curl") ?? "curl",
                                          ["--silent", "--show-error", "--fail", "--http2-prior-knowledge", "--parallel",
                                           "--parallel-max", "100", "-K", configURL.path], timeout: 60)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        var lines = Set<String>()
        for index in 1...Self.count {
            let text = (try? String(contentsOf: directory.appendingPathComponent("\(index)"), encoding: .utf8)) ?? ""
            lines.insert(text.trimmingCharacters(in: .newlines))
        }
        #expect(lines == Self.expectedLines(Self.count))
        Self.checkOneConnection(server)
    }

    @Test(.enabled(if: ExternalPeer.find("nghttp") != nil, "nghttp is not installed: run scripts/install-peers.sh"))
    func nghttpMultipleURIs() throws {
        let server = try ExternalPeer.EchoServer()
        defer { server.stop() }
        let dataURL = FileManager.default.temporaryDirectory.appendingPathComponent("nghttp-\(UUID().uuidString)")
        try Data("payload".utf8).write(to: dataURL)
        defer { try? FileManager.default.removeItem(at: dataURL) }
        let uris = (1...Self.count).map { "\(server.url)/echo/\($0)" }
        let result = try ExternalPeer.run(ExternalPeer.find("nghttp") ?? "nghttp", ["--no-dep", "-d", dataURL.path] + uris, timeout: 60)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        let lines = Set(result.output.split(separator: "\n").map(String.init))
        #expect(lines == Set((1...Self.count).map { "/echo/\($0):payload" }))
        Self.checkOneConnection(server)
    }

    static let httpxScript = """
    import asyncio, sys, httpx
    async def main(base, count):
        async with httpx.AsyncClient(http1=False, http2=True, base_url=base, timeout=30) as client:
            async def one(i):
                r = await client.post(f"/echo/{i}", content=f"payload-{i}".encode())
                assert r.http_version == "HTTP/2", r.http_version
                assert r.status_code == 200, r.status_code
                assert r.text == f"/echo/{i}:payload-{i}\\n", r.text
                return i
            done = await asyncio.gather(*(one(i) for i in range(1, count + 1)))
            print("ok", len(done))
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """

    @Test(.enabled(if: ExternalPeer.pythonHas("httpx") && ExternalPeer.pythonHas("h2"), "python httpx[http2] is not installed: run scripts/install-peers.sh"))
    func pythonHttpxAsyncHTTP2() throws {
        let server = try ExternalPeer.EchoServer()
        defer { server.stop() }
        let result = try ExternalPeer.run(ExternalPeer.find("python3") ?? "python3", ["-c", Self.httpxScript, server.url, "\(Self.count)"], timeout: 60)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        #expect(result.output.contains("ok \(Self.count)"), "\(result.output)")
        Self.checkOneConnection(server)
    }

    static let nodeScript = """
    const http2 = require('http2');
    const [base, count] = [process.argv[1], Number(process.argv[2])];
    const session = http2.connect(base);
    session.on('error', (e) => { console.error('session error', e); process.exit(1); });
    const one = (i) => new Promise((resolve, reject) => {
      const req = session.request({ ':method': 'POST', ':path': `/echo/${i}`, 'content-type': 'text/plain' });
      let status = 0, body = '';
      req.setEncoding('utf8');
      req.on('response', (h) => { status = h[':status']; });
      req.on('data', (d) => { body += d; });
      req.on('end', () => (status === 200 && body === `/echo/${i}:payload-${i}\\n`) ? resolve(i) : reject(new Error(`${i}: ${status} ${body}`)));
      req.on('error', reject);
      req.end(`payload-${i}`);
    });
    Promise.all(Array.from({ length: count }, (_, k) => one(k + 1)))
      .then((done) => { console.log('ok', done.length); session.close(); })
      .catch((e) => { console.error(e.message); process.exit(1); });
    """

    @Test(.enabled(if: ExternalPeer.find("node") != nil, "node is not installed"))
    func nodeHTTP2Session() throws {
        let server = try ExternalPeer.EchoServer()
        defer { server.stop() }
        let result = try ExternalPeer.run(ExternalPeer.find("node") ?? "node", ["-e", Self.nodeScript, server.url, "\(Self.count)"], timeout: 60)
        #expect(result.status == 0 && !result.timedOut, "\(result.output)")
        #expect(result.output.contains("ok \(Self.count)"), "\(result.output)")
        Self.checkOneConnection(server)
    }
}
