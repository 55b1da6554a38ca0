import Foundation
import Testing
@testable import FakeAPNs

/// The log line is built from bytes on every request; the delivery is named without reflection.
@Suite struct APNsLogLineTests {
    @Test func deliveryNamesAreTheCaseNames() {
        let all: [DeliveryOutcome] = [.delivered, .deliveredTwice, .storedWhileOffline, .droppedOffline, .backgroundBudgetExceeded]
        for delivery in all { #expect(APNsJournalEntry.caseName(delivery) == "\(delivery)") }
    }
}
