/// The loop's one write path: the connection's output buffer to its socket.
extension ServerLoop {
    /// Writes what the socket takes; false when the write failed and the connection is gone.
    @inline(__always)
    func writeOutput(_ connection: ServerConnection) -> Bool {
        connection.sealHeldOutput()
        while connection.pendingOutput > 0 {
            let written: Int
            do {
                written = try connection.output.withUnsafeBytes { (bytes) throws(SystemError) -> Int in
                    try Sockets.write(connection.fd, UnsafeRawBufferPointer(rebasing: bytes[connection.outputStart...]))
                }
            } catch {
                destroy(connection)
                return false
            }
            if written == 0 { break }
            connection.movedBytes = true
            connection.lastTrafficTurn = turn
            connection.lastWriteProgress = clock
            connection.outputStart += written
        }
        return true
    }
}
