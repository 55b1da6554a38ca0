import Dispatch
import Foundation
import PushCore

/// Checks files on every core, returning reports in the jobs' order, so output stays
/// deterministic however the work is scheduled.
package enum ParallelChecker {
    /// One unit of `validate` work: a file to read and check, or a report already known
    /// (a path that could not be used).
    package enum Job: Sendable {
        case check(path: String, location: String, contract: String?)
        case report(FileReport)
    }

    /// What a job gave: a report, or a command line argument that turned out to be a folder.
    package enum Outcome: Sendable {
        case report(FileReport)
        case folder(path: String, location: String)
    }

    /// Files per unit of scheduled work: big enough that locking and dispatch cost nothing
    /// next to the reads and parses, small enough to balance uneven files over the cores.
    static let chunkSize = 64

    /// Runs every job; files are checked with ``ValidateCommand/check(_:location:contract:checker:scratch:)``.
    package static func run(_ jobs: [Job], checker: any DocumentChecker) -> [Outcome] {
        let chunkCount = (jobs.count + chunkSize - 1) / chunkSize
        let workers = chunkCount > 1 ? min(ProcessInfo.processInfo.activeProcessorCount, chunkCount) : 1
        guard workers > 1 else {
            var scratch: [UInt8] = []
            return jobs.map { perform($0, checker: checker, scratch: &scratch) }
        }
        // One worker per core, each with one read buffer for all its files, taking chunks in
        // order from a shared counter; one lock per chunk of files (not per file), so locking
        // costs nothing next to the reads.
        let slots = Locked<[[Outcome]]>(Array(repeating: [], count: chunkCount))
        let nextChunk = Locked(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            var scratch: [UInt8] = []
            while true {
                let chunk = nextChunk.withLock { next in
                    defer { next += 1 }
                    return next
                }
                guard chunk < chunkCount else { return }
                let start = chunk * chunkSize
                let end = min(start + chunkSize, jobs.count)
                var outcomes: [Outcome] = []
                outcomes.reserveCapacity(end - start)
                for index in start..<end {
                    outcomes.append(perform(jobs[index], checker: checker, scratch: &scratch))
                }
                slots.withLock { $0[chunk] = outcomes }
            }
        }
        return slots.withLock { $0.flatMap { $0 } }
    }

    private static func perform(_ job: Job, checker: any DocumentChecker, scratch: inout [UInt8]) -> Outcome {
        switch job {
        case .report(let report):
            return .report(report)
        case .check(let path, let location, let contract):
            return ValidateCommand.check(path, location: location, contract: contract, checker: checker, scratch: &scratch)
        }
    }
}
