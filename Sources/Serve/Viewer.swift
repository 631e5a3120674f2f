/// Who is asking: a signed-in user and what they may see.
public struct Viewer: Sendable, Equatable {
    /// What a user may see.
    public enum Role: String, Sendable, CaseIterable {
        /// Every property.
        case owner
        /// Only the properties listed for them.
        case manager
    }

    public var email: String
    public var role: Role
    /// The properties a manager may see (ignored for an owner).
    public var properties: Set<String>

    public init(email: String, role: Role, properties: Set<String> = []) {
        self.email = email; self.role = role; self.properties = properties
    }

    /// Whether the viewer may see the property; a property they may not see is answered as unknown (404).
    public func sees(_ property: String) -> Bool { role == .owner || properties.contains(property) }

    /// The properties of `synced` the viewer may see, in that order.
    public func visible(_ synced: [String]) -> [String] { synced.filter(sees) }
}
