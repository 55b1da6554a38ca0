// FakeAPNs: see its issue. Nothing public yet.
@_exported import LoopbackHTTP
