import Foundation
import LoopbackHTTP
import Testing
@testable import FakeBackend
import PushTestSupport

/// The endpoint table is the one declaration of the backend's endpoints: its order is the
/// enum's, routing answers every row, and the docs' endpoint table names the same rows.
@Suite struct EndpointTableTests {
    @Test func theTableHasOneRowPerEndpointInCaseOrder() {
        #expect(FakeBackend.Endpoint.table.map(\.endpoint) == FakeBackend.Endpoint.allCases)
        for endpoint in FakeBackend.Endpoint.allCases {
            #expect(FakeBackend.Endpoint.table[endpoint.index].endpoint == endpoint)
        }
    }

    /// Each row's method on its template (a sample parameter in place of `{…}`) routes to it,
    /// and every other table method on that path is listed by a 405.
    @Test(arguments: FakeBackend.Endpoint.table)
    func eachRowRoutesToItsEndpoint(_ row: EndpointDeclaration) {
        let parts = row.pathParts
        let target = parts.prefix + (parts.parameter == nil ? "" : "ab12") + parts.suffix
        #expect(BackendRoute(method: row.method, target: target) == .endpoint(row.endpoint, parameter: parts.parameter == nil ? "" : "ab12"))
        let methods = FakeBackend.Endpoint.table.filter { $0.pathTemplate == row.pathTemplate }.map(\.method)
        #expect(BackendRoute(method: "PATCH", target: target) == .methodNotAllowed(allow: methods))
    }

    @Test func aNotFoundNamesEveryPathTheTableServes() {
        let response = FakeBackend().handle(HTTPRequest(method: "GET", path: "/v2/nothing", headers: HTTPFields(), body: []))
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(response.status.code == 404)
        #expect(body.contains("The backend serves PUT and DELETE /v1/devices/{token} and POST /v1/notifications/{id}/opened and PUT and DELETE /v1/orders/{orderId}/live-activity and PUT /v1/devices/{token}/push-to-start."), "\(body)")
    }

    /// `Docs/readme/fake-backend.md` lists the endpoints as `| name | METHOD path … |` rows:
    /// exactly the table's, in its order.
    @Test func theDocsTableListsTheTable() throws {
        let url = URL(fileURLWithPath: packageRoot).appendingPathComponent("Docs/readme/fake-backend.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        var documented: [String] = []
        for line in text.split(separator: "\n") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard cells.count >= 2, cells[0].hasPrefix("`"), cells[1].hasPrefix("`") else { continue }
            let name = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            guard FakeBackend.Endpoint(rawValue: name) != nil || cells[1].contains("/v1/") else { continue }
            let request = cells[1].split(separator: "`", omittingEmptySubsequences: true).first.map(String.init) ?? ""
            documented.append("\(name) \(request)")
        }
        let declared = FakeBackend.Endpoint.table.map { "\($0.endpoint) \($0.method) \($0.pathTemplate)" }
        #expect(documented == declared)
    }
}
