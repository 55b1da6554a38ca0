// apns-load: an h2c (prior knowledge) load client for Benchmarks/apns.sh's second line, where
// every push carries a different payload (h2load sends one fixed body). In the benchmark
// package: `swift build -c release --package-path Benchmarks --product apns-load`.
//
//   apns-load --port PORT --token JWT [-n REQUESTS] [-c CONNECTIONS] [-m STREAMS]
//             [--payload FILE] [--timeout SECONDS] [--pause-after N] [--live-activity]
//
// Opens CONNECTIONS connections to 127.0.0.1:PORT (only loopback), keeps STREAMS pushes in
// flight on each (fewer if the server's SETTINGS_MAX_CONCURRENT_STREAMS says so), and sends
// REQUESTS `POST /3/device/abab…ab` with the headers h2-common.sh's `h2load_apns` sends
// (authorization bearer JWT, apns-topic com.example.app, apns-push-type alert,
// apns-priority 10). Each payload is a 300-byte v1 `payload` (the apns.sh payload's shape)
// whose notificationId and alert body carry the request's number, so no two are alike; with
// `--payload FILE` every request sends that file instead (to compare with h2load). Before
// the run a sample of the payloads is checked against the v1 contract. One thread, poll(2),
// like h2load's default; it stops after REQUESTS answers, a GOAWAY or closed connections, or
// TIMEOUT (default 120 s). Prints h2load-style lines (`finished in …, N req/s`, `requests: …
// succeeded`, `status codes: …`) so Benchmarks/h2-common.sh reads both alike, then every
// status seen; exits 1 when a request got no 2xx answer.
//
// With `--live-activity` (apns.sh's Live Activity line) every push is a Live Activity update
// instead: apns-topic com.example.app.push-type.liveactivity, apns-push-type liveactivity,
// apns-priority 5 (priority 10 draws on a budget of 10 an hour), a 300-byte
// `live-activity-payload` body whose `aps.timestamp` is 1,767,225,601 plus the request's
// number, each connection to its own activity's push token (connection i: the byte i+1,
// 32 times, in hex, as fake-apns-bench-server starts them), so the timestamps each activity
// sees rise and every update is applied.
//
// With `--broadcast CHANNEL` (Benchmarks/broadcast.sh) every push is that Live Activity update
// sent as a broadcast instead: `POST /4/broadcasts/apps/com.example.app` with
// `apns-channel-id: CHANNEL` (fake-apns-bench-server --broadcast prints the channel its 1,000
// activities subscribe to), apns-push-type liveactivity, apns-priority 5, no apns-topic.
//
// With `--pause-after N` (Benchmarks/callgrind.sh apns: a warm-up on the same connections,
// so the counted pushes pay no connection setup or provider token verification) it sends N
// pushes instead of REQUESTS, waits for all N answers, prints `paused after N pushes in S s`,
// reads a line from stdin holding M, then sends M more on the same connections (the run's
// total is N + M; an empty or unreadable line ends the run).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Contracts
import Foundation
import LoopbackHTTP

struct Options {
    var port: UInt16 = 0
    var token = ""
    var requests = 100_000
    var connections = 8
    var streams = 32
    var payloadFile: String?
    var timeoutSeconds = 120.0
    var pauseAfter: Int?
    var liveActivity = false
    /// `--broadcast CHANNEL`: the channel id; implies `liveActivity`'s bodies.
    var broadcastChannel: String?

    static let usage = "Usage: apns-load --port PORT --token JWT [-n REQUESTS] [-c CONNECTIONS] [-m STREAMS] [--payload FILE] [--timeout SECONDS] [--pause-after N] [--live-activity] [--broadcast CHANNEL]"

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var index = 0
        func value() -> String? {
            index += 1
            return index < arguments.count ? arguments[index] : nil
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--port": guard let v = value().flatMap(UInt16.init), v > 0 else { return nil }; options.port = v
            case "--token": guard let v = value(), !v.isEmpty else { return nil }; options.token = v
            case "-n": guard let v = value().flatMap(Int.init), v > 0 else { return nil }; options.requests = v
            case "-c": guard let v = value().flatMap(Int.init), v > 0, v <= 1000 else { return nil }; options.connections = v
            case "-m": guard let v = value().flatMap(Int.init), v > 0, v <= 1000 else { return nil }; options.streams = v
            case "--payload": guard let v = value() else { return nil }; options.payloadFile = v
            case "--timeout": guard let v = value().flatMap(Double.init), v > 0 else { return nil }; options.timeoutSeconds = v
            case "--pause-after": guard let v = value().flatMap(Int.init), v > 0 else { return nil }; options.pauseAfter = v
            case "--live-activity": options.liveActivity = true
            case "--broadcast": guard let v = value(), !v.isEmpty else { return nil }; options.broadcastChannel = v; options.liveActivity = true
            default: return nil
            }
            index += 1
        }
        return options.port == 0 || options.token.isEmpty ? nil : options
    }
}

