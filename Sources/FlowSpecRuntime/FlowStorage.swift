#if canImport(Foundation)
    import Foundation
#endif

/// A persisted machine's stored raw value: its state's position (`rawValue: int`) or name
/// (`rawValue: string`).
public enum FlowStoredValue: Sendable, Hashable {
    /// A position, for `persist: { rawValue: int }`.
    case int(Int)
    /// A name, for `persist: { rawValue: string }`.
    case string(String)
}

/// Where ``FlowDriver`` keeps a persisted machine's state between launches. The driver reads
/// it once at start and writes it on every change of state.
@MainActor
public protocol FlowStorage: AnyObject {
    /// The value stored under `key`, or `nil` when there is none. A value of another type
    /// than the machine stores (garbage, an older format) is `nil` too, never a trap.
    func value(forKey key: String) -> FlowStoredValue?
    /// Stores `value` under `key`.
    func set(_ value: FlowStoredValue, forKey key: String)
}

/// Storage in memory: for tests and previews, or a flow that should start afresh each launch.
@MainActor
public final class InMemoryFlowStorage: FlowStorage {
    /// Everything stored, by key.
    public private(set) var values: [String: FlowStoredValue]
    /// How many times ``set(_:forKey:)`` was called.
    public private(set) var writes = 0

    /// Storage holding `values`.
    public init(_ values: [String: FlowStoredValue] = [:]) {
        self.values = values
    }

    /// The value under `key`.
    public func value(forKey key: String) -> FlowStoredValue? { values[key] }

    /// Stores `value` under `key`.
    public func set(_ value: FlowStoredValue, forKey key: String) {
        values[key] = value
        writes += 1
    }
}

#if canImport(Foundation)
    /// Storage in `UserDefaults`: an integer or a string under the key, as an app that stored
    /// the value itself would have written it, so that adopting the driver keeps what users had.
    @MainActor
    public final class UserDefaultsFlowStorage: FlowStorage {
        private let defaults: UserDefaults

        /// Storage in `defaults` (the standard defaults unless given).
        public init(_ defaults: UserDefaults = .standard) {
            self.defaults = defaults
        }

        /// The integer or string under `key`; anything else (a date, data, a dictionary) is `nil`.
        public func value(forKey key: String) -> FlowStoredValue? {
            switch defaults.object(forKey: key) {
            case let string as String: .string(string)
            // A Bool is an NSNumber of type `c` (char): not a position.
            case let number as NSNumber where String(cString: number.objCType) != "c": exactInt(number)
            default: nil
            }
        }

        /// Stores `value` under `key`.
        public func set(_ value: FlowStoredValue, forKey key: String) {
            switch value {
            case .int(let int): defaults.set(int, forKey: key)
            case .string(let string): defaults.set(string, forKey: key)
            }
        }

        /// An integer stored as a number; a fraction is not a position.
        private func exactInt(_ number: NSNumber) -> FlowStoredValue? {
            let double = number.doubleValue
            guard double.rounded() == double, let int = Int(exactly: double) else { return nil }
            return .int(int)
        }
    }
#endif

/// A raw value type a persisted machine's states can have, and how it is stored.
public protocol FlowStorableRawValue: Sendable {
    /// The stored form.
    var storedValue: FlowStoredValue { get }
    /// The raw value of a stored form, or `nil` for the other kind.
    init?(storedValue: FlowStoredValue)
}

extension Int: FlowStorableRawValue {
    /// `.int(self)`.
    public var storedValue: FlowStoredValue { .int(self) }

    /// The integer of `.int`.
    public init?(storedValue: FlowStoredValue) {
        guard case .int(let value) = storedValue else { return nil }
        self = value
    }
}

extension String: FlowStorableRawValue {
    /// `.string(self)`.
    public var storedValue: FlowStoredValue { .string(self) }

    /// The string of `.string`.
    public init?(storedValue: FlowStoredValue) {
        guard case .string(let value) = storedValue else { return nil }
        self = value
    }
}
