import CLoopbackShim

/// Returning memory after an attack. glibc keeps freed heap pages, so without this a
/// process that once held many stalled responses or bodies stays at that RSS (651 MB
/// stayed resident after 200 stalled connections closed). After a turn that dropped
/// at least 16 MiB of buffers the loop asks for them back (`malloc_trim(0)` on glibc,
/// nothing elsewhere: Darwin's allocator returns large blocks itself).
extension ServerLoop {
    static let trimThreshold = 16 * 1024 * 1024

    /// Counts buffer bytes just dropped (a connection destroyed, stalled streams reset).
    func noteReleased(_ bytes: Int) {
        if bytes > 0 { releasedSinceTrim += bytes }
    }

    /// At the end of a turn: gives freed memory back once enough was dropped.
    func releaseFreedMemory() {
        guard releasedSinceTrim >= Self.trimThreshold else { return }
        releasedSinceTrim = 0
        cls_release_free_memory()
    }

    /// Response bytes a connection holds: unwritten output, plus (HTTP/2) DATA queued behind
    /// flow control. Past `maxPendingOutputBytes` no further handler runs on the connection
    /// until they drain, so a client that never opens its windows cannot make the server
    /// build more answers (20 `GET /journal` on zero-window streams would hold 423 MB).
    func heldOutputBytes(_ connection: ServerConnection) -> Int {
        connection.pendingOutput + connection.codec.queuedResponseBytes
    }

    /// HTTP/2 defers only requests when its held output is too large: frames (HEADERS,
    /// WINDOW_UPDATE, PING and SETTINGS acknowledgements, RST_STREAM) keep their order and go
    /// out at once, so the peer can open the windows that drain it. HTTP/1.1 defers everything
    /// behind the first waiting request (responses go in request order).
    func defersOnlyRequests(_ connection: ServerConnection) -> Bool {
        if case .http2 = connection.codec { return true }
        return false
    }

    /// HTTP/2 keeps reading while its requests wait: the WINDOW_UPDATEs that drain the held
    /// output arrive there. (HTTP/1.1 stops reading: its waiting requests are pipelined bytes.)
    func readsWhileDeferred(_ connection: ServerConnection) -> Bool {
        if case .http2 = connection.codec { return connection.pendingOutput <= configuration.maxPendingOutputBytes }
        return false
    }
}
