// Shared by the LoopbackHTTP fuzz targets: the first input byte picks how the rest is cut
// into chunks, so libFuzzer explores chunk boundaries (a CRLF split across two reads, a
// frame header arriving one octet at a time) along with the bytes themselves.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fuzzer's bytes as a chunking seed plus the payload to deliver.
struct FuzzInput {
    /// Everything after the first byte.
    let payload: [UInt8]
    private var state: UInt64
    /// 0 delivers the payload in one piece; otherwise chunks are 1...maxChunk octets.
    private let maxChunk: Int

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        let seed = bytes.first ?? 0
        payload = Array(bytes.dropFirst())
        state = 0x9E37_79B9_7F4A_7C15 &* (UInt64(seed) &+ 1)
        switch seed & 0x07 {
        case 0: maxChunk = 0
        case 1: maxChunk = 1
        case 2: maxChunk = 3
        case 3: maxChunk = 9
        case 4: maxChunk = 17
        case 5: maxChunk = 64
        default: maxChunk = 512
        }
    }

    /// A SplitMix64 step: deterministic per input, so crashes reproduce.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The payload cut into chunks (sizes from the seed); at least one chunk, maybe empty.
    mutating func chunks() -> [ArraySlice<UInt8>] {
        guard maxChunk > 0, !payload.isEmpty else { return [payload[...]] }
        var result: [ArraySlice<UInt8>] = []
        var offset = 0
        while offset < payload.count {
            let size = 1 + Int(next() % UInt64(maxChunk))
            let end = min(payload.count, offset + size)
            result.append(payload[offset..<end])
            offset = end
        }
        return result
    }
}

/// Stops the run with a message libFuzzer saves beside the reproducer: an invariant broke.
func fuzzFailure(_ message: String) -> Never {
    var line = "FUZZ INVARIANT: \(message)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    abort()
}
