import Foundation
import Contracts
import FakeAPNs
import FakeBackend

/// The app-side scenarios: offline sign-out and duplicate delivery.
extension PushScenario {
    static func offlineSignOut(app: any ScenarioClient, sender: any ScenarioSender,
                               _ environment: ScenarioEnvironment, _ report: inout ScenarioReport) async {
        let backend = environment.backend, apns = environment.apns
        let token = environment.deviceToken, account = environment.account
        await signIn(app, environment)
        guard (try? await backend.waitForDevice(token: token, account: account, timeout: environment.grace)) != nil else {
            report.fail("the app never registered \(short(token)) for \(account) after sign-in; PUT the token when the account changes")
            return
        }
        await sender.tokenRegistered(token)

        await backend.setOffline(true)
        report.step("FakeBackend goes offline (connections refused); the user signs out")
        await app.signOut()
        await app.settle()

        // The backend still thinks the device is the old account's, so its push arrives.
        guard let payload = push("301", for: account) else { return }
        await sender.send(payload, to: token)
        guard let delivered = try? await apns.waitForDeliveries(to: token, count: 1, timeout: environment.grace),
              let copy = delivered.first?.pushPayload else {
            report.fail("push 301 for \(account) never reached the device; the sender must deliver it while the token is registered")
            return
        }
        _ = await app.receive(copy)
        let route = await app.tap(copy, action: .trackOrder)
        report.step("the signed-out user taps push 301 (sent to \(account)): the app opens "
                    + (route.map { "\($0)" } ?? "nothing"))
        if let route, let destination = copy.destination, route == destination {
            report.fail("after \(account) signed out, a tap on notification 301 (sent to \(account)) opened \(route); "
                        + "drop taps for another account than the signed-in one (open Home or nothing)")
        }

        await backend.setOffline(false)
        report.step("FakeBackend is back; the app resumes")
        await app.resume()
        await app.settle()
        do {
            _ = try await backend.waitForDeviceRemoval(token: token, timeout: environment.grace)
            report.step("the pending DELETE removed \(short(token))")
        } catch {
            let deletes = backend.journal.filter { $0.endpoint == .deleteDevice }
            report.fail("\(short(token)) is still registered to \(account) after sign-out: the DELETE that failed while the "
                        + "backend was offline was never sent again (\(deletes.count) DELETE(s) seen, "
                        + "\(deletes.filter { $0.status == 204 }.count) answered); keep it pending and send it when the backend is back")
        }
        let opens = backend.opens(for: "301")
        if !opens.isEmpty {
            report.fail("the backend recorded \(opens.count) open(s) of notification 301 after \(account) signed out; "
                        + "a dropped tap is not an open")
        }
    }

    static func duplicateDelivery(app: any ScenarioClient, sender: any ScenarioSender,
                                  _ environment: ScenarioEnvironment, _ report: inout ScenarioReport) async {
        let backend = environment.backend, apns = environment.apns
        let token = environment.deviceToken, account = environment.account
        await signIn(app, environment)
        await sender.tokenRegistered(token)

        apns.injectDuplicateDeliveries(next: 1, deviceToken: token)
        backend.addFault(.loseResponse, on: .opened)
        report.step("FakeAPNs delivers the next push twice; FakeBackend loses the response to the first \"opened\"")
        guard let payload = push("401", for: account) else { return }
        await sender.send(payload, to: token)
        let copies = ((try? await apns.waitForDeliveries(to: token, count: 2, timeout: environment.grace))
                      ?? apns.deliveredNotifications(for: token)).compactMap(\.pushPayload)
        guard copies.count >= 2 else {
            report.fail("push 401 reached the device \(copies.count) time(s), not twice; the sender must get it accepted once")
            return
        }

        var shown = 0
        for copy in copies where await app.receive(copy) {
            shown += 1
        }
        var routes: [Route] = []
        for copy in copies {
            if let route = await app.tap(copy, action: .trackOrder) { routes.append(route) }
        }
        await app.settle()
        report.step("delivered \(copies.count) times: the app showed it \(shown) time(s) and opened "
                    + (routes.isEmpty ? "nothing" : routes.map { "\($0)" }.joined(separator: ", ")))
        if shown != 1 {
            report.fail("the app showed notification 401 \(shown) times (APNs delivered it \(copies.count) times); "
                        + "drop repeats by notificationId")
        }
        if routes.count != 1 {
            report.fail("the app routed notification 401 \(routes.count) times; route a repeated tap once")
        } else if let route = routes.first, route != .order("8F3K") {
            report.fail("the tap on notification 401 opened \(route), not orders/8F3K")
        }

        let reports = backend.opens(for: "401")
        let counted = backend.countedOpens(for: "401")
        report.step("the app sent \(backend.journal.filter { $0.endpoint == .opened }.count) \"opened\" request(s); "
                    + "the backend kept \(reports.count), counted \(counted.count)")
        if counted.isEmpty {
            report.fail("the backend recorded no open of notification 401; report the tap with POST /v1/notifications/401/opened")
        } else if counted.count > 1 {
            report.fail("the backend counted \(counted.count) opens of notification 401 from \(reports.count) reports; "
                        + "report each notification once, and retry a lost response with the same Idempotency-Key")
        }
    }

    /// How both app scenarios begin: the user signs in, so the app registers the environment's
    /// token for its account, and settles.
    private static func signIn(_ app: any ScenarioClient, _ environment: ScenarioEnvironment) async {
        await app.register(token: environment.deviceToken, account: environment.account)
        await app.settle()
    }
}
