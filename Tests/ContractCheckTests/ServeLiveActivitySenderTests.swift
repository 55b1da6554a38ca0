import Foundation
import PushTestSupport
import Testing
@testable import ContractCheckCLI
import FakeAPNs
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 24: real senders' Live Activity pushes over `contract-check serve --tls`, each
/// library changed only in where it connects (127.0.0.1 and serve's port) and trusting serve's
/// CA through `SSL_CERT_FILE`, signing its own provider tokens with a `.p8` serve verifies.
/// The order tracker's life: a `start` to the push-to-start token the admin API gave the
/// device, an `update` and an `end` to the activity's push token (read from the admin API, as
/// the app would send it to the backend); each must reach a 200, and the device's activity
/// must end dismissed with the delivered stage.
///
/// aioapns (`PushType.LIVEACTIVITY`, any JSON body) and kalyke-apns (`LiveActivityClient`,
/// `LiveActivityPayload`) send Live Activities; apns2-up has no `liveactivity` push type and
/// its `Payload` has no way to put `event`, `timestamp` or `content-state` in `aps`;
/// pyapns-client takes any `push_type` but its `IOSPayload` likewise builds `aps` from alert
/// members only — so those two are left to curl, which sends the same three pushes.
/// A sender that is not installed is skipped (`scripts/install-peers.sh` installs them all).
@Suite struct ServeLiveActivitySenderTests {
    static let keyID = "LAKEY00001"
    static let teamID = "LATEAM0001"
    static let device = String(repeating: "4d", count: 32)

    static let aioapnsPython = python(with: "aioapns")
    static let kalykePython = python(with: "kalyke")

    /// python3 on PATH, if it imports `module` (and PyJWT, which the senders sign with).
    static func python(with module: String) -> String? {
        ExternalPeer.find("python3").flatMap { ExternalPeer.pythonHas("\(module), jwt") ? $0 : nil }
    }

    /// Runs `executable` with `arguments` (and `environment` added), bounded by `timeout`
    /// (`timeout` kills it after 60 s); returns its standard output and error.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + ["timeout", "60", executable] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// A serve run with TLS and a `.p8` key, the device registered for the app, and the
    /// device's push-to-start token from the admin API.
    struct Setup {
        let serve: ServeRun
        let directory: URL
        let keyFile: String
        let key: APNsSigningKey
        let caFile: String
        let port: Int
        let pushToStart: String
        /// The first push's `aps.timestamp`: ten seconds ago, so the three pushes' timestamps
        /// (+0, +1, +2) rise and none is in the future.
        let timestamp = Int(Date().timeIntervalSince1970) - 10

