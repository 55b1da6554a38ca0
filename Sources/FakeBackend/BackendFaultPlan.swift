import FakeSupport

/// A FakeBackend fault plan: a ``BackendFault`` for one endpoint (or all), for the next N
/// requests or with a seeded probability — the fault plan both fakes share, in its backend form.
///
/// ```swift
/// backend.addFault(.next(2, .status(code: 503), on: .putDevice))
/// backend.addFault(.probability(0.3, seed: 42, .reset))
/// ```
public typealias BackendFaultPlan = FaultPlan<BackendFault, FakeBackend.Endpoint>

extension FaultPlan where Fault == BackendFault, Target == FakeBackend.Endpoint {
    /// The endpoint it applies to; nil for every endpoint (the plan's `target`).
    public var endpoint: FakeBackend.Endpoint? {
        get { target }
        set { target = newValue }
    }

    /// A plan applying `fault` to `endpoint`'s requests (nil: every endpoint) as `trigger` says.
    public init(_ fault: BackendFault, on endpoint: FakeBackend.Endpoint? = nil, trigger: FaultTrigger = .next(count: 1)) {
        self.init(fault, target: endpoint, trigger: trigger)
    }

    /// The next `count` requests to `endpoint` (nil: any endpoint) get `fault`.
    public static func next(_ count: Int, _ fault: BackendFault, on endpoint: FakeBackend.Endpoint? = nil) -> BackendFaultPlan {
        BackendFaultPlan(fault, on: endpoint, trigger: .next(count: count))
    }

    /// Each request to `endpoint` (nil: any endpoint) gets `fault` with `probability`,
    /// deterministically for a given `seed`.
    public static func probability(_ probability: Double, seed: UInt64, _ fault: BackendFault,
                                   on endpoint: FakeBackend.Endpoint? = nil) -> BackendFaultPlan {
        BackendFaultPlan(fault, on: endpoint, trigger: .probability(probability, seed: seed))
    }
}

extension FaultPlan: Codable, AdminRequestBody where Fault == BackendFault, Target == FakeBackend.Endpoint {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case endpoint, count, probability, seed
    }

    /// The admin body's members: the fault's and the plan's.
    package static var members: [String] {
        pointers(to: BackendFault.CodingKeys.self) + pointers(to: CodingKeys.self)
    }

    /// Reads the admin API's flat form: `{"endpoint": "putDevice", "kind": "status",
    /// "status": 429, "retryAfter": 3, "count": 2}` or `{"kind": "reset", "probability": 0.3,
    /// "seed": 42}`. No endpoint (or `"all"`) means every endpoint; no trigger means `count: 1`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let fault = try BackendFault(from: decoder)
        let endpoint: FakeBackend.Endpoint?
        let trigger: FaultTrigger
        let name = try container.decodeIfPresent(String.self, forKey: .endpoint)
        if let name, name != "all" {
            guard let known = FakeBackend.Endpoint(rawValue: name) else {
                throw DecodingError.dataCorruptedError(forKey: .endpoint, in: container,
                    debugDescription: "unknown endpoint \"\(name)\"; use \(FakeBackend.Endpoint.allCases.map(\.rawValue).joined(separator: ", ")) or all")
            }
            endpoint = known
        } else {
            endpoint = nil
        }
        let count = try container.decodeIfPresent(Int.self, forKey: .count)
        let probability = try container.decodeIfPresent(Double.self, forKey: .probability)
        switch (count, probability) {
        case (.some, .some):
            throw DecodingError.dataCorruptedError(forKey: .probability, in: container,
                debugDescription: "give count or probability, not both")
        case (let count?, nil):
            guard (1...1_000_000).contains(count) else {
                throw DecodingError.dataCorruptedError(forKey: .count, in: container,
                    debugDescription: "count must be 1-1000000, found \(count)")
            }
            trigger = .next(count: count)
        case (nil, let probability?):
            guard probability >= 0, probability <= 1 else {
                throw DecodingError.dataCorruptedError(forKey: .probability, in: container,
                    debugDescription: "probability must be between 0 and 1, found \(probability)")
            }
            trigger = .probability(probability, seed: try container.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0)
        case (nil, nil):
            trigger = .next(count: 1)
        }
        self.init(fault, target: endpoint, trigger: trigger)
    }

    public func encode(to encoder: any Encoder) throws {
        try fault.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(endpoint?.rawValue ?? "all", forKey: .endpoint)
        switch trigger {
        case .next(let count):
            try container.encode(count, forKey: .count)
        case .probability(let probability, let seed):
            try container.encode(probability, forKey: .probability)
            try container.encode(seed, forKey: .seed)
        }
    }
}