/// The varied payloads: one 300-byte template with two 10-digit fields rewritten per request.
struct PayloadTemplate {
    private(set) var bytes: [UInt8]
    private var digitRanges: [Range<Int>] = []
    static let size = 300
    static let digits = 10

    /// The alert template; `liveActivity`: a Live Activity update whose `aps.timestamp` is the
    /// number (fill it with 10 digits and no leading zero).
    init(liveActivity: Bool = false) {
        let marker = String(repeating: "#", count: Self.digits)
        let head = liveActivity
            ? #"{"aps":{"timestamp":\#(marker),"event":"update","content-state":{"stage":"onTheWay","eta":788921100,"#
                + #""itemsPicked":12,"itemsTotal":12},"stale-date":2000000000,"relevance-score":75},"pad":""#
            : #"{"aps":{"alert":{"title":"On the way","body":"Your order is on the way (\#(marker))"},"#
                + #""category":"ORDER_UPDATE","thread-id":"order-8F3K"},"notificationId":"n\#(marker)","#
                + #""accountId":"a1","route":"orders/8F3K","orderVersion":7,"pad":""#
        let padding = String(repeating: "x", count: max(0, Self.size - head.utf8.count - 2))
        bytes = Array((head + padding + "\"}").utf8)
        var index = 0
        while index + Self.digits <= bytes.count {
            if bytes[index..<(index + Self.digits)].allSatisfy({ $0 == UInt8(ascii: "#") }) {
                digitRanges.append(index..<(index + Self.digits))
                index += Self.digits
            } else {
                index += 1
            }
        }
    }

    /// The template with `number` (zero-padded) in both fields.
    mutating func fill(_ number: Int) -> [UInt8] {
        for range in digitRanges {
            var n = number
            for position in range.reversed() {
                bytes[position] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            }
        }
        return bytes
    }
}

/// One connection's client side of HTTP/2: its buffers, HPACK state and flow control.
struct ClientConnection {
    var fd: Int32
    var frames = HTTP2FrameDecoder(maximumFrameSize: 16_384)
    var hpackIn = HPACKDecoder()
    var hpackOut = HPACKEncoder(indexing: .incrementalIndexing, huffman: true)
    var output: [UInt8] = []
    var outputSent = 0
    var nextStream: UInt32 = 1
    var inFlight = 0
    var sendWindow = 65_535
    var peerInitialWindow = 65_535
    var peerMaxStreams = Int.max
    var settingsReceived = false
    var goingAway = false
    var closed = false
    var unackedData = 0
    /// A header block being continued (CONTINUATION), with its stream and END_STREAM flag.
    var partialBlock: (stream: UInt32, block: [UInt8], endStream: Bool)?
    /// Streams sent and not yet answered (a server may reset a stream after answering it:
    /// nginx's `return` sends RST_STREAM NO_ERROR for the body it did not read).
    var open: Set<UInt32> = []
    /// Open streams that got their response head; their status.
    var statuses: [UInt32: Int] = [:]
    /// The request's header fields (the path names this connection's activity with
    /// `--live-activity`).
    var fields: [(name: String, value: String)] = []
    /// The request header block, once it no longer changes (every field indexed).
    var cachedBlock: [UInt8]?
    var previousBlock: [UInt8] = []
}