        init() async throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("la-senders-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            key = APNsSigningKey.generate()
            keyFile = directory.appendingPathComponent("AuthKey_\(ServeLiveActivitySenderTests.keyID).p8").path
            try Data(key.pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyFile))
            serve = try await ServeRun(["--tls", "--tls-ca-dir", directory.path,
                                        "--apns-key", "\(ServeLiveActivitySenderTests.keyID):\(ServeLiveActivitySenderTests.teamID):\(keyFile)"])
            caFile = directory.appendingPathComponent("ca.pem").path
            port = try #require(URL(string: serve.apns)?.port)
            let device = ServeLiveActivitySenderTests.device
            let registered = try await serve.send("POST", serve.admin + "/apns/tokens",
                                                  body: #"{"token":"\#(device)","topic":"com.example.app"}"#)
            #expect(registered.status == 204, "\(registered.body)")
            let answer = try await serve.send("POST", serve.admin + "/apns/live-activities/push-to-start", body: #"{"device":"\#(device)"}"#)
            #expect(answer.status == 200, "\(answer.body)")
            let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            pushToStart = try #require(object?["pushToStartToken"] as? String)
        }

        /// The device's activities as `GET /apns/live-activities` lists them.
        func activities() async throws -> [[String: Any]] {
            let answer = try await serve.send("GET", serve.admin + "/apns/live-activities")
            let object = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
            let devices = object?["devices"] as? [[String: Any]] ?? []
            return devices.first { $0["deviceToken"] as? String == ServeLiveActivitySenderTests.device }?["activities"] as? [[String: Any]] ?? []
        }

        /// The three pushes reached 200; the activity ended dismissed at the delivered stage
        /// with the end's timestamp; the journal and serve's log show start, update, end.
        /// `before`: the deliveries of pushes the sender sent first (kalyke's own start).
        func checkTheOrderTracked(_ sender: String, statuses: [Int], before: [String] = []) async throws {
            #expect(statuses == [200, 200, 200], "\(sender): \(serve.output.output.suffix(6))")
            let activities = try await activities()
            #expect(activities.count == 1, "\(sender): \(activities)")
            let activity = try #require(activities.first)
            #expect(activity["state"] as? String == "dismissed", "\(sender): \(activity)")
            #expect(activity["orderId"] as? String == "8F3K")
            #expect((activity["contentState"] as? [String: Any])?["stage"] as? String == "delivered", "\(sender): \(activity)")
            #expect((activity["contentState"] as? [String: Any])?["itemsPicked"] as? Int == 12, "\(sender): \(activity)")
            #expect(activity["timestamp"] as? Int == timestamp + 2, "\(sender): \(activity)")
            let journal = try await serve.send("GET", serve.admin + "/apns/journal")
            let entries = (try JSONSerialization.jsonObject(with: Data(journal.body.utf8)) as? [String: Any])?["entries"] as? [[String: Any]] ?? []
            #expect(entries.map { $0["delivery"] as? String } == before + ["activityStarted", "activityUpdated", "activityEnded"],
                    "\(sender): \(entries)")
            #expect(entries.allSatisfy { $0["protocolVersion"] as? String == "HTTP/2" && $0["pushType"] as? String == "liveactivity" })
            // The live log is written on its own thread: wait (bounded) for each line.
            // (kalyke's lines also note that its provider token's iat is a string.)
            let started = try await serve.waitForLine { $0.contains(" 200 delivery=activityStarted (") && $0.contains("started activity ") && $0.contains(" for order 8F3K)") }
            let updated = try await serve.waitForLine { $0.contains(" 200 delivery=activityUpdated (") && $0.contains("applied: stage onTheWay)") }
            let ended = try await serve.waitForLine { $0.contains(" 200 delivery=activityEnded (") && $0.contains("ended; dismissed at ") }
            #expect(started != nil && updated != nil && ended != nil, "\(sender): \(serve.output.output)")
            print([started, updated, ended].compactMap { $0 }.joined(separator: "\n"))
        }

        func stop() {
            #expect(serve.stop() == 0)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// Runs the sender script for `sender`; returns what it printed (`statuses`: the three
    /// pushes' statuses).
    static func send(_ sender: String, python: String, setup: Setup) throws -> [String: Any] {
        let script = setup.directory.appendingPathComponent("send-live-activity.py")
        try Data(source.utf8).write(to: script)
        let output = try run(python, [script.path, sender, String(setup.port), setup.keyFile, keyID, teamID, setup.serve.admin,
                                      setup.pushToStart, device, String(setup.timestamp)],
                             environment: ["SSL_CERT_FILE": setup.caFile, "SSL_CERT_DIR": "/nonexistent"])
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            Issue.record("\(sender) printed no result: \(output)")
            return [:]
        }
        if let error = object["error"] as? String { Issue.record("\(sender): \(error)") }
        return object
    }

