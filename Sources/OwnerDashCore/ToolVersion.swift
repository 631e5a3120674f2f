/// The version of ownerdash: what `ownerdash --version` prints and what `ownerdash serve`'s OpenAPI document
/// (`/api/v2/openapi.json`) gives as `info.version`.
public enum ToolVersion {
    public static let current = "0.1.0"
}
