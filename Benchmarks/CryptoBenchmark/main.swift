// Times P-256 signing and verification (and SHA-256 throughput) with the FakeAPNs crypto
// sources compiled -O into one binary. Run through Benchmarks/crypto.sh. Prints, never asserts.
//
// With arguments `OPERATION COUNT` it runs one operation COUNT times and nothing else (after
// one warm-up call), for instruction counts under callgrind (Benchmarks/crypto.sh --callgrind
// runs each): sign, verify, derive, x25519, p256-ecdh, gcm-seal-16k, gcm-open-16k,
// gcm-seal-300, gcm-open-300.
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
let operations = benchmarkOperations()
if CommandLine.arguments.count == 3, let count = Int(CommandLine.arguments[2]) {
    guard let operation = operations[CommandLine.arguments[1]] else {
        print("unknown operation \(CommandLine.arguments[1]); one of \(operations.keys.sorted())")
        exit(2)
    }
    var checksum = operation()
    for _ in 0..<count { checksum &+= operation() }
    print("\(CommandLine.arguments[1]) × \(count) (checksum \(checksum))")
    exit(0)
}
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

/// The operations `OPERATION COUNT` can run, each returning something to keep it alive.
func benchmarkOperations() -> [String: () -> Int] {
    let key = APNsSigningKey.generate()
    let signingInput = Array("eyJhbGciOiJFUzI1NiJ9.eyJpc3MiOiJERUYxMjNHSElKIn0".utf8)
    let signature = key.signature(for: signingInput)
    let x25519Private = secureRandomBytes(32), x25519Peer = X25519.publicKey(privateKey: secureRandomBytes(32))
    let p256 = P256KeyPair.generate(), p256Peer = P256KeyPair.generate().publicKeyX963
    let aead = AES128GCM(key: [UInt8](repeating: 7, count: 16))!
    let nonce = [UInt8](repeating: 1, count: 12), header: [UInt8] = [23, 3, 3, 0x40, 0x11]
    let record16k = [UInt8](repeating: 0x61, count: 16 * 1024), record300 = [UInt8](repeating: 0x61, count: 300)
    let sealed16k = aead.seal(record16k, nonce: nonce, additionalData: header)
    let sealed300 = aead.seal(record300, nonce: nonce, additionalData: header)
    return [
        "sign": { Int(key.signature(for: signingInput)[0]) },
        "verify": { key.publicKey.isValidSignature(signature, for: signingInput) ? 1 : 0 },
        "derive": { (try? APNsSigningKey(rawRepresentation: key.rawRepresentation)) == nil ? 0 : 1 },
        "x25519": {
            Int(X25519.publicKey(privateKey: x25519Private)[0])
                &+ Int(X25519.sharedSecret(privateKey: x25519Private, peerPublicKey: x25519Peer)?[0] ?? 0)
        },
        "p256-ecdh": { Int(p256.sharedSecret(peerPublicKeyX963: p256Peer)?[0] ?? 0) },
        "gcm-seal-16k": { Int(aead.seal(record16k, nonce: nonce, additionalData: header)[0]) },
        "gcm-open-16k": { aead.open(sealed16k[...], nonce: nonce, additionalData: header)?.count ?? 0 },
        "gcm-seal-300": { Int(aead.seal(record300, nonce: nonce, additionalData: header)[0]) },
        "gcm-open-300": { aead.open(sealed300[...], nonce: nonce, additionalData: header)?.count ?? 0 },
    ]
}
