@testable import FakeSupport
import Contracts
import Foundation
import Testing
@testable import FakeBackend

/// FakeBackend stamps everything with its configuration's ``PushClock``, so a test that moves
/// the clock (or a client sleeping on it) sees the time it chose, not the wall clock's.
@Suite struct BackendClockTests {
    @Test func journalDevicesAndOpensCarryTheClocksTime() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let clock = PushClock(stoppedAt: start)
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions, clock: clock))
        #expect(backend.handle(Requests.put(Requests.token)).status == .noContent)
        clock.advance(by: .seconds(90))
        #expect(backend.handle(Requests.opened("91")).status == .noContent)
        #expect(backend.journal.map(\.time) == [start, start.addingTimeInterval(90)])
        #expect(backend.devices[Requests.token]?.updatedAt == start)
        #expect(backend.opens(for: "91").map(\.time) == [start.addingTimeInterval(90)])
    }

    @Test func aRetryAfterSleptOnTheClockShowsInTheJournalGap() async {
        let clock = PushClock(skippingSleepsFrom: Date(timeIntervalSince1970: 1_700_000_000))
        let backend = FakeBackend(configuration: .init(sessions: Requests.sessions, clock: clock))
        backend.addFault(.tooManyRequests(retryAfter: 30), on: .putDevice)
        #expect(backend.handle(Requests.put(Requests.token)).status == .tooManyRequests)
        await clock.sleep(for: .seconds(30))
        #expect(backend.handle(Requests.put(Requests.token)).status == .noContent)
        let times = backend.journal.map(\.time)
        #expect(times.count == 2)
        if times.count == 2 { #expect(times[1].timeIntervalSince(times[0]) >= 30) }
    }
}
