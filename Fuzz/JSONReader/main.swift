// libFuzzer target for JSONReader: any bytes must yield a tree or a JSONSyntaxError whose
// position lies inside the input, never a trap, an overflow or a sanitizer report.
// Built with the Contracts sources it reaches (Fuzz/run.sh lists them) in one module by
// Fuzz/run.sh JSONReader SECONDS.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    do {
        let root = try JSONReader.parse(bytes, maxDepth: 64)
        checkPositions(root, size: size)
        // Reading the same bytes as an array must give the same tree.
        guard (try? JSONReader.parse(Array(bytes), maxDepth: 64)) == root else { abort() }
    } catch {
        let position = error.position
        if position.offset < 0 || position.offset > size || position.line < 1
            || position.column < 1 || position.column > position.offset + 1 || error.message.isEmpty {
            abort()
        }
    }
    return 0
}

/// Every value and key must start inside the input, and positions must not go backwards.
func checkPositions(_ root: JSONNode, size: Int) {
    var pending = [root]
    while let node = pending.popLast() {
        guard node.position.offset >= 0, node.position.offset < size, node.position.column >= 1 else { abort() }
        switch node.value {
        case .array(let elements):
            var previous = node.position
            for element in elements {
                guard previous < element.position else { abort() }
                previous = element.position
            }
            pending.append(contentsOf: elements)
        case .object(let members):
            var previous = node.position
            for member in members {
                guard previous < member.keyPosition, member.keyPosition < member.value.position else { abort() }
                previous = member.value.position
            }
            pending.append(contentsOf: members.map(\.value))
        default:
            break
        }
    }
}
