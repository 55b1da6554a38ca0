// libFuzzer target for HTTP2FrameDecoder: arbitrary bytes in arbitrary chunkings
// (FuzzInput) give frames or HTTP2ProtocolErrors, never a trap. Each decoded frame,
// re-encoded and decoded again, must be the same frame. Built by
// Fuzz/run.sh HTTP2Frames SECONDS.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2Frames(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    // A small maximum frame size some of the time, so FRAME_SIZE_ERROR is reachable.
    let maximum = input.next() % 2 == 0 ? 16_384 : 64
    var decoder = HTTP2FrameDecoder(maximumFrameSize: maximum)
    var frames = 0
    var stopped = false
    for chunk in input.chunks() where !stopped {
        chunk.withUnsafeBytes { decoder.append($0) }
        while true {
            do {
                guard let frame = try decoder.nextFrame() else { break }
                frames += 1
                roundTrip(frame)
            } catch {
                if error.message.isEmpty { fuzzFailure("an error without a message") }
                // A connection error ends the connection; a stream error consumed its frame.
                if error.stream == nil { stopped = true; break }
            }
        }
    }
    if !stopped && decoder.bufferedCount < 0 { fuzzFailure("negative buffered count") }
    if frames > size { fuzzFailure("\(frames) frames from \(size) octets") }
    return 0
}

/// decode(encode(frame)) == frame, with a frame size limit large enough for any frame.
func roundTrip(_ frame: HTTP2Frame) {
    var again = HTTP2FrameDecoder(maximumFrameSize: 1 << 24)
    again.append(frame.bytes)
    do {
        guard let decoded = try again.nextFrame() else { fuzzFailure("re-encoded \(frame) is incomplete") }
        if decoded != frame { fuzzFailure("\(frame) re-decoded as \(decoded)") }
        if again.bufferedCount != 0 { fuzzFailure("re-encoded \(frame) left \(again.bufferedCount) octets") }
    } catch {
        fuzzFailure("re-encoded \(frame) failed: \(error)")
    }
}
