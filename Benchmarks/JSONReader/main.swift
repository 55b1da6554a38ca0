// Microbenchmark: parse a ~2 KB APNs payload N times with JSONReader, and with Foundation's
// JSONSerialization in the same run for scale. Built by Benchmarks/json-reader.sh (-O).
import Foundation

func payload() -> [UInt8] {
    var items: [String] = []
    for index in 0..<14 {
        items.append(#"    {"sku": "SKU-\#(index)-8F3K", "name": "Margherita pizza \#(index) — große", "qty": \#(index % 3 + 1), "price": \#(index).95, "veg": \#(index % 2 == 0)}"#)
    }
    let text = """
    {
      "aps": {
        "alert": { "title": "On the way", "body": "Your order \\"8F3K\\" is on the way — 12 min 🛵" },
        "mutable-content": 1, "category": "ORDER_UPDATE", "thread-id": "order-8F3K", "sound": "default"
      },
      "notificationId": "91", "accountId": "a1", "route": "orders/8F3K", "orderVersion": 7,
      "secret": "c2VjcmV0IGNpcGhlcnRleHQgd2l0aCBzb21lIGxlbmd0aCB0byBpdA==",
      "imageUrl": "https://img.example.com/rider/12.jpg",
      "items": [
    \(items.joined(separator: ",\n"))
      ]
    }
    """
    return Array(text.utf8)
}

let bytes = payload()
if CommandLine.arguments.dropFirst().first == "--emit-payload" {
    FileHandle.standardOutput.write(Data(bytes))
    exit(0)
}
// --files PATH...: read and parse each file once (what `contract-check validate` does first).
if CommandLine.arguments.dropFirst().first == "--files" {
    let paths = CommandLine.arguments.dropFirst(2)
    let start = DispatchTime.now().uptimeNanoseconds
    var parsed = 0
    for path in paths {
        guard let data = FileManager.default.contents(atPath: path) else { continue }
        if (try? JSONReader.parse(data)) != nil { parsed += 1 }
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
    print("JSONReader over \(paths.count) files: \(String(format: "%.0f", elapsed)) ms in-process (\(parsed) parsed)")
    exit(0)
}
let iterations = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
do {
    _ = try JSONReader.parse(bytes)
} catch {
    print("payload does not parse: \(error)")
    exit(1)
}

func measure(_ label: String, _ body: () -> Int) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    let checksum = body()
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
    let perParse = elapsed / Double(iterations)
    print("\(label): \(String(format: "%.2f", perParse)) µs/parse, \(String(format: "%.0f", Double(bytes.count) / perParse)) MB/s (checksum \(checksum))")
    return perParse
}

print("payload: \(bytes.count) bytes, \(iterations) iterations")
let ours = measure("JSONReader.parse") {
    var count = 0
    for _ in 0..<iterations {
        if case .object(let members)? = try? JSONReader.parse(bytes).value { count &+= members.count }
    }
    return count
}
if CommandLine.arguments.dropFirst(2).first == "--reader-only" { exit(0) }
let data = Data(bytes)
let foundation = measure("JSONSerialization") {
    var count = 0
    for _ in 0..<iterations {
        if let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] { count &+= object.count }
    }
    return count
}
print("ratio JSONReader/JSONSerialization: \(String(format: "%.2f", ours / foundation))")
