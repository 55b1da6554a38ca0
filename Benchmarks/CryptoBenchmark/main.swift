// Times P-256 signing and verification (and SHA-256 throughput) with the FakeAPNs crypto
// sources compiled -O into one binary. Run through Benchmarks/crypto.sh. Prints, never asserts.
import Foundation

func measure(_ name: String, iterations: Int, _ body: () -> Void) {
    body()  // warm up (tables, caches)
    let start = DispatchTime.now().uptimeNanoseconds
    for _ in 0..<iterations { body() }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000
    print("\(name): \(String(format: "%.1f", elapsed / Double(iterations))) µs/op (\(iterations) ops)")
}

let key = APNsSigningKey.generate()
let publicKey = key.publicKey
let signingInput = Array("eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoxNzAwMDAwMDAwfQ".utf8)
let signature = key.signature(for: signingInput)
var sink = 0

measure("sign (RFC 6979, ES256)", iterations: 200) { sink &+= Int(key.signature(for: signingInput)[0]) }
measure("verify (ES256)", iterations: 200) { sink &+= publicKey.isValidSignature(signature, for: signingInput) ? 1 : 0 }
measure("mint provider token", iterations: 200) {
    sink &+= ProviderToken.mint(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signingKey: key).utf8.count
}
measure("derive public key (k·G)", iterations: 200) { sink &+= (try? APNsSigningKey(rawRepresentation: key.rawRepresentation)) == nil ? 0 : 1 }
let megabyte = [UInt8](repeating: 0x61, count: 1 << 20)
measure("SHA-256 1 MiB", iterations: 20) { sink &+= Int(SHA256.hash(megabyte)[0]) }
print("(checksum \(sink))")
