// Times P-256 signing and verification (and SHA-256 throughput) with the FakeAPNs crypto
// sources compiled -O into one binary. Run through Benchmarks/crypto.sh. Prints, never asserts.
import Foundation

/// Prints the best and the median of five batches, in µs per operation: the machine is
/// shared, and the best batch is the least disturbed one.
func measure(_ name: String, iterations: Int, _ body: () -> Void) {
    body()  // warm up (tables, caches)
    var perOperation: [Double] = []
    for _ in 0..<5 {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { body() }
        perOperation.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000 / Double(iterations))
    }
    perOperation.sort()
    print("\(name): best \(String(format: "%.1f", perOperation[0])) µs/op, median \(String(format: "%.1f", perOperation[2])) µs/op (5 × \(iterations) ops)")
}

let key = APNsSigningKey.generate()
let publicKey = key.publicKey
let signingInput = Array("eyJhbGciOiJFUzI1NiIsImtpZCI6IkFCQzEyM0RFRkcifQ.eyJpc3MiOiJERUYxMjNHSElKIiwiaWF0IjoxNzAwMDAwMDAwfQ".utf8)
let signature = key.signature(for: signingInput)
var sink = 0

measure("sign (RFC 6979, ES256)", iterations: 100) { sink &+= Int(key.signature(for: signingInput)[0]) }
measure("verify (ES256)", iterations: 100) { sink &+= publicKey.isValidSignature(signature, for: signingInput) ? 1 : 0 }
measure("mint provider token", iterations: 100) {
    sink &+= ProviderToken.mint(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", signingKey: key).utf8.count
}
measure("derive public key (k·G)", iterations: 100) { sink &+= (try? APNsSigningKey(rawRepresentation: key.rawRepresentation)) == nil ? 0 : 1 }
let megabyte = [UInt8](repeating: 0x61, count: 1 << 20)
measure("SHA-256 1 MiB", iterations: 4) { sink &+= Int(SHA256.hash(megabyte)[0]) }
print("(checksum \(sink))")
