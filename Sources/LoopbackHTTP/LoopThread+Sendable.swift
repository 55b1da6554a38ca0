#if canImport(Darwin)
// On Darwin `pthread_t` is a pointer, so `LoopThread` is not inferred `Sendable` (on Linux
// it is an integer and it is). The handle never changes after `spawn`, and `pthread_join`
// and `pthread_equal` may be called from any thread, so sharing it is safe. This belongs on
// `LoopThread`'s declaration in Server/LoopThread.swift; it stands here only until that
// file (being rewritten) can carry it — then delete this file.
extension LoopThread: @unchecked Sendable {}
#endif