struct Tally {
    var sent = 0
    var done = 0
    var failed = 0
    var statuses: [Int: Int] = [:]
    var errors: [String] = []
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func connectLoopback(port: UInt16) -> Int32? {
    #if canImport(Glibc)
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard fd >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { close(fd); return nil }
    var one: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    return fd
}

func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

guard let options = Options.parse(Array(CommandLine.arguments.dropFirst())) else {
    printError(Options.usage)
    exit(64)
}


var fixedPayload: [UInt8]?
if let path = options.payloadFile {
    guard let file = fopen(path, "rb") else { printError("Error: cannot read \(path)"); exit(64) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
        if bytes.count > 16_384 { printError("Error: \(path) is over 16 KiB"); exit(64) }
    }
    fclose(file)
    fixedPayload = bytes
}

var template = PayloadTemplate(liveActivity: options.liveActivity)
/// The number a request's payload carries: the request's own, or its `aps.timestamp`.
@MainActor
func payloadNumber(_ request: Int) -> Int { options.liveActivity ? 1_767_225_601 + request : request }
// The payloads must keep the contract, or the run measures rejections: check a sample.
if let contract = ContractSet.v1.contract(named: options.liveActivity ? "live-activity-payload" : "payload") {
    let samples = fixedPayload.map { [$0] } ?? [0, 1, 9, 12_345, options.requests - 1].map { template.fill(payloadNumber($0)) }
    for sample in samples {
        let violations = contract.validate(bytes: sample)
        guard violations.isEmpty else {
            printError("Error: a payload breaks the v1 \(contract.name) contract: \(violations.map(\.description).joined(separator: "; "))")
            exit(1)
        }
    }
}

let deviceToken = String(repeating: "ab", count: 32)
/// The request's header fields on connection `index`.
@MainActor
func requestFields(connection index: Int) -> [(name: String, value: String)] {
    // Connection i pushes to activity i+1's token (fake-apns-bench-server starts 64).
    let byte = String(index % 64 + 1, radix: 16)
    let token = options.liveActivity ? String(repeating: (byte.count == 1 ? "0" : "") + byte, count: 32) : deviceToken
    if let channel = options.broadcastChannel {
        return [
            (":method", "POST"), (":scheme", "http"), (":authority", "127.0.0.1:\(options.port)"),
            (":path", "/4/broadcasts/apps/com.example.app"), ("authorization", "bearer \(options.token)"),
            ("apns-channel-id", channel), ("apns-push-type", "liveactivity"), ("apns-priority", "5"),
            ("content-length", String(PayloadTemplate.size)), ("user-agent", "apns-load"),
        ]
    }
    return [
        (":method", "POST"), (":scheme", "http"), (":authority", "127.0.0.1:\(options.port)"),
        (":path", "/3/device/\(token)"),
        ("authorization", "bearer \(options.token)"),
        ("apns-topic", options.liveActivity ? "com.example.app.push-type.liveactivity" : "com.example.app"),
        ("apns-push-type", options.liveActivity ? "liveactivity" : "alert"), ("apns-priority", options.liveActivity ? "5" : "10"),
        ("content-length", String(fixedPayload?.count ?? PayloadTemplate.size)), ("user-agent", "apns-load"),
    ]
}

var connections: [ClientConnection] = []
for index in 0..<options.connections {
    guard let fd = connectLoopback(port: options.port) else {
        printError("Error: cannot connect to 127.0.0.1:\(options.port)")
        exit(1)
    }
    var connection = ClientConnection(fd: fd)
    connection.fields = requestFields(connection: index)
    connection.output = HTTP2Frame.clientPreface
    // Our receive windows: large, so only the connection window needs topping up.
    HTTP2Frame(stream: 0, payload: .settings(ack: false, [
        .init(HTTP2Frame.Setting.enablePush, 0), .init(HTTP2Frame.Setting.initialWindowSize, 1 << 30),
    ])).encode(into: &connection.output)
    HTTP2Frame(stream: 0, payload: .windowUpdate(increment: (1 << 30) - 65_535)).encode(into: &connection.output)
    connections.append(connection)
}

var tally = Tally()
/// The pushes to send in all: REQUESTS, or N + M with --pause-after.
var requestTarget = options.pauseAfter ?? options.requests

/// Queues new pushes on `c` while it has room (streams, windows, requests left).
@MainActor
func fill(_ c: inout ClientConnection) {
    guard c.settingsReceived, !c.goingAway, !c.closed else { return }
    let limit = min(options.streams, c.peerMaxStreams)
    while c.inFlight < limit && tally.sent < requestTarget {
        let body = fixedPayload ?? template.fill(payloadNumber(tally.sent))
        guard body.count <= c.sendWindow, body.count <= c.peerInitialWindow else { return }
        guard c.nextStream < 0x7fff_ffff else { c.goingAway = true; return }
        let block: [UInt8]
        if let cached = c.cachedBlock {
            block = cached
        } else {
            var encoded: [UInt8] = []
            c.hpackOut.encode(c.fields, into: &encoded)
            if encoded == c.previousBlock { c.cachedBlock = encoded }
            c.previousBlock = encoded
            block = encoded
        }
        let stream = c.nextStream
        c.nextStream += 2
        HTTP2Frame(stream: stream, payload: .headers(block: block, endStream: false, endHeaders: true, priority: nil, padding: nil))
            .encode(into: &c.output)
        HTTP2Frame(stream: stream, payload: .data(body, endStream: true, padding: nil)).encode(into: &c.output)
        c.sendWindow -= body.count
        c.open.insert(stream)
        c.inFlight += 1
        tally.sent += 1
    }
}

@MainActor
func finish(_ c: inout ClientConnection, stream: UInt32, status known: Int? = nil) {
    guard c.open.remove(stream) != nil else { return }
    c.inFlight -= 1
    tally.done += 1
    if let status = known ?? c.statuses.removeValue(forKey: stream) {
        tally.statuses[status, default: 0] += 1
        if status / 100 != 2 { tally.failed += 1 }
    } else {
        tally.failed += 1
    }
}

@MainActor
func fail(_ c: inout ClientConnection, _ message: String) {
    if tally.errors.count < 5 { tally.errors.append(message) }
    tally.failed += c.inFlight
    tally.done += c.inFlight
    c.inFlight = 0
    c.closed = true
    close(c.fd)
}

/// Handles the frames buffered on `c`.
@MainActor
func readFrames(_ c: inout ClientConnection) {
    while !c.closed {
        let frame: HTTP2Frame
        do {
            guard let next = try c.frames.nextFrame() else { return }
            frame = next
        } catch {
            return fail(&c, "protocol error: \(error)")
        }
        switch frame.payload {
        case .settings(let ack, let settings):
            guard !ack else { continue }
            for setting in settings {
                switch setting.identifier {
                case HTTP2Frame.Setting.maxConcurrentStreams: c.peerMaxStreams = Int(setting.value)
                case HTTP2Frame.Setting.initialWindowSize: c.peerInitialWindow = Int(setting.value)
                case HTTP2Frame.Setting.headerTableSize: c.hpackOut.setMaximumTableSize(min(4096, Int(setting.value)))
                default: break
                }
            }
            c.settingsReceived = true
            HTTP2Frame(stream: 0, payload: .settings(ack: true, [])).encode(into: &c.output)
        case .ping(let ack, let opaque):
            if !ack { HTTP2Frame(stream: 0, payload: .ping(ack: true, opaque: opaque)).encode(into: &c.output) }
        case .windowUpdate(let increment):
            if frame.stream == 0 { c.sendWindow += Int(increment) }
        case .headers(let block, let endStream, let endHeaders, _, _):
            if endHeaders {
                headerBlock(&c, stream: frame.stream, block: block, endStream: endStream)
            } else {
                c.partialBlock = (frame.stream, block, endStream)
            }
        case .continuation(let block, let endHeaders):
            guard var partial = c.partialBlock, partial.stream == frame.stream else { return fail(&c, "stray CONTINUATION") }
            partial.block += block
            c.partialBlock = endHeaders ? nil : partial
            if endHeaders { headerBlock(&c, stream: partial.stream, block: partial.block, endStream: partial.endStream) }
        case .data(let data, let endStream, let padding):
            c.unackedData += data.count + (padding.map { Int($0) + 1 } ?? 0)
            if c.unackedData >= 1 << 20 {
                HTTP2Frame(stream: 0, payload: .windowUpdate(increment: UInt32(c.unackedData))).encode(into: &c.output)
                c.unackedData = 0
            }
            if endStream { finish(&c, stream: frame.stream) }
        case .rstStream(let code):
            guard c.open.contains(frame.stream) else { continue }  // after its answer: nothing lost
            if tally.errors.count < 5 { tally.errors.append("RST_STREAM \(code) on stream \(frame.stream)") }
            c.statuses[frame.stream] = nil
            finish(&c, stream: frame.stream)
        case .goAway(let lastStream, let code, let debug):
            c.goingAway = true
            if tally.errors.count < 5 {
                tally.errors.append("GOAWAY \(code) last stream \(lastStream): \(String(decoding: debug, as: UTF8.self))")
            }
            fail(&c, "closed after GOAWAY")  // a benchmark run with a GOAWAY has failed
        case .priority, .pushPromise, .unknown:
            break
        }
    }
}

@MainActor
func headerBlock(_ c: inout ClientConnection, stream: UInt32, block: [UInt8], endStream: Bool) {
    let fields: [HPACKDecoder.Field]
    do {
        fields = try c.hpackIn.decode(block)
    } catch {
        return fail(&c, "HPACK: \(error)")
    }
    let status = fields.first(where: { $0.name == ":status" }).flatMap { Int($0.value) }
    if endStream {
        finish(&c, stream: stream, status: status ?? 0)  // 0: a response without :status
    } else if let status {
        c.statuses[stream] = status
    }
}

/// Writes what `c` has queued, until the socket would block.
@MainActor
func flush(_ c: inout ClientConnection) {
    while !c.closed && c.outputSent < c.output.count {
        let n = c.output.withUnsafeBytes { write(c.fd, $0.baseAddress! + c.outputSent, $0.count - c.outputSent) }
        if n > 0 {
            c.outputSent += n
        } else if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            return
        } else {
            return fail(&c, "write failed: errno \(errno)")
        }
    }
    if c.outputSent == c.output.count {
        c.output.removeAll(keepingCapacity: true)
        c.outputSent = 0
    }
}