    @Test(.enabled(if: aioapnsPython != nil, "aioapns is not installed (scripts/install-peers.sh)"))
    func aioapnsTracksAnOrder() async throws {
        let setup = try await Setup()
        defer { setup.stop() }
        let result = try Self.send("aioapns", python: try #require(Self.aioapnsPython), setup: setup)
        try await setup.checkTheOrderTracked("aioapns", statuses: result["statuses"] as? [Int] ?? [])
    }

    @Test(.enabled(if: kalykePython != nil, "kalyke-apns is not installed (scripts/install-peers.sh)"))
    func kalykeTracksAnOrder() async throws {
        let setup = try await Setup()
        defer { setup.stop() }
        let result = try Self.send("kalyke-apns", python: try #require(Self.kalykePython), setup: setup)
        // Its own start payload lacks attributes: 200, and the device starts nothing.
        #expect(result["libraryStart"] as? Int == 200)
        try await setup.checkTheOrderTracked("kalyke-apns", statuses: result["statuses"] as? [Int] ?? [],
                                             before: ["droppedUndecodableAttributes"])
    }

    /// curl over TLS (ALPN h2), trusting only serve's CA, with a provider token minted from
    /// the same `.p8`: the pushes apns2-up and pyapns-client cannot send.
    @Test(.enabled(if: ServeTLSTests.curl != nil, "curl is not installed"))
    func curlTracksAnOrder() async throws {
        let setup = try await Setup()
        defer { setup.stop() }
        let providerToken = ProviderToken.mint(keyID: Self.keyID, teamID: Self.teamID, signingKey: setup.key)
        func push(_ token: String, _ aps: String) throws -> Int {
            let answer = try ServeRun.curl([
                "-sS", "--max-time", "20", "--http2", "--cacert", setup.caFile, "-o", "/dev/null", "-w", "%{http_code}",
                "-H", "authorization: bearer \(providerToken)", "-H", "apns-topic: com.example.app.push-type.liveactivity",
                "-H", "apns-push-type: liveactivity", "-H", "apns-priority: 10", "-d", #"{"aps":{\#(aps)}}"#,
                "https://127.0.0.1:\(setup.port)/3/device/\(token)"])
            return Int(answer) ?? 0
        }
        let t = setup.timestamp
        var statuses = [try push(setup.pushToStart, Self.startAPS(t))]
        let token = try #require(try await setup.activities().first?["pushToken"] as? String)
        statuses.append(try push(token, Self.updateAPS(t + 1)))
        statuses.append(try push(token, Self.endAPS(t + 2)))
        try await setup.checkTheOrderTracked("curl", statuses: statuses)
    }

    /// The three pushes' `aps` members, as the script sends them too.
    static func startAPS(_ t: Int) -> String {
        #""timestamp":\#(t),"event":"start","content-state":{"stage":"confirmed","eta":788921100,"itemsPicked":0,"itemsTotal":12},"attributes-type":"OrderTrackerAttributes","attributes":{"orderId":"8F3K"},"alert":{"title":"Order confirmed","body":"Arriving in about 45 minutes"},"input-push-token":1"#
    }

    static func updateAPS(_ t: Int) -> String {
        #""timestamp":\#(t),"event":"update","content-state":{"stage":"onTheWay","eta":788921100,"itemsPicked":12,"itemsTotal":12}"#
    }

    static func endAPS(_ t: Int) -> String {
        #""timestamp":\#(t),"event":"end","content-state":{"stage":"delivered","itemsPicked":12,"itemsTotal":12},"dismissal-date":\#(t)"#
    }

    /// The sender script: start, update, end with one library, patched only in where it
    /// connects; it reads the new activity's push token from the admin API between start and
    /// update, as the app would hand it to the backend.
    static let source = #"""
# One real APNs sender library tracks an order with a Live Activity over serve --tls.
import asyncio, json, sys, urllib.request
from datetime import datetime, timezone
sender, port, key_path, key_id, team_id, admin, push_to_start, device, t = sys.argv[1:10]
port, t = int(port), int(t)
topic = "com.example.app.push-type.liveactivity"
eta = 788921100   # seconds since 2001-01-01, as the app's JSONDecoder reads a Date
pushes = [
    ("start", t, {"stage": "confirmed", "eta": eta, "itemsPicked": 0, "itemsTotal": 12}),
    ("update", t + 1, {"stage": "onTheWay", "eta": eta, "itemsPicked": 12, "itemsTotal": 12}),
    ("end", t + 2, {"stage": "delivered", "itemsPicked": 12, "itemsTotal": 12}),
]
result = {"statuses": [], "error": None}

def activity_token():
    with urllib.request.urlopen(admin + "/apns/live-activities", timeout=10) as answer:
        devices = json.load(answer)["devices"]
    return [d for d in devices if d["deviceToken"] == device][0]["activities"][0]["pushToken"]

def aps(event, timestamp, state):
    members = {"timestamp": timestamp, "event": event, "content-state": state}
    if event == "start":
        members.update({"attributes-type": "OrderTrackerAttributes", "attributes": {"orderId": "8F3K"},
                        "alert": {"title": "Order confirmed", "body": "Arriving in about 45 minutes"}, "input-push-token": 1})
    if event == "end":
        members["dismissal-date"] = timestamp
    return {"aps": members}

try:
    if sender == "aioapns":
        from aioapns import APNs, NotificationRequest, PushType
        from aioapns.connection import APNsDevelopmentClientProtocol
        class Fake(APNsDevelopmentClientProtocol):   # where it connects; TLS trusts SSL_CERT_FILE
            APNS_SERVER = "127.0.0.1"
            APNS_PORT = port
        async def main():
            client = APNs(key=open(key_path).read(), key_id=key_id, team_id=team_id, topic=topic, use_sandbox=True)
            client.pool.protocol_class = Fake
            token = push_to_start
            for event, timestamp, state in pushes:
                r = await asyncio.wait_for(client.send_notification(NotificationRequest(
                    device_token=token, message=aps(event, timestamp, state), priority=10,
                    push_type=PushType.LIVEACTIVITY)), 20)
                result["statuses"].append(int(r.status))
                if event == "start":
                    token = activity_token()
            client.pool.close()
        asyncio.run(main())
    elif sender == "kalyke-apns":
        from kalyke import LiveActivityClient, LiveActivityApnsConfig, LiveActivityEvent, LiveActivityPayload, PayloadAlert
        class Fake(LiveActivityClient):
            @property
            def _base_url(self):                      # where it connects; TLS trusts SSL_CERT_FILE
                return "https://127.0.0.1:%d" % port
        client = Fake(use_sandbox=True, team_id=team_id, auth_key_id=key_id, auth_key_filepath=key_path)
        def send(token, payload):
            asyncio.run(client.send_message(device_token=token, payload=payload,
                                            apns_config=LiveActivityApnsConfig(topic=topic)))
            return 200                                # kalyke raises on anything else
        def payload(event, timestamp, state):
            when = datetime.fromtimestamp(timestamp, tz=timezone.utc)
            start = event == "start"
            return LiveActivityPayload(
                alert=PayloadAlert(title="Order confirmed", body="Arriving in about 45 minutes") if start else None,
                timestamp=when, event=LiveActivityEvent(event), content_state=state,
                dismissal_date=when if event == "end" else None,
                attributes_type="OrderTrackerAttributes" if start else None,
                attributes={"orderId": "8F3K"} if start else None)
        # kalyke 1.5's LiveActivityPayload insists on attributes_type and attributes for a
        # start but leaves both out of the JSON it sends: APNs says 200, the device starts
        # nothing. The fake journals it (droppedUndecodableAttributes); the start that works
        # is the same payload as a dict (send_message takes one) with the two members added.
        event, timestamp, state = pushes[0]
        result["libraryStart"] = send(push_to_start, payload(event, timestamp - 1, state))
        body = payload(event, timestamp, state).dict()
        body["aps"].update({"attributes-type": "OrderTrackerAttributes", "attributes": {"orderId": "8F3K"}})
        result["statuses"].append(send(push_to_start, body))
        token = activity_token()
        for event, timestamp, state in pushes[1:]:
            result["statuses"].append(send(token, payload(event, timestamp, state)))
    else:
        result["error"] = "unknown sender " + sender
except Exception as e:
    result["error"] = "%s: %s" % (type(e).__name__, e)
print(json.dumps(result))
"""#
}
