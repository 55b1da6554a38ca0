@testable import PushCore
import Contracts
import Foundation
import Testing
@testable import FakeAPNs

@Suite struct FaultAndJournalTests {
    typealias T = APNsTestbed

    @Test func aReasonFaultAnswersForTheNextNRequestsAndDeliversNothing() {
        let bed = T()
        bed.fake.addFault(.next(2, .reason(.serviceUnavailable)))
        let codes = (0..<3).map { _ in bed.fake.handle(T.push()).status.code }
        #expect(codes == [503, 503, 200])
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 1)
        #expect(bed.fake.journal.first?.fault == .reason(.serviceUnavailable))
    }

    @Test func aFaultForOneTokenLeavesOthersAlone() {
        let bed = T()
        let other = APNsReasonTable.otherToken
        bed.fake.register(token: other, topic: T.topic)
        bed.fake.addFault(.next(1, .reason(.internalServerError), deviceToken: other.uppercased()))
        #expect(bed.fake.handle(T.push()).status.code == 200)
        #expect(bed.fake.handle(T.push(token: other)).status.code == 500)
        #expect(bed.fake.handle(T.push(token: other)).status.code == 200)
    }

    @Test func loseResponseDeliversThenWithholdsTheAnswer() {
        let bed = T()
        bed.fake.addFault(.next(1, .loseResponse))
        let response = bed.fake.handle(T.push())
        #expect(response.disposition == .loseResponse)
        #expect(bed.fake.deliveredNotifications(for: T.token).count == 1)
    }

    @Test func delayKeepsTheVerdict() {
        let bed = T()
        bed.fake.addFault(.next(1, .delay(milliseconds: 250)))
        let response = bed.fake.handle(T.push(headers: [("apns-topic", nil)]))
        #expect(response.disposition == .delay(milliseconds: 250))
        #expect(reason(of: response) == "MissingTopic")
    }

    @Test func resetAndGoAwayApplyNothing() {
        let bed = T()
        bed.fake.addFault(.next(1, .reset))
        bed.fake.addFault(.next(1, .goAway(reason: "Shutdown")))
        #expect(bed.fake.handle(T.push()).disposition == .reset)
        let goAway = bed.fake.handle(T.push()).disposition
        #expect(goAway == .goAway(debugData: Array(#"{"reason":"Shutdown"}"#.utf8)))
        #expect(bed.fake.deliveredNotifications(for: T.token).isEmpty)
    }

    @Test func seededProbabilityFaultsRepeat() {
        func run() -> [Int] {
            let bed = T()
            bed.fake.addFault(.probability(0.3, seed: 7, .reason(.internalServerError)))
            return (0..<30).map { _ in bed.fake.handle(T.push()).status.code }
        }
        let codes = run()
        #expect(codes == run())
        #expect(codes.contains(500) && codes.contains(200))
    }

    @Test func a410FaultDefaultsToNowOnTheFakesClockAndMaySetItsTimestamp() {
        let bed = T()
        bed.clock.advance(seconds: 5)
        bed.fake.addFault(.next(1, .reason(.unregistered)))
        bed.fake.addFault(.next(1, .reason(.expiredToken.at(1_600_000_000_000))))
        bed.fake.addFault(.next(1, .reason(.internalServerError)))
        #expect(String(decoding: bed.fake.handle(T.push()).body, as: UTF8.self) == #"{"reason":"Unregistered","timestamp":\#(T.start + 5000)}"#)
        #expect(String(decoding: bed.fake.handle(T.push()).body, as: UTF8.self) == #"{"reason":"ExpiredToken","timestamp":1600000000000}"#)
        #expect(String(decoding: bed.fake.handle(T.push()).body, as: UTF8.self) == #"{"reason":"InternalServerError"}"#)
    }

    @Test func goAwayAfterTooManyErrorsOnOneConnectionAndGoneIsNotAnError() {
        let bed = T { $0.goAwayAfterErrors = 3 }
        bed.fake.register(token: APNsReasonTable.otherToken, topic: T.topic)
        bed.fake.unregister(token: APNsReasonTable.otherToken)
        let bad = T.push(headers: [("apns-priority", "2")], connection: 9)
        #expect(bed.fake.handle(bad).disposition == .send)
        for _ in 0..<5 { #expect(bed.fake.handle(T.push(token: APNsReasonTable.otherToken, connection: 9)).status.code == 410) }
        #expect(bed.fake.handle(bad).disposition == .send)
        // Another connection's errors do not count.
        #expect(bed.fake.handle(T.push(headers: [("apns-priority", "2")], connection: 10)).disposition == .send)
        let third = bed.fake.handle(bad)
        #expect(third.disposition == .goAway(debugData: Array(#"{"reason":"BadPriority"}"#.utf8)))
        #expect(bed.fake.journal.last?.detail?.contains("GOAWAY") == true)
    }

    @Test func theJournalIsBoundedAndCountsWhatItDropped() {
        let bed = T { $0.journalCapacity = 4 }
        for _ in 0..<10 { _ = bed.fake.handle(T.push()) }
        let journal = bed.fake.journal
        #expect(journal.map(\.sequence) == [7, 8, 9, 10])
        #expect(bed.fake.droppedJournalEntries == 6)
    }

    @Test func theJournalRecordsConnectionProtocolAndVerdict() throws {
        let bed = T()
        _ = bed.fake.handle(T.push(headers: [("apns-push-type", "banner")], connection: 42))
        let entry = try #require(bed.fake.journal.last)
        #expect(entry.connectionID == 42)
        #expect(entry.protocolVersion == .http2)
        #expect(entry.status == 400 && entry.reason == "InvalidPushType")
        #expect(entry.deviceToken == T.token)
        #expect(!entry.isAccepted)
    }

    @Test func waitForRequestsIsResumedByTheHandler() async throws {
        let bed = T()
        let fake = bed.fake
        async let waited = fake.waitForRequests(count: 2, timeout: .seconds(10)) { $0.isAccepted }
        Task.detached {
            _ = fake.handle(T.push(headers: [("apns-topic", nil)]))
            _ = fake.handle(T.push())
            _ = fake.handle(T.push())
        }
        let entries = try await waited
        #expect(entries.count == 2)
        #expect(entries.allSatisfy { $0.isAccepted })
    }

    @Test func waitForDeliveriesCountsEarlierOnesAndTimesOut() async throws {
        let bed = T()
        _ = bed.fake.handle(T.push())
        let now = try await bed.fake.waitForDeliveries(to: T.token, count: 1, timeout: .seconds(1))
        #expect(now.count == 1)
        await #expect(throws: FakeAPNsError.timedOut) {
            try await bed.fake.waitForDeliveries(to: T.token, count: 2, timeout: .milliseconds(50))
        }
    }

    @Test func waitForDeliveriesWakesWhenADeviceComesOnline() async throws {
        let bed = T()
        let fake = bed.fake
        fake.setOnline(false, token: T.token)
        _ = fake.handle(T.push())
        async let waited = fake.waitForDeliveries(to: T.token, timeout: .seconds(10))
        Task.detached { fake.setOnline(true, token: T.token) }
        let delivered = try await waited
        #expect(delivered.count == 1)
    }
}

@Suite struct OnRequestTests {
    @Test func onRequestSeesEachEntryWithALogLine() {
        let seen = Locked<[String]>([])
        let bed = APNsTestbed { $0.onRequest = { entry in seen.withLock { $0.append(entry.logLine) } } }
        _ = bed.fake.handle(APNsTestbed.push())
        _ = bed.fake.handle(APNsTestbed.push(headers: [("apns-priority", "3")]))
        #expect(seen.snapshot == ["POST /3/device/abababab…abab 200 delivery=delivered",
                                  "POST /3/device/abababab…abab 400 BadPriority"])
    }
}

@Suite struct WaitCancellationTests {
    @Test func aCancelledWaitThrowsCancelledNotTimedOut() async {
        let bed = APNsTestbed()
        let fake = bed.fake
        let task = Task { try await fake.waitForDeliveries(to: APNsTestbed.token, count: 1, timeout: .seconds(30)) }
        task.cancel()
        await #expect(throws: FakeAPNsError.cancelled) { try await task.value }
    }
}
