/// Stands in for the HTTP/2 codec until it is plugged in (see ``AnyConnectionCodec``):
/// answers the client preface with an empty SETTINGS frame and
/// `GOAWAY(last stream 0, HTTP_1_1_REQUIRED)`, then closes.
package struct HTTP2PrefaceRefusal: ConnectionCodec {
    private var done = false

    package init() {}

    package var activity: ConnectionActivity { .idle }

    package mutating func start(into actions: inout [ConnectionAction]) {
        guard !done else { return }
        done = true
        // SETTINGS: length 0, type 4, flags 0, stream 0.
        let settings: [UInt8] = [0, 0, 0, 4, 0, 0, 0, 0, 0]
        // GOAWAY: length 8, type 7, flags 0, stream 0; last-stream-id 0, error 0xd.
        let goAway: [UInt8] = [0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0d]
        actions.append(.write(settings + goAway))
        actions.append(.close)
    }

    package mutating func receive(_ bytes: UnsafeRawBufferPointer, into actions: inout [ConnectionAction]) {}
    package mutating func respond(_ response: HTTPResponse, stream: UInt32, into actions: inout [ConnectionAction]) {}
    package mutating func abandon(stream: UInt32, disposition: ResponseDisposition, into actions: inout [ConnectionAction]) {}
    package mutating func peerClosed(into actions: inout [ConnectionAction]) { actions.append(.close) }
    package mutating func shutdown(into actions: inout [ConnectionAction]) { actions.append(.close) }
}
