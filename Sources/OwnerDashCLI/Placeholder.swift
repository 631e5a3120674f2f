/// The command tree.
public enum CLI {
    public static func main() {}
}
