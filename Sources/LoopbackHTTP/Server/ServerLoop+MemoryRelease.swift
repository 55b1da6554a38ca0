import CLoopbackShim

/// Returning memory after an attack. glibc keeps freed heap pages, so without this a
/// process that once held many stalled responses or bodies stays at that RSS (issue 13:
/// 651 MB still resident after 200 stalled connections closed). After a turn that dropped
/// at least 16 MiB of buffers the loop asks for them back (`malloc_trim(0)` on glibc,
/// nothing elsewhere: Darwin's allocator returns large blocks itself).
extension ServerLoop {
    static let trimThreshold = 16 * 1024 * 1024

    /// Counts buffer bytes just dropped (a connection destroyed, stalled streams reset).
    func noteReleased(_ bytes: Int) {
        if bytes > 0 { releasedSinceTrim += bytes }
    }

    /// At the end of a turn: gives freed memory back once enough was dropped.
    func releaseFreedMemory() {
        guard releasedSinceTrim >= Self.trimThreshold else { return }
        releasedSinceTrim = 0
        cls_release_free_memory()
    }
}
