#!/usr/bin/env python3
# Full TLS 1.3 handshakes per second with a client certificate, for Benchmarks/tls.sh
# --client-certificates: PROCESSES processes each open connection after connection to
# 127.0.0.1:PORT for SECONDS, each a new handshake (no session reuse, no tickets read),
# presenting CERT/KEY, offering ALPN h2. A handshake counts once the server has acknowledged
# the client's HTTP/2 SETTINGS (a SETTINGS frame with the ACK flag): the server has then read
# the client's whole flight (Certificate, CertificateVerify, Finished) and accepted it, for
# FakeAPNs and nginx alike. Prints "HANDSHAKES SECONDS FAILURES"; loopback only.
#
# Not openssl s_time -cert: with TLS 1.3 it counts a connection once its own side of the
# handshake ends and closes at once, before the server has read (let alone checked) the
# client's certificate, so a server's verification cost is not waited for; and one process
# cannot keep a server busy. nginx with `ssl_verify_client on` answers a certificate it does
# not trust at the HTTP layer (400), as FakeAPNs does (403), so both acknowledge SETTINGS.
#
#   tls-handshakes.py PORT CERT KEY SECONDS PROCESSES
import multiprocessing
import socket
import ssl
import sys
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])  # + empty SETTINGS


def settings_acknowledged(connection):
    """Reads frames until a SETTINGS ACK; False if the connection ends first."""
    buffer = b""
    while True:
        while len(buffer) >= 9:
            length = int.from_bytes(buffer[0:3], "big")
            if buffer[3] == 4 and buffer[4] & 1:
                return True
            if len(buffer) < 9 + length:
                break
            buffer = buffer[9 + length:]
        data = connection.recv(65536)
        if not data:
            return False
        buffer += data


def worker(arguments):
    port, cert, key, seconds = arguments
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the client's own cost kept small; both servers alike
    context.minimum_version = context.maximum_version = ssl.TLSVersion.TLSv1_3
    context.set_alpn_protocols(["h2"])
    context.load_cert_chain(cert, key)
    done = failures = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
                raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                with context.wrap_socket(raw) as connection:
                    connection.sendall(PREFACE)
                    if settings_acknowledged(connection):
                        done += 1
                    else:
                        failures += 1
        except (OSError, ssl.SSLError):
            failures += 1
    return done, failures


def main():
    port, cert, key, seconds, processes = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
    start = time.monotonic()
    with multiprocessing.Pool(processes) as pool:
        results = pool.map(worker, [(port, cert, key, seconds)] * processes)
    elapsed = time.monotonic() - start
    print(sum(r[0] for r in results), f"{elapsed:.2f}", sum(r[1] for r in results))


if __name__ == "__main__":
    main()
