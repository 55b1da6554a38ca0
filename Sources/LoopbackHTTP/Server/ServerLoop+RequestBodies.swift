/// The process-wide bound on buffered request bodies (``RequestBodyBudget``) as the loop
/// applies it. HTTP/2 reserves per DATA frame inside ``HTTP2Connection`` (a refused stream
/// gets REFUSED_STREAM); HTTP/1.1 bodies are charged here after each read, and one that does
/// not fit is answered 503 and the connection closed, its partial body dropped.
extension ServerLoop {
    /// Charges (or gives back) what an HTTP/1.1 connection's codec buffered since the last
    /// call; false when the budget refused it (the caller answers 503 and closes).
    /// Only on a plain port: HTTP/1.1 behind TLS is not charged (see ``read(_:)``).
    func chargeBufferedBody(_ connection: ServerConnection) -> Bool {
        guard case .http1 = connection.codec else { return true }
        let buffered = connection.codec.bufferedBodyBytes
        let delta = buffered - connection.chargedBodyBytes
        if delta <= 0 {
            configuration.requestBodyBudget.release(-delta)
        } else if !configuration.requestBodyBudget.reserve(delta) {
            return false
        }
        connection.chargedBodyBytes = buffered
        return true
    }

    /// The body did not fit in the budget: 503 with `connection: close`, and the codec shut
    /// down so its partial body is dropped at once.
    func refuseBody(on connection: ServerConnection, into actions: inout [ConnectionAction]) {
        var headers = HTTPFields()
        headers.append(name: "retry-after", value: "1")
        let response = HTTPResponse(status: .serviceUnavailable, headers: headers,
                                    body: Array("the server holds as much request body as it may; retry\n".utf8))
        actions.append(.write(HTTP1ResponseWriter.serialize(response, headRequest: false, minorVersion: 1, closing: true)))
        connection.codec.shutdown(into: &actions)
        configuration.requestBodyBudget.release(connection.chargedBodyBytes)
        connection.chargedBodyBytes = 0
    }

    /// The connection is gone: whatever body it still buffered goes back to the budget.
    func releaseBufferedBodies(of connection: ServerConnection) {
        configuration.requestBodyBudget.release(connection.chargedBodyBytes)
        connection.chargedBodyBytes = 0
        connection.codec.releaseBufferedBodies()
    }
}
