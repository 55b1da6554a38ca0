/// Answers written at the end of a turn: the requests of every connection that was ready are
/// read and handled first, then the answers go out one after the other.
///
/// Writing each answer as soon as its request is handled interleaves the client's wake-ups
/// with the server's work: the client wakes for one answer, handles it and sleeps again
/// before the next is written, and each wake-up of a sleeping peer is paid in the sender's
/// `send(2)` (on a virtual machine, an interrupt to the other core). Written together, the
/// answers of a turn reach a client that is still awake from the first.
extension ServerLoop {
    /// A connection by descriptor and id (plain values: neither kept alive nor released
    /// where kept): one waiting for the end of the turn, or one with bytes left to read.
    struct ConnectionMark {
        var fd: Int32
        var id: UInt64
    }

    /// Flushes `connection` at the end of this turn's events, or now outside them. Called
    /// once per read, and a connection is read once per turn: it is collected once.
    func flushAtTurnEndOrNow(_ connection: ServerConnection) {
        guard collectingFlushes else {
            flushAndSettle(connection)
            return
        }
        let entry = ConnectionMark(fd: connection.fd, id: connection.id)
        // The list keeps its length from turn to turn; `collectedCount` says how much is this turn's.
        if collectedCount < collectedFlushes.count {
            collectedFlushes[collectedCount] = entry
        } else {
            collectedFlushes.append(entry)
        }
        collectedCount += 1
    }

    /// Ends the turn's collection: flushes each collected connection still open, in the
    /// order its request was handled.
    func flushCollected() {
        collectingFlushes = false
        var index = 0
        while index < collectedCount {
            let entry = collectedFlushes[index]
            index += 1
            guard let connection = connections[entry.fd], connection.id == entry.id else { continue }
            flushAndSettle(connection)
        }
        collectedCount = 0
    }
}
