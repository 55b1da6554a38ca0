@testable import PushCore
import Contracts
import Foundation
import Testing
@testable import FakeBackend

/// Faults as the handler applies them: which requests they hit, what the response says,
/// whether the change happened.
@Suite struct FaultPlanTests {
    let backend = FakeBackend(configuration: .init(sessions: Requests.sessions))

    @Test func throttlingAnswers429WithRetryAfterAndDoesNotApply() {
        backend.addFault(.tooManyRequests(retryAfter: 7), on: .putDevice, count: 1)
        let throttled = backend.handle(Requests.put(Requests.token))
        #expect(throttled.status == .tooManyRequests)
        #expect(throttled.headers["Retry-After"] == "7")
        #expect(throttled.headers["Content-Type"] == "application/problem+json")
        #expect(Requests.json(throttled)["status"] as? Int == 429)
        #expect(backend.devices.isEmpty)
        // The plan was for one request: the retry goes through.
        #expect(backend.handle(Requests.put(Requests.token)).status == .noContent)
        #expect(backend.devices.count == 1)
        #expect(backend.journal.map(\.fault) == [.status(code: 429, retryAfter: 7), nil])
    }

    @Test(arguments: [500, 503])
    func serverErrorsForTheNextNRequests(code: Int) {
        backend.addFault(.status(code: code), on: .opened, count: 2)
        #expect(backend.handle(Requests.put(Requests.token)).status == .noContent) // other endpoint untouched
        #expect(backend.handle(Requests.opened("91")).status.code == code)
        #expect(backend.handle(Requests.opened("91")).status.code == code)
        #expect(backend.handle(Requests.opened("91")).status == .noContent)
        #expect(backend.opens.count == 1)
        #expect(backend.faults.isEmpty)
    }

    @Test func aPlanWithoutEndpointHitsEveryEndpoint() {
        backend.addFault(.status(code: 503), count: 3)
        #expect(backend.handle(Requests.put(Requests.token)).status == .serviceUnavailable)
        #expect(backend.handle(Requests.delete(Requests.token)).status == .serviceUnavailable)
        #expect(backend.handle(Requests.opened("1")).status == .serviceUnavailable)
        #expect(backend.handle(Requests.opened("1")).status == .noContent)
    }

    @Test func hangAndResetDoNotApply() {
        backend.addFault(.hang, on: .putDevice)
        backend.addFault(.reset, on: .opened)
        #expect(backend.handle(Requests.put(Requests.token)).disposition == .hang)
        #expect(backend.handle(Requests.opened("91")).disposition == .reset)
        #expect(backend.devices.isEmpty)
        #expect(backend.opens.isEmpty)
        #expect(backend.journal.map(\.status) == [nil, nil])
        #expect(backend.journal.map(\.fault) == [.hang, .reset])
    }

    @Test func loseResponseAndDelayApplyFirst() {
        backend.addFault(.loseResponse, on: .opened)
        backend.addFault(.delay(milliseconds: 250), on: .putDevice)
        let lost = backend.handle(Requests.opened("91"))
        #expect(lost.disposition == .loseResponse)
        #expect(backend.opens(for: "91").count == 1)
        let late = backend.handle(Requests.put(Requests.token))
        #expect(late.disposition == .delay(milliseconds: 250))
        #expect(late.status == .noContent)
        #expect(backend.devices.count == 1)
        // The client's retry after the lost response is a real duplicate.
        #expect(backend.handle(Requests.opened("91")).disposition == .send)
        #expect(backend.opens(for: "91").count == 2)
        #expect(backend.journal.map(\.fault) == [.loseResponse, .delay(milliseconds: 250), nil])
    }

    @Test func offlineResetsRequestsAndIsServerWide() {
        backend.addFault(.next(1, .offline, on: .opened))
        #expect(backend.isOffline)
        for request in [Requests.put(Requests.token), Requests.opened("91"), Requests.put(Requests.token)] {
            #expect(backend.handle(request).disposition == .reset)
        }
        #expect(backend.devices.isEmpty)
        #expect(backend.journal.allSatisfy { $0.fault == .offline && $0.status == nil })
        backend.clearFaults()
        #expect(!backend.isOffline)
        #expect(backend.handle(Requests.put(Requests.token)).status == .noContent)
    }

    @Test func aSeededProbabilityHitsTheSameRequestsEveryRun() {
        func pattern(seed: UInt64) -> [Bool] {
            let run = FakeBackend(configuration: .init(sessions: Requests.sessions))
            run.addFault(.probability(0.5, seed: seed, .status(code: 500), on: .opened))
            return (0..<64).map { run.handle(Requests.opened("n\($0)")).status.code == 500 }
        }
        let first = pattern(seed: 42)
        #expect(first == pattern(seed: 42))
        #expect(first != pattern(seed: 43))
        let hits = first.filter { $0 }.count
        #expect(hits > 16 && hits < 48)
    }

    @Test func probabilityZeroAndOne() {
        backend.addFault(.probability(0, seed: 1, .status(code: 500), on: .opened))
        backend.addFault(.probability(1, seed: 1, .status(code: 503), on: .putDevice))
        #expect(backend.handle(Requests.opened("1")).status == .noContent)
        #expect(backend.handle(Requests.put(Requests.token)).status == .serviceUnavailable)
        #expect(backend.handle(Requests.put(Requests.token)).status == .serviceUnavailable)
        #expect(backend.faults.count == 2)
    }

    @Test func splitMix64MatchesTheReferenceSequence() {
        // First outputs of SplitMix64 seeded with 0 (Vigna's reference implementation).
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
    }

    @Test func faultsFromTheConfigurationApplyFromTheStart() {
        let configured = FakeBackend(configuration: .init(sessions: Requests.sessions,
                                                          faults: [.next(1, .status(code: 500), on: .deleteDevice)]))
        #expect(configured.handle(Requests.delete(Requests.token)).status == .internalServerError)
        #expect(configured.handle(Requests.delete(Requests.token)).status == .noContent)
    }
}
