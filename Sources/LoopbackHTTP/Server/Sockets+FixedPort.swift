import Foundation

extension Sockets {
    /// The lowest port the system hands out by itself (a client's `connect`, a `bind` to port
    /// 0): Linux's `net.ipv4.ip_local_port_range`, else IANA's 49152 (Darwin's default).
    package static var ephemeralPortFloor: UInt16 {
        // Linux's file; elsewhere it is absent and IANA's floor applies.
        if let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
           let first = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).first, let floor = UInt16(first) {
            return floor
        }
        return 49_152
    }

    /// A port on 127.0.0.1 that is free now and below ``ephemeralPortFloor``: one the system
    /// never hands to another socket by itself. For a listener that is closed and must take
    /// its port again (going offline and back online): an ephemeral port, freed for a moment,
    /// can be given to any socket on the machine meanwhile, another test's client included
    /// (issue 39: two tests flaked so on a busy machine). Nil when none of the ports tried is
    /// free.
    package static func portOutsideEphemeralRange() -> UInt16? {
        let floor = Int(ephemeralPortFloor)
        guard floor > 10_001 else { return nil }
        let start = Int.random(in: 10_000..<floor)
        for offset in 0..<200 {
            let port = UInt16(10_000 + (start - 10_000 + offset) % (floor - 10_000))
            if let bound = try? listen(host: "127.0.0.1", port: port, backlog: 1, portable: true) {
                closeDescriptor(bound.fd)
                return port
            }
        }
        return nil
    }
}
