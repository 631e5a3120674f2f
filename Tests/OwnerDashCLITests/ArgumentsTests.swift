import Testing
@testable import OwnerDashCLI

@Suite struct ArgumentsTests {
    let specs: [ArgumentSpec] = [
        .positional("FILE", repeating: true, help: "files"),
        .option("--property", "KEY", help: "property"),
        .option("--reports", "LIST", repeating: true, help: "reports"),
        .flag("--quiet", help: "quiet"),
    ]

    @Test func optionsFlagsAndPositionalsInAnyOrder() throws {
        let parsed = try ParsedArguments(["a.xlsx", "--property", "nexus_east", "b.xlsx", "--quiet", "--reports=x", "--reports", "y"],
                                         specs: specs, command: "ownerdash load")
        #expect(parsed.values("FILE") == ["a.xlsx", "b.xlsx"])
        #expect(parsed.value("--property") == "nexus_east")
        #expect(parsed.values("--reports") == ["x", "y"])
        #expect(parsed.flag("--quiet"))
    }

    @Test func doubleDashEndsOptions() throws {
        let parsed = try ParsedArguments(["--", "--odd-file-name.xlsx"], specs: specs, command: "ownerdash load")
        #expect(parsed.values("FILE") == ["--odd-file-name.xlsx"])
    }

    @Test(arguments: [
        (["x.xlsx", "--bogus"], "ownerdash load: unknown option --bogus (see ownerdash load --help)"),
        (["x.xlsx", "--property"], "ownerdash load: --property needs a value KEY"),
        (["x.xlsx", "--property", "a", "--property", "b"], "ownerdash load: --property given more than once"),
        (["--quiet=yes", "x.xlsx"], "ownerdash load: --quiet takes no value"),
        ([], "ownerdash load: missing FILE"),
    ])
    func usageErrorsAreOneClearLine(arguments: [String], message: String) {
        #expect {
            try ParsedArguments(arguments, specs: specs, command: "ownerdash load")
        } throws: { error in
            (error as? UsageError)?.description == message
        }
    }
}
