import OwnerDashCLI

@main
struct Entrypoint {
    static func main() {
        CLI.main()
    }
}
