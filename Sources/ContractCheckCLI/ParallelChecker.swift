import Foundation
import PushCore
#if canImport(Glibc)
import CLoopbackShim
#endif

/// Checks files on every core, returning reports in the items' order, so output stays
/// deterministic however the work is scheduled.
///
/// The helper threads start when `validate` starts, before its arguments are parsed, and wait
/// for work: a thread's start-up (and, with Dispatch's pool on Linux, the pool's slow first
/// growth, up to several milliseconds) overlaps the argument handling instead of delaying the
/// checks. The calling thread checks files too.
package final class ParallelChecker: @unchecked Sendable {
    /// What a job gave: a report, or a command line argument that turned out to be a folder.
    package enum Outcome: Sendable {
        case report(FileReport)
        case folder(path: String, location: String)
    }

    /// What a thread keeps from file to file: its read buffer and its contract resolver (a
    /// copy each, so resolving needs no lock).
    package struct WorkerState: Sendable {
        package var scratch: [UInt8] = []
        package var resolver: ContractResolver
        package var wholeFileReads = WholeFileReads()

        package init(resolver: ContractResolver) {
            self.resolver = resolver
        }
    }

    /// One call of ``run(itemCount:state:alongside:work:)``: the work, the next chunk to take,
    /// the results (each chunk's, whatever type the call's `work` gives).
    private struct Batch {
        let chunkCount: Int
        let work: @Sendable (_ chunk: Int, _ state: inout WorkerState) -> any Sendable
        let state: WorkerState
        var nextChunk = 0
        var results: [(any Sendable)?]
        /// Helper threads still working on this batch.
        var busyHelpers: Int
    }

    /// Files per unit of scheduled work: big enough that locking and dispatch cost nothing
    /// next to the reads and parses, small enough to balance uneven files over the cores.
    package static let chunkSize = 64

    // Guarded by `condition`: `@unchecked Sendable` above stands on every access to these
    // three taking it.
    private let condition = NSCondition()
    private var batch: Batch?
    private var generation = 0
    private var stopped = false
    /// What ``dispose(of:)`` handed over, freed by a helper thread when stopped.
    private var leftovers: [any Sendable] = []
    /// Helper threads started (the calling thread is not one of them).
    package let helperCount: Int

    /// Starts `helpers` threads (by default one per core beyond the caller's) that wait for
    /// ``run(itemCount:state:alongside:work:)``; ``stop()`` ends them.
    /// - Parameter privateFileTables: on Linux, each helper takes its own copy of the file
    ///   descriptor table (`unshare(CLONE_FILES)`): its opens and closes no longer lock the
    ///   table the caller's thread uses, and its reads skip the shared table's reference
    ///   counts (~5 % less kernel time over 10,000 files). Only for a process that is the
    ///   command: the copy holds every descriptor open at the time until the helper ends, so
    ///   inside a test's process a socket another test closes would stay open that long.
    package init(helpers: Int = max(0, ProcessInfo.processInfo.activeProcessorCount - 1), privateFileTables: Bool = false) {
        helperCount = helpers
        for _ in 0..<helpers {
            let thread = Thread { [self] in
                #if canImport(Glibc)
                if privateFileTables { _ = cls_unshare_file_table() }
                #endif
                helperLoop()
            }
            thread.name = "contract-check validate"
            thread.start()
        }
    }

    /// Hands `value` to a helper thread, which frees it after ``stop()`` while this thread
    /// goes on (freeing the outcomes of 10,000 files took ~2M instructions at the end of a
    /// run). Without helpers it is freed here, as usual.
    package func dispose(of value: consuming some Sendable) {
        guard helperCount > 0 else { return }
        condition.lock()
        leftovers.append(value)
        condition.unlock()
    }

    /// Ends the helper threads once they finish what they are doing.
    package func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `work` on every chunk of `itemCount` items (``chunkSize`` each; `work` is given
    /// the chunk's index and its thread's state, a copy of `state`) and returns what it gave
    /// for each chunk, in chunk order. One run at a time: the caller's thread runs `alongside`
    /// once the helpers have the work, then takes chunks too, and returns when every chunk is done.
    package func run<Chunk: Sendable>(itemCount: Int, state: WorkerState, alongside: () -> Void = {},
                                      work: @escaping @Sendable (_ chunk: Int, _ state: inout WorkerState) -> Chunk) -> [Chunk] {
        let chunkCount = (itemCount + Self.chunkSize - 1) / Self.chunkSize
        guard chunkCount > 1, helperCount > 0 else {
            alongside()
            var local = state
            return (0..<chunkCount).map { work($0, &local) }
        }
        condition.lock()
        batch = Batch(chunkCount: chunkCount, work: { work($0, &$1) }, state: state, results: Array(repeating: nil, count: chunkCount),
                      busyHelpers: helperCount)
        generation += 1
        condition.broadcast()
        condition.unlock()
        alongside()
        var local = state
        drain(&local)
        condition.lock()
        while let current = batch, current.busyHelpers > 0 { condition.wait() }
        let results = batch?.results ?? []
        batch = nil
        condition.unlock()
        return results.compactMap { $0 as? Chunk }
    }

    /// Takes chunks of the current batch until none is left.
    private func drain(_ state: inout WorkerState) {
        condition.lock()
        guard let work = batch?.work else {
            condition.unlock()
            return
        }
        // Chunks of this batch only: `work` is this batch's, and its chunk numbers mean
        // nothing to the next one.
        let started = generation
        // The batch's fields are read in place. A copy of the batch (`let current = batch`)
        // shared its results array, so storing each chunk's results copied the whole array
        // (157 entries for 10,000 files, retained one by one): 3 M instructions in a run.
        while generation == started, let chunk = batch?.nextChunk, let count = batch?.chunkCount, chunk < count {
            batch?.nextChunk += 1
            condition.unlock()
            let outcomes = work(chunk, &state)
            condition.lock()
            if generation == started { batch?.results[chunk] = outcomes }
        }
        condition.unlock()
    }

    private func helperLoop() {
        var seen = 0
        while true {
            condition.lock()
            while !stopped && generation == seen { condition.wait() }
            if stopped {
                let dropped = leftovers
                leftovers = []
                condition.unlock()
                _ = consume dropped
                return
            }
            seen = generation
            let state = batch?.state
            condition.unlock()
            if var state { drain(&state) }
            condition.lock()
            batch?.busyHelpers -= 1
            condition.broadcast()
            condition.unlock()
        }
    }
}
