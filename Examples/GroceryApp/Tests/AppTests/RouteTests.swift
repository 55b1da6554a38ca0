import Testing
import App
import Contracts

/// The app parses routes itself (it never links the toolkit); this keeps its reading equal to
/// the contract's, the single place the route format comes from.
@Suite struct RouteTests {
    static let paths = [
        "home", "orders/8F3K", "offers/FREEDEL18", "orders/a_b-C9", "orders/" + String(repeating: "x", count: 64),
        "orders/" + String(repeating: "x", count: 65), "orders/", "offers/", "orders/8F3K/extra", "orders/8F3K?x=1",
        "Home", "ORDERS/8F3K", "orders/é", "orders/8F 3K", "wallet/vouchers/33", "", "/orders/8F3K",
    ]

    /// Breaks if the app reads a route the contract does not, or the other way round.
    @Test(arguments: paths)
    func theAppReadsARouteAsTheContractDoes(path: String) {
        #expect(App.Route(path: path)?.description == Contracts.Route(path)?.description)
    }
}
