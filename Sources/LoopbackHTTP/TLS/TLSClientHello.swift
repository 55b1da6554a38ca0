/// A parsed ClientHello (RFC 8446 §4.1.2): the fields and extensions this server decides on.
///
/// Parsing is strict and bounded: every vector length is checked against its container and
/// the RFC's limits, duplicate extensions are refused, and nothing is trusted to be present.
/// Whether the client speaks TLS 1.3 at all is the server's decision, not the parser's.
struct TLSClientHello: Equatable {
    var random: [UInt8] = []
    var legacySessionID: [UInt8] = []
    var cipherSuites: [UInt16] = []
    /// From supported_versions; empty when the extension is absent (a TLS 1.2 client).
    var supportedVersions: [UInt16] = []
    /// nil when the extension is absent.
    var supportedGroups: [UInt16]?
    var signatureAlgorithms: [UInt16]?
    /// The client's key shares in its order: group and key_exchange.
    var keyShares: [(group: UInt16, key: [UInt8])]?
    /// ALPN protocol names, nil when the extension is absent.
    var applicationProtocols: [String]?
    /// The host_name from server_name (SNI), if sent.
    var serverName: String?
    var offersPreSharedKey = false

    static func == (lhs: TLSClientHello, rhs: TLSClientHello) -> Bool {
        lhs.random == rhs.random && lhs.legacySessionID == rhs.legacySessionID
            && lhs.cipherSuites == rhs.cipherSuites && lhs.supportedVersions == rhs.supportedVersions
            && lhs.supportedGroups == rhs.supportedGroups && lhs.signatureAlgorithms == rhs.signatureAlgorithms
            && lhs.keyShares?.map(\.group) == rhs.keyShares?.map(\.group)
            && lhs.keyShares?.map(\.key) == rhs.keyShares?.map(\.key)
            && lhs.applicationProtocols == rhs.applicationProtocols && lhs.serverName == rhs.serverName
            && lhs.offersPreSharedKey == rhs.offersPreSharedKey
    }

    init() {}

    /// Parses a ClientHello body (the handshake header already removed).
    init(body: ArraySlice<UInt8>) throws(TLSAlert) {
        var reader = TLSByteReader(body)
        _ = try reader.readUInt16()  // legacy_version: supported_versions decides
        random = Array(try reader.readBytes(32))
        legacySessionID = Array(try reader.readVector(lengthBytes: 1, allowed: 0...32))
        var suites = try reader.readNested(lengthBytes: 2, allowed: 2...0xfffe)
        guard suites.remainingCount.isMultiple(of: 2) else { throw .decode("odd cipher_suites length") }
        while !suites.isEmpty { cipherSuites.append(try suites.readUInt16()) }
        let compression = try reader.readVector(lengthBytes: 1, allowed: 1...255)
        if reader.isEmpty {
            // A ClientHello without extensions is TLS 1.2 or older: supportedVersions stays
            // empty and the server answers protocol_version.
            return
        }
        var extensions = try reader.readNested(lengthBytes: 2, allowed: 0...0xffff)
        try reader.expectEnd("ClientHello")
        var seen = Set<UInt16>()
        while !extensions.isEmpty {
            let type = try extensions.readUInt16()
            var data = try extensions.readNested(lengthBytes: 2, allowed: 0...0xffff)
            guard seen.insert(type).inserted else {
                throw TLSAlert(.illegalParameter, "extension \(type) appears twice in ClientHello")
            }
            if offersPreSharedKey {
                throw TLSAlert(.illegalParameter, "pre_shared_key is not the last extension")
            }
            try parseExtension(type, &data)
        }
        if supportedVersions.contains(TLSProtocol.version13) && compression != [0] {
            throw TLSAlert(.illegalParameter, "TLS 1.3 ClientHello with compression methods other than null")
        }
    }

    private mutating func parseExtension(_ type: UInt16, _ data: inout TLSByteReader) throws(TLSAlert) {
        switch type {
        case TLSExtensionType.supportedVersions:
            supportedVersions = try Self.uint16List(&data, lengthBytes: 1, allowed: 2...254)
        case TLSExtensionType.supportedGroups:
            supportedGroups = try Self.uint16List(&data, lengthBytes: 2, allowed: 2...0xffff)
        case TLSExtensionType.signatureAlgorithms:
            signatureAlgorithms = try Self.uint16List(&data, lengthBytes: 2, allowed: 2...0xfffe)
        case TLSExtensionType.keyShare:
            var shares = try data.readNested(lengthBytes: 2, allowed: 0...0xffff)
            var list: [(group: UInt16, key: [UInt8])] = []
            while !shares.isEmpty {
                let group = try shares.readUInt16()
                let key = try shares.readVector(lengthBytes: 2, allowed: 1...0xffff)
                if list.contains(where: { $0.group == group }) {
                    throw TLSAlert(.illegalParameter, "two key shares for group \(group)")
                }
                list.append((group, Array(key)))
            }
            keyShares = list
        case TLSExtensionType.applicationLayerProtocolNegotiation:
            var names = try data.readNested(lengthBytes: 2, allowed: 2...0xffff)
            var list: [String] = []
            while !names.isEmpty {
                let name = try names.readVector(lengthBytes: 1, allowed: 1...255)
                list.append(String(decoding: name, as: UTF8.self))
            }
            applicationProtocols = list
        case TLSExtensionType.serverName:
            var names = try data.readNested(lengthBytes: 2, allowed: 1...0xffff)
            while !names.isEmpty {
                let nameType = try names.readUInt8()
                let name = try names.readVector(lengthBytes: 2, allowed: 1...0xffff)
                if nameType == 0 {
                    guard serverName == nil else { throw TLSAlert(.illegalParameter, "two host_name entries in server_name") }
                    guard name.count <= 255, name.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                        throw TLSAlert(.illegalParameter, "server_name host_name is not a printable ASCII name of at most 255 bytes")
                    }
                    serverName = String(decoding: name, as: UTF8.self)
                }
            }
        case TLSExtensionType.preSharedKey:
            offersPreSharedKey = true
            return  // ignored (no resumption); its contents are not ours to check
        default:
            return  // unknown extensions are ignored (RFC 8446 §4.2)
        }
        try data.expectEnd("extension \(type)")
    }

    private static func uint16List(_ data: inout TLSByteReader, lengthBytes: Int, allowed: ClosedRange<Int>) throws(TLSAlert) -> [UInt16] {
        var list = try data.readNested(lengthBytes: lengthBytes, allowed: allowed)
        guard list.remainingCount.isMultiple(of: 2) else { throw .decode("odd length of a 16-bit list") }
        var values: [UInt16] = []
        while !list.isEmpty { values.append(try list.readUInt16()) }
        return values
    }
}
