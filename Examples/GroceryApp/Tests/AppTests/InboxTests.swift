import Foundation
import Testing
import App
import FakeBackend

/// Cards 7 and 5 against a FakeBackend in the scoped async form, one per test.
@Suite struct InboxTests {
    /// Runs `body` with a FakeBackend and the app pointed at it, signed in as a1, on a clock
    /// that skips sleeps.
    private func withSignedInApp(_ body: (FakeBackend, TestApp) async throws -> Void) async throws {
        let clock = PushClock(skippingSleepsFrom: Date())
        try await withFakeBackend(configuration: .init(sessions: TestApp.sessions, clock: clock)) { backend in
            let app = TestApp(backendURL: backend.baseURL, clock: clock)
            try await app.signIn(TestApp.alice)
            try await body(backend, app)
        }
    }

    /// Breaks if the inbox shows, routes or reports a push delivered twice more than once.
    @Test func aRepeatedPushIsShownRoutedAndReportedOnce() async throws {
        try await withSignedInApp { backend, app in
            let tap = try TestApp.tap(TestApp.orderUpdate(id: "91"), action: .trackOrder)
            #expect(await app.inbox.willPresent(tap.id))
            #expect(await !app.inbox.willPresent(tap.id))

            var routes: [Route] = []
            for copy in [tap, tap] where await app.inbox.deliver(copy) {
                routes.append(await app.openNotification.route(for: copy))
            }
            await app.inbox.reportsSettled()
            #expect(routes == [.order("8F3K")])
            let opens = backend.opens(for: "91")
            #expect(opens.map(\.action) == ["trackOrder"])
            #expect(opens.map(\.account) == ["a1"])
        }
    }

    /// Breaks if a retry after a lost response carries a new Idempotency-Key (the backend then
    /// counts two opens), or if the lost response is not retried at all.
    @Test func anOpenWhoseResponseIsLostIsRetriedWithTheSameIdempotencyKey() async throws {
        try await withSignedInApp { backend, app in
            backend.addFault(.loseResponse, on: .opened)
            let tap = try TestApp.tap(TestApp.orderUpdate(id: "92"))
            #expect(await app.inbox.deliver(tap))
            #expect(await app.openNotification.route(for: tap) == .order("8F3K"))
            await app.inbox.reportsSettled()

            let reports = backend.opens(for: "92")
            #expect(reports.count == 2, "the lost report and its retry")
            #expect(Set(reports.compactMap(\.idempotencyKey)).count == 1)
            #expect(reports.allSatisfy { $0.idempotencyKey != nil })
            #expect(backend.countedOpens(for: "92").count == 1)
        }
    }

    /// Breaks if a route this version cannot read, or none, lands anywhere but Home.
    @Test(arguments: ["wallet/vouchers/33", "orders/", "orders/8F3K/extra", "ORDERS/8F3K", ""])
    func anUnknownRouteOpensHome(route: String) async throws {
        try await withSignedInApp { backend, app in
            let tap = try TestApp.tap(TestApp.orderUpdate(id: "93", route: route))
            #expect(tap.route == nil)
            #expect(await app.inbox.deliver(tap))
            #expect(await app.openNotification.route(for: tap) == .home)
            await app.inbox.reportsSettled()
            #expect(backend.countedOpens(for: "93").count == 1, "an open of Home is still an open")
        }
    }

    /// Breaks if a tap opens another account's order, or reports it as an open.
    @Test func anotherAccountsPushOpensHomeAndIsNotReported() async throws {
        try await withSignedInApp { backend, app in
            let tap = try TestApp.tap(TestApp.orderUpdate(id: "94", account: "a2"))
            #expect(await app.openNotification.route(for: tap) == .home)
            await app.inbox.reportsSettled()
            #expect(backend.opens(for: "94").isEmpty)
        }
    }

    /// Breaks if a signed-out tap skips sign-in, or loses its destination on the way.
    @Test func aSignedOutTapGoesThroughSignInAndIsNotReported() async throws {
        try await withSignedInApp { backend, app in
            try await app.signOut()
            let tap = try TestApp.tap(TestApp.orderUpdate(id: "95"))
            #expect(await app.openNotification.route(for: tap) == .signIn(then: .order("8F3K")))
            await app.inbox.reportsSettled()
            #expect(backend.opens(for: "95").isEmpty)
        }
    }
}

/// The inbox alone: no backend needed.
@Suite struct InboxStreamTests {
    /// Breaks if a tap that arrives before the UI subscribes (a cold launch) is lost.
    @Test func aTapBeforeTheUISubscribesIsReplayed() async throws {
        let inbox = RemoteNotificationInboxRepository(http: UnreachableBackend(), session: Session())
        let cold = try TestApp.tap(TestApp.orderUpdate(id: "96"))
        let warm = try TestApp.tap(TestApp.orderUpdate(id: "97", route: "offers/FREEDEL18"))
        #expect(await inbox.deliver(cold))
        var taps = await inbox.taps().makeAsyncIterator()
        #expect(await taps.next() == cold)
        #expect(await inbox.deliver(warm))
        #expect(await !inbox.deliver(cold))
        #expect(await taps.next()?.route == .offer("FREEDEL18"))
    }

    private struct UnreachableBackend: HTTPClient {
        func send(_ request: HTTPRequest) async throws -> HTTPResponse { throw CancellationError() }
    }
}
