// Start-to-ready time of FakeBackend.start(): how long a test waits for a fresh backend.
// Prints the median and percentiles over N starts (default 200); asserts nothing.
// Run: swift run -c release --package-path Benchmarks backend-start-benchmark [N]
import LoopbackHTTP
import Foundation
import FakeBackend
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Connects to 127.0.0.1:port once and closes; true when the connection was accepted.
func connects(to port: UInt16) -> Bool {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

let runs = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
let clock = ContinuousClock()
var startTimes: [Double] = []
var connectTimes: [Double] = []
for _ in 0..<runs {
    let begin = clock.now
    let backend = try await FakeBackend.start(configuration: .init(sessions: ["s1": "a1"]))
    let started = clock.now
    let accepted = connects(to: backend.port)
    let connected = clock.now
    await backend.stop()
    guard accepted else {
        print("error: a started backend refused a connection")
        exit(1)
    }
    startTimes.append(milliseconds(started - begin))
    connectTimes.append(milliseconds(connected - begin))
}

func report(_ name: String, _ values: [Double]) {
    let sorted = values.sorted()
    func at(_ q: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * q))] }
    print(String(format: "%@: median %.3f ms, p90 %.3f ms, min %.3f ms, max %.3f ms (%d runs)",
                 name, at(0.5), at(0.9), sorted.first ?? 0, sorted.last ?? 0, sorted.count))
}
report("FakeBackend.start() returns", startTimes)
report("start() + first connection accepted", connectTimes)

// The handler alone, without sockets: what validating and journaling one PUT costs.
let key = Data([4] + (1...64).map { UInt8($0) }).base64EncodedString()
var body = #"{"platform":"ios","environment":"production","appVersion":"4.2.0","publicKey":"\#(key)"}"#
body.insert(contentsOf: String(repeating: " ", count: max(0, 200 - body.utf8.count)), at: body.index(before: body.endIndex))
let request = HTTPRequest(method: "PUT", path: "/v1/devices/00fa11ceabababababababababababababababababababababababababababab",
                          headers: ["Content-Type": "application/json", "Authorization": "Bearer s1"], body: Array(body.utf8))
let handlerBackend = FakeBackend(configuration: .init(sessions: ["s1": "a1"]))
let iterations = 100_000
let handlerRounds = 5
/// Handles `count` copies of the request; false when one was not accepted.
func handleRequests(_ count: Int) -> Bool {
    for _ in 0..<count where handlerBackend.handle(request).status.code != 204 { return false }
    return true
}
// A warm-up round first (the journal's ring fills, the device is stored), then timed rounds:
// one 0.2 s round on a 2-core machine is at the mercy of whatever else runs, so the median counts.
var microseconds: [Double] = []
for round in 0...handlerRounds {
    let begin = clock.now
    guard handleRequests(iterations) else {
        print("error: the benchmark request was not accepted")
        exit(1)
    }
    if round > 0 { microseconds.append(milliseconds(clock.now - begin) * 1000 / Double(iterations)) }
}
microseconds.sort()
let medianMicroseconds = microseconds[microseconds.count / 2]
print(String(format: "handler alone (PUT, %d-byte body): median %.2f µs each, %.0f requests/s (%d rounds of %d after a warm-up; fastest %.2f, slowest %.2f µs)",
             request.body.count, medianMicroseconds, 1e6 / medianMicroseconds, handlerRounds, iterations,
             microseconds.first ?? 0, microseconds.last ?? 0))
