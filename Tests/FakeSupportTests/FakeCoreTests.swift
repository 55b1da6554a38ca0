@testable import FakeSupport
import PushCore
import Testing

/// The fake core both fakes are built from: which fault a request gets (ActiveFaults) and how
/// a wait ends (FakeWaiters) — once, by the first of its condition, its timeout, its task's
/// cancellation or the fake's stop.
@Suite struct FakeCoreTests {
    typealias Plan = FaultPlan<String, Int>

    @Test func aNextPlanStrikesItsCountThenGoes() {
        var faults = ActiveFaults<String, Int>([Plan("503", target: 7, trigger: .next(count: 2))])
        #expect(faults.take(for: 8) == nil, "another target")
        #expect(faults.plans == [Plan("503", target: 7, trigger: .next(count: 2))])
        #expect(faults.take(for: 7) == "503")
        #expect(faults.plans == [Plan("503", target: 7, trigger: .next(count: 1))], "shows what it has left")
        #expect(faults.take(for: 7) == "503")
        #expect(faults.take(for: 7) == nil)
        #expect(faults.isEmpty, "a spent plan goes")
    }

    @Test func plansAreTriedInOrderAndTheFirstThatStrikesWins() {
        var faults = ActiveFaults<String, Int>()
        faults.add(Plan("reset", target: nil, trigger: .next(count: 1)))
        faults.add(Plan("hang", target: 3, trigger: .next(count: 1)))
        faults.add(Plan("none", trigger: .next(count: 0)))
        #expect(faults.plans.count == 2, "a plan with nothing to count is ignored")
        #expect(faults.take(for: 3) == "reset")
        #expect(faults.take(for: 3) == "hang")
        #expect(faults.take(for: 3) == nil)
    }

    @Test func skippedFaultsAreNotDrawn() {
        var faults = ActiveFaults<String, Int>([Plan("offline", trigger: .next(count: 1)), Plan("503", trigger: .next(count: 1))])
        #expect(faults.take(for: 1) { $0 == "offline" } == "503")
        #expect(faults.contains(fault: "offline") && faults.plans.count == 1)
    }

    @Test func aProbabilityPlanRepeatsForItsSeedAndStays() {
        func draws(seed: UInt64) -> [Bool] {
            var faults = ActiveFaults<String, Int>([Plan("429", trigger: .probability(0.5, seed: seed))])
            return (0..<64).map { _ in faults.take(for: 1) != nil }
        }
        let first = draws(seed: 42)
        #expect(first == draws(seed: 42))
        #expect(first != draws(seed: 43))
        #expect(first.contains(true) && first.contains(false))
    }

    static func engine(forgotten: Locked<[UInt64]>) -> FakeWaiters<Int> {
        FakeWaiters(fake: "TestFake", hint: { "look at the test" }, forget: { id in forgotten.withLock { $0.append(id) } })
    }

    @Test func aWaitResumedOnceReturnsTheValueAndLaterOutcomesDoNothing() async throws {
        let forgotten = Locked<[UInt64]>([])
        let waits = Self.engine(forgotten: forgotten)
        let kept = Locked<UInt64?>(nil)
        let task = Task { try await waits.wait("a value", timeout: .seconds(30)) { id in kept.withLock { $0 = id }; return nil } }
        while kept.withLock({ $0 }) == nil || waits.count == 0 { await Task.yield() }
        let id = try #require(kept.withLock { $0 })
        waits.resume(id, returning: 7)
        waits.resume(id, returning: 8)
        #expect(try await task.value == 7)
        waits.failAll()
        #expect(waits.count == 0 && forgotten.withLock { $0.isEmpty }, "a resumed wait is not forgotten again")
    }

    @Test func aConditionThatHoldsAtOnceReturnsWithoutWaiting() async throws {
        let waits = Self.engine(forgotten: Locked([]))
        #expect(try await waits.wait("now", timeout: .seconds(30)) { _ in 3 } == 3)
        #expect(waits.count == 0)
    }

    @Test func aWaitTimesOutWithWhatItWaitedForAndTheHint() async throws {
        let forgotten = Locked<[UInt64]>([])
        let waits = Self.engine(forgotten: forgotten)
        do {
            _ = try await waits.wait("two opens", timeout: .milliseconds(20)) { _ in nil }
            Issue.record("no timeout")
        } catch let error as PushFakeError {
            #expect(error == .timedOut)
            #expect(error.message.contains("TestFake: timed out after") && error.message.contains("two opens")
                    && error.message.contains("look at the test"), "\(error.message)")
        }
        #expect(forgotten.withLock { $0.count } == 1, "its condition is dropped")
    }

    @Test func cancellingTheTaskEndsItsWait() async throws {
        let forgotten = Locked<[UInt64]>([])
        let waits = Self.engine(forgotten: forgotten)
        let task = Task { try await waits.wait("forever", timeout: .seconds(30)) { _ in nil } }
        while waits.count == 0 { await Task.yield() }
        task.cancel()
        await #expect(throws: PushFakeError.cancelled) { try await task.value }
        #expect(waits.count == 0 && forgotten.withLock { $0.count } == 1)
    }

    @Test func stoppingFailsPendingWaitsAndEveryLaterOne() async throws {
        let forgotten = Locked<[UInt64]>([])
        let waits = Self.engine(forgotten: forgotten)
        let task = Task { try await waits.wait("a request", timeout: .seconds(30)) { _ in nil } }
        while waits.count == 0 { await Task.yield() }
        waits.failAll()
        do {
            _ = try await task.value
            Issue.record("the pending wait did not end")
        } catch let error as PushFakeError {
            #expect(error == .cancelled && error.message.contains("TestFake stopped while waiting for a request"))
        }
        let registered = Locked(false)
        await #expect(throws: PushFakeError.cancelled) {
            try await waits.wait("later", timeout: .seconds(30)) { _ in registered.withLock { $0 = true }; return nil }
        }
        #expect(!registered.withLock { $0 }, "a wait after stop never registers its condition")
    }
}
