// Classifier for Fuzz/json-differential.py: reads base64 lines on stdin and prints, per
// line, 1 when JSONReader accepts the decoded bytes and 0 when it rejects them.
import Foundation

var verdicts = ""
while let line = readLine() {
    guard let data = Data(base64Encoded: line) else {
        verdicts += "?\n"
        continue
    }
    verdicts += (try? JSONReader.parse(data)) != nil ? "1\n" : "0\n"
}
print(verdicts, terminator: "")
