// fake-apns-bench-server: FakeAPNs as a process, for Benchmarks/apns.sh. In the benchmark
// package: `swift build -c release --package-path Benchmarks --product fake-apns-bench-server`.
// (`contract-check serve --apns-port` is the user-facing way to run FakeAPNs.)
//
// Generates a signing key, registers it, accepts any well-formed device token, and prints
//   listening http://127.0.0.1:PORT
//   token <a valid ES256 provider token, good for an hour>
// then runs until killed. Every request is validated, its token checked (verified once per
// connection), its payload checked against the v1 contract, journaled and delivered.
// It also starts 64 Live Activities (order 8F3K, on device cdcd…cd) whose push tokens are
// the bytes 01 to 40, each 32 times, in hex: apns-load --live-activity pushes updates to them.
// With `--broadcast` (Benchmarks/broadcast.sh) it also creates a channel (no storage) and
// 1,000 activities on 16 devices (ef…ef, f0…f0, …), all subscribed to it, and prints
//   channel <the channel id>
// With `--tls` (Benchmarks/tls.sh) it serves TLS with a fresh test CA and also prints
//   ca <path of the CA certificate>
// With `--client-ca FILE` as well it asks every TLS client for a certificate (certificate-based
// provider authentication) and trusts the PEM CA certificates in FILE to have issued it.
import Contracts
import Foundation
import FakeAPNs
import LoopbackHTTP

var configuration = FakeAPNs.Configuration()
configuration.acceptAnyDeviceToken = true
configuration.topics = ["com.example.app"]
configuration.liveActivities.activitiesPerDevice = 64
let arguments = CommandLine.arguments.dropFirst()
if let port = arguments.lazy.compactMap(UInt16.init).first { configuration.port = port }
if arguments.contains("--tls") { configuration.tls = try LoopbackTLS.generated() }
if let flag = arguments.firstIndex(of: "--client-ca"), flag + 1 < arguments.endIndex {
    let pem = try String(contentsOfFile: arguments[flag + 1], encoding: .utf8)
    configuration.clientCertificates = APNsClientCertificates(trustedAuthoritiesPEM: [pem])
}

let key = APNsSigningKey.generate()
let apns = try FakeAPNs.startListening(configuration: configuration)
apns.registerSigningKey(key.publicKey, keyID: "BENCHKEY01", teamID: "BENCHTEAM1")
for index in 1...64 {
    let byte = String(index, radix: 16)
    apns.startLiveActivity(device: String(repeating: "cd", count: 32), attributes: OrderTrackerAttributes(orderId: "8F3K"),
                           contentState: .init(stage: .picking, itemsPicked: 3, itemsTotal: 12),
                           pushToken: String(repeating: (byte.count == 1 ? "0" : "") + byte, count: 32), timestamp: 1_767_225_600)
}
var channelLine = ""
if arguments.contains("--broadcast") {
    let channel = apns.createChannel(bundleID: "com.example.app", storesMessages: false)
    for index in 0..<1000 {
        let device = String(repeating: String(0xef + index / 64, radix: 16), count: 32)
        if let activity = apns.startLiveActivity(device: device, attributes: OrderTrackerAttributes(orderId: "B\(index)"),
                                                 contentState: .init(stage: .picking, itemsPicked: 3, itemsTotal: 12),
                                                 timestamp: 1_767_225_600) {
            apns.subscribe(pushToken: activity.pushToken, toChannel: channel)
        }
    }
    channelLine = "channel \(channel)\n"
}
let token = ProviderToken.mint(keyID: "BENCHKEY01", teamID: "BENCHTEAM1", signingKey: key)
let caLine = configuration.tls.map { "ca \($0.caCertificatePath)\n" } ?? ""
FileHandle.standardOutput.write(Data("listening \(apns.baseURL.absoluteString)\n\(caLine)\(channelLine)token \(token)\n".utf8))
// No async main: valgrind (callgrind) dies starting the concurrency runtime's threads.
while true { sleep(3600) }
