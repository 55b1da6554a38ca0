/// A `.p8` key's public half verifies provider tokens for FakeAPNs.
extension APNsPublicKey: ProviderTokenVerificationKey {}
