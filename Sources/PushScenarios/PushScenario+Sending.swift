import Foundation
import Contracts
import FakeAPNs
import FakeBackend

/// The sender-side scenarios: throttling and 410s.
extension PushScenario {
    static func throttling(app: any ScenarioClient, sender: any ScenarioSender,
                           _ environment: ScenarioEnvironment, _ report: inout ScenarioReport) async {
        let backend = environment.backend, apns = environment.apns, token = environment.deviceToken
        let account = environment.account

        // The app meets 429 + Retry-After on its first PUT.
        backend.addFault(.tooManyRequests(retryAfter: 1), on: .putDevice)
        report.step("FakeBackend answers the first PUT /v1/devices/{token} with 429, Retry-After: 1")
        await app.register(token: token, account: account)
        await app.settle()
        let registered = (try? await backend.waitForDevice(token: token, account: account, timeout: environment.grace)) != nil
        let puts = backend.journal.filter { $0.endpoint == .putDevice }
        if !registered {
            report.fail("the app never registered its token after a 429 with Retry-After: 1 (\(puts.count) PUT(s)); "
                        + "retry the PUT once the Retry-After delay has passed")
        } else if let throttled = puts.firstIndex(where: { $0.status == 429 }), throttled + 1 < puts.count {
            let gap = puts[throttled + 1].time.timeIntervalSince(puts[throttled].time)
            report.step("the app sent its next PUT \(milliseconds(gap)) ms after the 429")
            if gap < 1.0 {
                report.fail("the app retried PUT /v1/devices/\(short(token)) \(milliseconds(gap)) ms after a 429 "
                            + "with Retry-After: 1; wait at least the Retry-After delay before retrying")
            }
        }

        // The sender meets 429 TooManyRequests from FakeAPNs.
        await sender.tokenRegistered(token)
        let ids = ["101", "102", "103", "104", "105"]
        report.step("FakeAPNs accepts \(throttle.limit) pushes per device per \(throttle.windowSeconds) s; sending \(ids.count)")
        for id in ids {
            guard let payload = push(id, for: account) else { continue }
            await sender.send(payload, to: token)
        }
        _ = try? await apns.waitForDeliveries(to: token, count: ids.count, timeout: environment.grace)
        let delivered = Set(apns.deliveredNotifications(for: token).compactMap { $0.pushPayload?.notificationID.rawValue })
        let entries = apns.journal.filter { $0.deviceToken?.lowercased() == token }
        let throttled = entries.filter { $0.status == 429 }
        let quickest = quickestRetry(after: { $0.status == 429 }, in: entries)
        report.step("FakeAPNs answered 429 \(throttled.count) time(s); quickest retry after one: "
                    + (quickest.map { "\($0) ms" } ?? "none"))
        let missing = ids.filter { !delivered.contains($0) }
        if !missing.isEmpty {
            report.fail("\(missing.count) of \(ids.count) pushes never reached the device (\(missing.joined(separator: ", "))): "
                        + "FakeAPNs answered 429 TooManyRequests \(throttled.count) times and the sender retried "
                        + (quickest.map { "\($0) ms" } ?? "never") + " after one at the quickest; "
                        + "back off (wait longer after each 429) and send them later")
        } else if throttled.count > 4 * ids.count {
            report.fail("the sender retried into 429 TooManyRequests \(throttled.count) times for \(ids.count) pushes; "
                        + "back off before retrying")
        }
    }

    static func unregistered(app: any ScenarioClient, sender: any ScenarioSender,
                             _ environment: ScenarioEnvironment, _ report: inout ScenarioReport) async {
        let apns = environment.apns, token = environment.deviceToken, account = environment.account
        await app.register(token: token, account: account)
        await app.settle()
        await sender.tokenRegistered(token)

        guard let first = push("201", for: account), let second = push("202", for: account),
              let third = push("203", for: account), let fourth = push("204", for: account) else { return }
        await sender.send(first, to: token)
        if (try? await apns.waitForDeliveries(to: token, count: 1, timeout: environment.grace)) == nil {
            report.fail("push 201 never reached the device before its token was unregistered; the sender must deliver to a registered token")
            return
        }

        let unregisteredAt = environment.clock.now.addingTimeInterval(-60)
        let stamp = Int64((unregisteredAt.timeIntervalSince1970 * 1000).rounded(.down))
        apns.unregister(token: token, at: unregisteredAt)
        report.step("token \(short(token)) unregistered at \(stamp) (the app was deleted a minute ago)")
        let mark = apns.journal.last?.sequence ?? 0
        await sender.send(second, to: token)
        await sender.send(third, to: token)
        let after = apns.journal.filter { $0.sequence > mark && $0.deviceToken?.lowercased() == token }
        guard let gone = after.first(where: { $0.status == 410 }) else {
            report.fail("FakeAPNs never answered 410 Unregistered: the sender did not send push 202 to \(short(token))")
            return
        }
        let extra = after.filter { $0.sequence > gone.sequence }
        report.step("FakeAPNs answered 410 Unregistered (timestamp \(stamp)); \(extra.count) request(s) to the token followed")
        if !extra.isEmpty {
            report.fail("the sender sent \(extra.count) more request(s) to \(short(token)) after APNs answered 410 Unregistered "
                        + "(timestamp \(stamp)); remove the token and stop sending to it until it registers again")
        }

        // The app is installed again: a new registration makes the token valid.
        apns.register(token: token, topic: environment.topic)
        await sender.tokenRegistered(token)
        report.step("token \(short(token)) registered again")
        await sender.send(fourth, to: token)
        _ = try? await apns.waitForDeliveries(to: token, count: 2, timeout: environment.grace)
        let delivered = apns.deliveredNotifications(for: token).compactMap { $0.pushPayload?.notificationID.rawValue }
        if !delivered.contains("204") {
            report.fail("after \(short(token)) registered again, push 204 never reached the device; "
                        + "send to a token again once it registers again")
        }
    }

    /// The shortest time, in milliseconds, between a journal entry matching `trigger` and the
    /// request that followed it.
    static func quickestRetry(after trigger: (APNsJournalEntry) -> Bool, in entries: [APNsJournalEntry]) -> Int64? {
        var quickest: Int64?
        for (index, entry) in entries.enumerated() where trigger(entry) && index + 1 < entries.count {
            let gap = entries[index + 1].receivedAt &- entry.receivedAt
            quickest = min(quickest ?? gap, gap)
        }
        return quickest
    }

    /// The first and last 6 hex digits of a token, for messages.
    static func short(_ token: String) -> String {
        token.count > 12 ? "\(token.prefix(6))…\(token.suffix(6))" : token
    }

    static func milliseconds(_ seconds: TimeInterval) -> Int {
        Int((seconds * 1000).rounded())
    }
}