var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
let start = now()
var deadline = start + options.timeoutSeconds
var timedOut = false
var pollSet = connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }

while true {
    if tally.done >= requestTarget {
        guard let pause = options.pauseAfter, requestTarget == pause else { break }
        // Unbuffered (print's buffer would hold it until exit); nothing is printed before it.
        FileHandle.standardOutput.write(Data("paused after \(pause) pushes in \(String(format: "%.2f", now() - start)) s\n".utf8))
        guard let more = readLine().flatMap(Int.init), more > 0 else { break }
        requestTarget += more
        deadline = now() + options.timeoutSeconds
        continue
    }
    var open = false
    for i in connections.indices where !connections[i].closed {
        fill(&connections[i])
        flush(&connections[i])
        open = open || !connections[i].closed
        if connections[i].goingAway && connections[i].inFlight == 0 && !connections[i].closed {
            fail(&connections[i], "closed after GOAWAY")
        }
        pollSet[i].fd = connections[i].closed ? -1 : connections[i].fd
        pollSet[i].events = Int16(POLLIN) | (connections[i].outputSent < connections[i].output.count ? Int16(POLLOUT) : 0)
    }
    guard open, connections.contains(where: { !$0.closed }) else { break }
    if now() > deadline { timedOut = true; break }
    let ready = poll(&pollSet, nfds_t(pollSet.count), 1000)
    if ready < 0 && errno != EINTR { printError("Error: poll failed: errno \(errno)"); break }
    guard ready > 0 else { continue }
    for i in connections.indices where !connections[i].closed && pollSet[i].revents != 0 {
        if pollSet[i].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let n = readBuffer.withUnsafeMutableBytes { read(connections[i].fd, $0.baseAddress!, $0.count) }
            if n > 0 {
                readBuffer.withUnsafeBytes { connections[i].frames.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                readFrames(&connections[i])
            } else if n == 0 || !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                fail(&connections[i], n == 0 ? "the server closed the connection" : "read failed: errno \(errno)")
            }
        }
    }
}
let elapsed = max(now() - start, 1e-9)
for i in connections.indices where !connections[i].closed { close(connections[i].fd) }

let succeeded = tally.statuses.filter { $0.key / 100 == 2 }.values.reduce(0, +)
let statuses = tally.statuses
func classCount(_ hundreds: Int) -> Int { statuses.filter { $0.key / 100 == hundreds }.values.reduce(0, +) }
let rate = Double(tally.done) / elapsed
print("finished in \(String(format: "%.2f", elapsed))s, \(String(format: "%.2f", rate)) req/s, \(fixedPayload == nil ? "a different payload on every request" : "one fixed payload")\(options.liveActivity ? ", Live Activity updates" : "")")
print("requests: \(requestTarget) total, \(tally.sent) started, \(tally.done) done, \(succeeded) succeeded, \(requestTarget - succeeded) failed")
print("status codes: \(classCount(2)) 2xx, \(classCount(3)) 3xx, \(classCount(4)) 4xx, \(classCount(5)) 5xx")
print("statuses: " + tally.statuses.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", "))
if timedOut { print("timed out after \(options.timeoutSeconds) s") }
for error in tally.errors { print("error: \(error)") }
exit(succeeded == requestTarget ? 0 : 1)
