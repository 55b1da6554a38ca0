@testable import FakeSupport
import Testing
@testable import LoopbackHTTP

/// A request target over `maxRequestTargetBytes` (8 KiB, nginx's default) is refused with
/// 414 before any handler runs, on both protocols, however the bytes arrive.
@Suite struct RequestTargetLimitTests {
    static let limit = HTTPServerConfiguration().maxRequestTargetBytes

    static func path(_ length: Int) -> String { "/" + String(repeating: "p", count: length - 1) }

    @Test func theDefaultIsEightKibibytesAsNginx() {
        #expect(Self.limit == 8 * 1024)
        #expect(HTTP2Connection(configuration: HTTPServerConfiguration()).maxRequestTargetBytes == 8 * 1024)
    }

    @Test(arguments: [1, 100, 100_000])
    func http1TargetOverTheLimitIs414HoweverItArrives(_ pieceSize: Int) {
        var driver = CodecDriver()
        let head = Array("GET \(Self.path(Self.limit + 1)) HTTP/1.1\r\nHost: h\r\n\r\n".utf8)
        let actions = driver.receive(head, inPiecesOf: pieceSize)
        #expect(actions == [errorWire("414 URI Too Long", "request target exceeds \(Self.limit) bytes"), .close])
    }

    @Test func http1TargetAtTheLimitIsDispatched() {
        var driver = CodecDriver()
        let actions = driver.receive("GET \(Self.path(Self.limit)) HTTP/1.1\r\nHost: h\r\n\r\n")
        guard case .dispatch(let request, _)? = actions.first else {
            Issue.record("not dispatched: \(actions.count) actions")
            return
        }
        #expect(request.path.utf8.count == Self.limit)
    }

    @Test func http2PathOverTheLimitIs414WithoutDispatch() {
        // A header list over `maxHeaderBytes` (8 KiB too) is 431 first: room for the path alone.
        var configuration = HTTPServerConfiguration()
        configuration.maxHeaderBytes = 16 * 1024
        var peer = HTTP2TestPeer(configuration: configuration)
        let long = peer.send([peer.headers(1, HTTP2TestPeer.requestFields(method: "GET", path: Self.path(Self.limit + 1)), endStream: true)])
        #expect(long.dispatches.isEmpty)
        #expect(peer.responseFields(long, stream: 1)[":status"] == "414")
        #expect(long.ended(1) && long.resets().isEmpty && long.goAway == nil)
        // Still sending a body: the answer, then RST_STREAM NO_ERROR.
        let sending = peer.send([peer.headers(3, HTTP2TestPeer.requestFields(path: Self.path(Self.limit + 1)), endStream: false)])
        #expect(sending.dispatches.isEmpty && sending.resets() == [3: .noError])
        let atLimit = peer.send([peer.headers(5, HTTP2TestPeer.requestFields(method: "GET", path: Self.path(Self.limit)), endStream: true)])
        #expect(atLimit.dispatches.map { $0.0.path.utf8.count } == [Self.limit])
    }

    @Test func problemDetailsQuoteAShortMarkedPrefix() {
        #expect(ProblemResponse.quoted("/short") == "/short")
        let long = Self.path(15_000)
        let quoted = ProblemResponse.quoted(long)
        #expect(quoted == String(long.prefix(64)) + "…")
        #expect(ProblemResponse.quoted(String(repeating: "é", count: 64)) == String(repeating: "é", count: 64))
    }

    @Test func theAdminNotFoundProblemQuotesAShortPrefix() {
        let api = AdminAPI(routes: [])
        let response = api.handle(HTTPRequest(method: "GET", path: Self.path(5000), authority: nil, headers: HTTPFields(),
                                              body: [], version: .http1_1, connectionID: 1))
        #expect(response.status.code == 404)
        #expect(response.body.count < 400, "\(response.body.count) bytes")
        #expect(String(decoding: response.body, as: UTF8.self).contains(String(Self.path(64)) + "…"))
    }
}
