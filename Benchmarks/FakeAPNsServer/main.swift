// fake-apns-bench-server: FakeAPNs as a process, for Benchmarks/apns.sh. In the benchmark
// package: `swift build -c release --package-path Benchmarks --product fake-apns-bench-server`.
// (`contract-check serve --apns-port` is the user-facing way to run FakeAPNs.)
//
// Generates a signing key, registers it, accepts any well-formed device token, and prints
//   listening http://127.0.0.1:PORT
//   token <a valid ES256 provider token, good for an hour>
// then runs until killed. Every request is validated, its token checked (verified once per
// connection), its payload checked against the v1 contract, journaled and delivered.
// With `--tls` (Benchmarks/tls.sh) it serves TLS with a fresh test CA and also prints
//   ca <path of the CA certificate>
import Foundation
import FakeAPNs
import LoopbackHTTP

var configuration = FakeAPNsConfiguration()
configuration.acceptAnyDeviceToken = true
configuration.topics = ["com.example.app"]
let arguments = CommandLine.arguments.dropFirst()
if let port = arguments.lazy.compactMap(UInt16.init).first { configuration.port = port }
if arguments.contains("--tls") { configuration.tls = try LoopbackTLS.generated() }

let key = APNsSigningKey.generate()
let apns = try FakeAPNs.startListening(configuration: configuration)
apns.registerSigningKey(key.publicKey, keyID: "BENCHKEY01", teamID: "BENCHTEAM1")
let token = ProviderToken.mint(keyID: "BENCHKEY01", teamID: "BENCHTEAM1", signingKey: key)
let caLine = configuration.tls.map { "ca \($0.caCertificatePath)\n" } ?? ""
FileHandle.standardOutput.write(Data("listening \(apns.baseURL.absoluteString)\n\(caLine)token \(token)\n".utf8))
// No async main: valgrind (callgrind) dies starting the concurrency runtime's threads.
while true { sleep(3600) }
