// The Montgomery arithmetic against values computed independently (Python integers), with
// the carry-heavy edges: p − 1, n − 1, 2^255, values that wrap, inputs ≥ the modulus.
@testable import PushCrypto
import Testing
import PushTestSupport

@Suite struct CryptoFieldArithmeticTests {
    struct FieldVector: Sendable, CustomStringConvertible {
        var a: String
        var b: String
        var product: String
        var sum: String
        var difference: String
        var description: String { "a = \(a.prefix(8))…, b = \(b.prefix(8))…" }
    }

    struct ScalarVector: Sendable, CustomStringConvertible {
        var a: String
        var b: String
        var product: String
        var inverseOfA: String
        var description: String { "a = \(a.prefix(8))…, b = \(b.prefix(8))…" }
    }

    /// Six seeded random pairs, then edges. Expected values: a·b, a + b, a − b mod p.
    static let fieldVectors: [FieldVector] = [
        FieldVector(a: "9ebe2de52517508454c2686dfd49a3031b1436b6677975545dd5073b6a51c7bf", b: "62ca16a6692e64880183913a1edbae62b210b26fa3b9d506e102498e304fc5ef",
                    product: "8b608e61e977127789969d13083d4420737132b572bcf2f6fc19861b44294101",
                    sum: "0188448c8e45b50b5645f9a81c255165cd24e9250b334a5b3ed750c99aa18daf",
                    difference: "3bf4173ebbe8ebfc533ed733de6df4a069038446c3bfa04d7cd2bdad3a0201d0"),
        FieldVector(a: "91cad90a9d9ded33bd556b678c6c28b64123b775a3aa914e8fdd47dae9d982dd", b: "7e8d3db28baa34760d86ec35273a5c6ca8d439cdc7395d538bc8ec2685220959",
                    product: "ad82543acd29dc3f1ea173890da65492331944e6794ad2f87c92d4016faacba8",
                    sum: "105816be294821a8cadc579cb3a68522e9f7f1426ae3eea21ba634016efb8c37",
                    difference: "133d9b5811f3b8bdafce7f326531cc49984f7da7dc7133fb04145bb464b77984"),
        FieldVector(a: "61d88b1bec2337a496dc0ebeaaa404735ce98d6f14517692b87a96dfd1d30290", b: "7b91dbda458a35463e7e8af7f27cbd3665458abcf577b23a654ec83284b197b8",
                    product: "3421f0157317a4b2729c5d395c107dbb59e4cbdbb82ba29c5637fd71ab836e14",
                    sum: "dd6a66f631ad6cead55a99b69d20c1a9c22f182c09c928cd1dc95f1256849a48",
                    difference: "e646af40a699025f585d83c6b827473cf7a402b31ed9c458532bcead4d216ad7"),
        FieldVector(a: "1a62cd94bf6f67a36966d5afc323016b2c177c1783dbc601238a448c645994a7", b: "a5e9db28babf51fab73dac4a78c22fe3fbbb76818a85bd1367a806637f4b8516",
                    product: "c5a0e1d399ca01b8954bfc39942e212e75d903ca720926f22d6b54a02c320a0b",
                    sum: "c04ca8bd7a2eb99e20a481fa3be5314f27d2f2990e6183148b324aefe3a519bd",
                    difference: "7478f26b04b015a9b22929654a60d187305c0596f95608edbbe23e28e50e0f90"),
        FieldVector(a: "fba9d6fb76962aea755b549c402bfba2718c5d72578c247168719dadea74a1cd", b: "7fe32a1c471ecf1af3881b2fbc50610cc79f7addfceebac4a661f33b16278002",
                    product: "93fec1c913c992327df7c62fe67eabcb89194befb323707662422fa17d2a19fc",
                    sum: "7b8d0118bdb4fa0468e36fcbfc7c5caf392bd84f547adf360ed390e9009c21d0",
                    difference: "7bc6acdf2f775bcf81d3396c83db9a95a9ece2945a9d69acc20faa72d44d21cb"),
        FieldVector(a: "3f9b60c54b50846983b18dd90fb03272f5316a0fb24401785c185d23aa2228ee", b: "c066bcca945e14e6ff0004943dd16b983eead1cb721ffdb7905bec738d9de01a",
                    product: "511005947bc2a6b0c23e08bf2bdd3f826ce7e648f2beedb3c2600d380dbc379f",
                    sum: "00021d90dfae994f82b1926d4d819e0b341c3bda2463ff2fec74499737c00909",
                    difference: "7f34a3f9b6f26f8384b18944d1dec6dab6469845402403c0cbbc70b01c8448d3"),
        FieldVector(a: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe", b: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe",
                    product: "0000000000000000000000000000000000000000000000000000000000000001",
                    sum: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffd",
                    difference: "0000000000000000000000000000000000000000000000000000000000000000"),
        FieldVector(a: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe", b: "0000000000000000000000000000000000000000000000000000000000000002",
                    product: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffd",
                    sum: "0000000000000000000000000000000000000000000000000000000000000001",
                    difference: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffc"),
        FieldVector(a: "8000000000000000000000000000000000000000000000000000000000000000", b: "8000000000000000000000000000000000000000000000000000000000000000",
                    product: "c0000000800000003fffffffffffffffbfffffffbfffffffc000000000000000",
                    sum: "00000000fffffffeffffffffffffffffffffffff000000000000000000000001",
                    difference: "0000000000000000000000000000000000000000000000000000000000000000"),
        FieldVector(a: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffd", b: "7fffffff80000000800000000000000000000000800000000000000000000000",
                    product: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe",
                    sum: "7fffffff800000008000000000000000000000007ffffffffffffffffffffffe",
                    difference: "7fffffff800000008000000000000000000000007ffffffffffffffffffffffd"),
        FieldVector(a: "000000000000000000000000000000000000000000000000ffffffffffffffff", b: "0000000000000001000000000000000000000000000000000000000000000001",
                    product: "00000000fffffffdffffffffffffffffffffffff000000010000000000000000",
                    sum: "0000000000000001000000000000000000000000000000010000000000000000",
                    difference: "ffffffff0000000000000000000000000000000100000000fffffffffffffffd"),
        FieldVector(a: "0000000000000000000000000000000000000000000000000000000000000001", b: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe",
                    product: "ffffffff00000001000000000000000000000000fffffffffffffffffffffffe",
                    sum: "0000000000000000000000000000000000000000000000000000000000000000",
                    difference: "0000000000000000000000000000000000000000000000000000000000000002"),
    ]

    /// Four seeded random pairs, then edges. Expected values: a·b mod n and a⁻¹ mod n.
    static let scalarVectors: [ScalarVector] = [
        ScalarVector(a: "8f6b0384361b244d085a9a3848b4f59cce47b516caa5bcbda3be6eabbb1e3022", b: "bb943c3dd0b2555c0dafbec49b55ecd09081e74075ffb40ea47431de61daac7c",
                     product: "c8d37fb1022a92976c8d61c67d810240de527b49885f65dfffd690592987263e",
                     inverseOfA: "d987342ecc84156e59c2bf15a83cfd3e3b6d1640c92004887cdf495a1521784a"),
        ScalarVector(a: "b296ba69895693f96cb120e806b6c03d8b076a3a0d5d66fdd54910958d01a798", b: "a74e978c32b6b7ab525e3265782ef8f27d29a28da1c079811d1d08df788a9bf5",
                     product: "94485de5b3b27764df643d17244321c4183bc44885bcb04225eded52a74d3bb9",
                     inverseOfA: "1e44ae32766a54421e6081df1f5c6e799c4ef868acccc82412c2581c72132c70"),
        ScalarVector(a: "95deb0885b27efa2ef3869bb858f5850913e52ee6bf69d88892cb9eac8663cf8", b: "b624347a19a32003b4ef7693e55034781af2efb7023d0222481c61ca7dd27bf6",
                     product: "43514770915a6eef5254995c8d32a269a723e250fde1ccad940a1802fccac017",
                     inverseOfA: "69623c354264cd0d634d742eece3817cfe79b64f9b23076b68408341bda5b80a"),
        ScalarVector(a: "0b2c910e6a4d753d41b15a6cb3b1394fb9e2f3bbfc68b23b8b070f8642841c13", b: "c6941c666de845858f84dfb79f04e548d26cef77b53e35b1c77aef5b921428ff",
                     product: "5166ce87a22ebfe73407df899344c4bbc15f7123aa7d604abd7f317bff5c98f1",
                     inverseOfA: "026ff614ac658deabf9be969b0c776313f7d540646e6be12c1446d7a156cbb18"),
        ScalarVector(a: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550", b: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550",
                     product: "0000000000000000000000000000000000000000000000000000000000000001",
                     inverseOfA: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550"),
        ScalarVector(a: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550", b: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc63254f",
                     product: "0000000000000000000000000000000000000000000000000000000000000002",
                     inverseOfA: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550"),
        ScalarVector(a: "00000000ffffffff00000000000000004319055258e8617b0c46353d039cdaaf", b: "0000000000000000000000000000000000000000000000000000000000000003",
                     product: "00000002fffffffd0000000000000000c94b0ff70ab9247124d29fb70ad6900d",
                     inverseOfA: "60d066334905c1e907f8b6041e607725badef3e243566fafce1bc8f79c197c79"),
    ]

    static func integer(_ hex: String) -> U256 {
        U256(bigEndian: CryptoHex.bytes(hex)) ?? .zero
    }

    @Test(arguments: fieldVectors)
    func fieldArithmetic(_ vector: FieldVector) {
        let a = P256FieldElement(Self.integer(vector.a))
        let b = P256FieldElement(Self.integer(vector.b))
        #expect((a * b).integer == Self.integer(vector.product))
        #expect((a + b).integer == Self.integer(vector.sum))
        #expect((a - b).integer == Self.integer(vector.difference))
        if !a.isZero {
            #expect((a * a.inverse()).integer == .one)
        }
    }

    @Test(arguments: scalarVectors)
    func scalarArithmetic(_ vector: ScalarVector) {
        let a = P256Scalar(Self.integer(vector.a))
        let b = P256Scalar(Self.integer(vector.b))
        #expect((a * b).integer == Self.integer(vector.product))
        #expect(a.inverse().integer == Self.integer(vector.inverseOfA))
    }

    /// Any 256-bit input is reduced: 2^256 − 1 mod p and mod n.
    @Test func inputsAboveTheModulusAreReduced() {
        let allOnes = U256(l0: .max, l1: .max, l2: .max, l3: .max)
        #expect(P256FieldElement(allOnes).integer == Self.integer("00000000fffffffeffffffffffffffffffffffff000000000000000000000000"))
        #expect(P256Scalar(allOnes).integer == Self.integer("00000000ffffffff00000000000000004319055258e8617b0c46353d039cdaae"))
        #expect(P256FieldElement(P256Prime.modulus).isZero)
        #expect(P256Scalar(P256Order.modulus).isZero)
    }

    @Test func bigEndianRoundTrip() {
        for vector in Self.fieldVectors {
            #expect(CryptoHex.string(Self.integer(vector.a).bigEndianBytes) == vector.a)
        }
        #expect(U256(bigEndian: [UInt8](repeating: 1, count: 33)) == nil)
        #expect(U256(bigEndian: [0x01, 0x02]) == U256(l0: 0x0102, l1: 0, l2: 0, l3: 0))
    }
}
