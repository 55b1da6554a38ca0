import Foundation
import Testing
@testable import FakeAPNs

/// The log line is built from bytes on every request; the delivery is named without reflection.
@Suite struct APNsLogLineTests {
    @Test func deliveryNamesAreTheCaseNames() {
        for delivery in DeliveryOutcome.allCases { #expect(APNsJournalEntry.caseName(delivery) == "\(delivery)") }
    }
}
