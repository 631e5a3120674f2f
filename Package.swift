// swift-tools-version:6.0
import PackageDescription

// Dependencies point down only: C shims <- Kits <- Core <- stages <- CLI <- executable.

/// The modules every loaded byte runs through (SQLite's wrapper, zip, XML, workbooks, SOAP, the parsers, the raw store):
/// optimized in debug builds too, which the tests run. Unoptimized, the load was half of the demo's CPU in its
/// end-to-end test and ran about ten times slower than a release build's.
let optimizedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "OwnerDash",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "ownerdash", targets: ["ownerdash"]),
    ],
    targets: [
        // MARK: - C libraries from Debian (systemLibrary: module map + shim header only)
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
                       providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", pkgConfig: "zlib",
                       providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        // What Swift cannot call: curl's variadic setopt/getinfo, through typed wrappers.
        .target(name: "CCurlShim", dependencies: ["CCurl"], path: "Sources/CCurlShim"),
        // Workbooks that print (page setup, print titles, header/footer, notes, SUBTOTAL formulas).
        .systemLibrary(name: "CXlsxWriter", path: "Sources/CXlsxWriter", pkgConfig: "xlsxwriter",
                       providers: [.apt(["libxlsxwriter-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
                       providers: [.apt(["libssl-dev"])]),
        // The unified data on a PostgreSQL server (--database-url): the client library only.
        .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq",
                       providers: [.apt(["libpq-dev"])]),
        // Gradient-boosted trees for the delinquency forecast (Debian's libxgboost-dev, the C API only).
        .systemLibrary(name: "CXGBoost", path: "Sources/CXGBoost", pkgConfig: "xgboost",
                       providers: [.apt(["libxgboost-dev"])]),

        // MARK: - One Swift wrapper per C library
        .target(name: "SQLiteKit", dependencies: ["CSQLite"], swiftSettings: optimizedInDebug),
        .target(name: "ZipKit", dependencies: ["CZlib"], swiftSettings: optimizedInDebug),
        .target(name: "XMLKit", dependencies: ["CLibXML2"], swiftSettings: optimizedInDebug),
        .target(name: "CurlKit", dependencies: ["CCurl", "CCurlShim"]),
        // The HTTP server (libmicrohttpd daemon, thread pool, limits) turning requests into typed values.
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        // libcrypto once: SHA-256, HMAC-SHA256, random bytes, RS256 / ES256 signature checks (EVP).
        .target(name: "LibCryptoKit", dependencies: ["CCrypto", "OwnerDashCore"]),
        // libpq once: connections, named parameters, transactions, COPY in and out; PostgresError with the SQLSTATE.
        .target(name: "PostgresKit", dependencies: ["CLibPQ"]),
        // libxgboost once: a feature matrix and a booster (train, predict, SHAP contributions, JSON model bytes).
        .target(name: "XGBoostKit", dependencies: ["CXGBoost"]),

        // MARK: - Formats and domain
        .target(name: "XLSXKit", dependencies: ["OwnerDashCore", "ZipKit", "XMLKit", "CXlsxWriter"], swiftSettings: optimizedInDebug),
        .target(name: "OwnerDashCore"),
        // SOAP envelopes, response checks (one SOAPError), vendor value formats, the Yardi/RPX operation catalogues.
        .target(name: "SOAP", dependencies: ["XMLKit", "OwnerDashCore"], swiftSettings: optimizedInDebug),

        // MARK: - Stages
        .target(name: "Parse", dependencies: ["OwnerDashCore", "XLSXKit", "XMLKit", "SOAP"], swiftSettings: optimizedInDebug),
        .target(name: "RawStore", dependencies: ["OwnerDashCore", "LibCryptoKit", "SQLiteKit", "XLSXKit", "Parse", "SOAP", "ZipKit"], swiftSettings: optimizedInDebug),
        .target(name: "Fetch", dependencies: ["OwnerDashCore", "LibCryptoKit", "CurlKit", "XLSXKit", "XMLKit", "SOAP", "ZipKit"]),
        // Raw -> unified.db: reads the raw databases (attached read-only) in SQL, never imports Parse or Fetch.
        .target(name: "Sync", dependencies: ["OwnerDashCore", "SQLiteKit", "LibCryptoKit"]),
        // The unified data on PostgreSQL (--database-url): the schema generated from Sync's, publishing a host's synced
        // properties (COPY, one transaction each), and the readers' local mirror refreshed by what changed.
        .target(name: "PostgresUnified", dependencies: ["OwnerDashCore", "SQLiteKit", "PostgresKit", "Sync"]),
        // Read-only questions over unified.db: one file per metric family, each one query with its formula.
        .target(name: "Metrics", dependencies: ["OwnerDashCore", "SQLiteKit"]),
        // Tenant-ledger reports over unified.db (read-only): lease payment status, ...
        .target(name: "Ledger", dependencies: ["OwnerDashCore", "SQLiteKit", "Metrics"]),
        // Debtor notices: one file per debtor from a template, and their delivery to a webhook (recorded in notices_sent).
        .target(name: "Notices", dependencies: ["OwnerDashCore", "LibCryptoKit", "SQLiteKit", "CurlKit", "Ledger"]),
        // Who will be behind next month: features from the unified ledger, XGBoost trees, the rolling backtest.
        .target(name: "Forecast", dependencies: ["OwnerDashCore", "SQLiteKit", "XGBoostKit", "Metrics"]),
        // table / json / csv / xlsx output and the self-contained HTML dashboard.
        .target(name: "Render", dependencies: ["OwnerDashCore", "SQLiteKit", "XLSXKit", "Metrics", "Ledger", "Forecast"]),
        // The recorded runs (etl_runs, etl_run_items) as values, read-only, and their JSON (`runs --format json`).
        .target(name: "RunRecords", dependencies: ["OwnerDashCore", "SQLiteKit"]),
        // `ownerdash serve`: the read-only JSON API (and pages) over unified.db behind sign-in; never imports a fetch stage.
        .target(name: "Serve", dependencies: ["OwnerDashCore", "SQLiteKit", "PostgresKit", "HTTPServer", "LibCryptoKit", "CurlKit", "Sync", "Metrics", "Ledger", "Render", "RunRecords", "Forecast"]),
        // fetch + load + sync as one recorded run, under the data directory's ingest lock.
        .target(name: "Ingest", dependencies: ["OwnerDashCore", "LibCryptoKit", "SQLiteKit", "PostgresKit", "PostgresUnified", "RunRecords", "Fetch", "RawStore", "Sync", "Parse", "SOAP"]),

        // MARK: - Command line
        .target(name: "OwnerDashCLI", dependencies: ["OwnerDashCore", "Forecast", "XLSXKit", "Parse", "RawStore", "SQLiteKit", "PostgresKit", "PostgresUnified", "Fetch", "SOAP", "Sync", "Metrics", "Ledger", "Notices", "Render", "Ingest", "Serve"]),
        .executableTarget(name: "ownerdash", dependencies: ["OwnerDashCLI"]),

        // MARK: - Tests mirror the sources
        .testTarget(name: "SQLiteKitTests", dependencies: ["SQLiteKit"]),
        .testTarget(name: "PostgresKitTests", dependencies: ["PostgresKit", "PostgresTestSupport"]),
        // The throwaway PostgreSQL cluster of scripts/test.sh (or one started for a bare `swift test`).
        .target(name: "PostgresTestSupport", dependencies: ["PostgresKit"], path: "Tests/PostgresTestSupport"),
        .testTarget(name: "OwnerDashCoreTests", dependencies: ["OwnerDashCore"]),
        .testTarget(name: "LibCryptoKitTests", dependencies: ["LibCryptoKit"]),
        .testTarget(name: "XGBoostKitTests", dependencies: ["XGBoostKit"]),
        .testTarget(name: "ForecastTests", dependencies: ["Forecast", "XGBoostKit", "Sync", "SQLiteKit", "OwnerDashCore"]),
        .testTarget(name: "CurlKitTests", dependencies: ["CurlKit"]),
        // A plain TCP client for requests an HTTP library would refuse to send; shared by the two HTTP test targets.
        .target(name: "HTTPTestSupport", path: "Tests/HTTPTestSupport"),
        // The pms_sim simulator and the built `ownerdash` binary run from a test; shared by the end-to-end test targets.
        .target(name: "SimulatorSupport", dependencies: ["OwnerDashCore"], path: "Tests/SimulatorSupport"),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "CurlKit", "HTTPTestSupport"]),
        .testTarget(name: "ServeTests", dependencies: ["Serve", "Forecast", "PostgresKit", "PostgresTestSupport", "HTTPServer", "LibCryptoKit", "CurlKit", "Sync", "SQLiteKit", "OwnerDashCore", "Metrics", "HTTPTestSupport", "SimulatorSupport"]),
        .testTarget(name: "ZipKitTests", dependencies: ["ZipKit"]),
        .testTarget(name: "XLSXKitTests", dependencies: ["XLSXKit", "XMLKit", "ZipKit"]),
        .testTarget(name: "ParseTests", dependencies: ["Parse", "XLSXKit", "OwnerDashCore", "SOAP"]),
        .testTarget(name: "RawStoreTests", dependencies: ["LibCryptoKit", "RawStore", "Parse", "SQLiteKit", "OwnerDashCore", "SOAP"]),
        // Snapshots/ are read from the source tree by #filePath (a changed one is a diff to review), not bundled.
        .testTarget(name: "OwnerDashCLITests", dependencies: ["OwnerDashCLI", "PostgresTestSupport", "HTTPTestSupport", "SimulatorSupport"], exclude: ["Snapshots"]),
        .testTarget(name: "SyncTests", dependencies: ["Sync", "Forecast", "RawStore", "SQLiteKit", "OwnerDashCore", "Ledger", "Metrics", "SimulatorSupport"]),
        .testTarget(name: "PostgresUnifiedTests", dependencies: ["PostgresUnified", "PostgresKit", "PostgresTestSupport", "Sync", "SQLiteKit", "OwnerDashCore", "SimulatorSupport"]),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics", "Sync", "SQLiteKit", "OwnerDashCore"]),
        .testTarget(name: "LedgerTests", dependencies: ["Ledger", "Metrics", "Sync", "SQLiteKit", "OwnerDashCore"]),
        .testTarget(name: "NoticesTests", dependencies: ["Notices", "Ledger", "Sync", "SQLiteKit", "OwnerDashCore", "CurlKit"]),
        .testTarget(name: "RenderTests", dependencies: ["Render", "Forecast", "Metrics", "Ledger", "Sync", "SQLiteKit", "OwnerDashCore", "XMLKit", "XLSXKit", "ZipKit"],
                    exclude: ["Snapshots"]),
        .testTarget(name: "IngestTests", dependencies: ["LibCryptoKit", "Ingest", "PostgresKit", "PostgresTestSupport", "RawStore", "Sync", "SQLiteKit", "OwnerDashCore", "Fetch", "ZipKit", "SimulatorSupport"]),
        .testTarget(name: "XMLKitTests", dependencies: ["XMLKit"]),
        .testTarget(name: "SOAPTests", dependencies: ["SOAP", "XMLKit", "OwnerDashCore"]),
        // Also runs the pms_sim simulator and the built `ownerdash` binary (end to end).
        .testTarget(name: "FetchTests", dependencies: ["LibCryptoKit", "Fetch", "OwnerDashCore", "CurlKit", "SQLiteKit", "SOAP", "ZipKit", "SimulatorSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// MARK: - Fuzzing: libFuzzer entry points, declared only for scripts/fuzz.sh (OWNERDASH_FUZZ=1), so a normal
// `swift build`/`swift test` and CI never build them (they need -sanitize=fuzzer to link).
if Context.environment["OWNERDASH_FUZZ"] == "1" {
    package.targets += [
        .target(name: "CFuzzDriver", path: "Fuzz/CFuzzDriver"),
        .executableTarget(name: "FuzzSpreadsheet", dependencies: ["CFuzzDriver", "XLSXKit"], path: "Fuzz/FuzzSpreadsheet"),
        .executableTarget(name: "FuzzReports", dependencies: ["CFuzzDriver", "Parse", "XLSXKit"], path: "Fuzz/FuzzReports"),
        .executableTarget(name: "FuzzSOAP", dependencies: ["CFuzzDriver", "Parse"], path: "Fuzz/FuzzSOAP"),
        .executableTarget(name: "FuzzHTTP", dependencies: ["CFuzzDriver", "Serve", "HTTPServer", "Sync", "SQLiteKit", "OwnerDashCore"],
                          path: "Fuzz/FuzzHTTP"),
    ]
}

// MARK: - Benchmarks: executables for scripts/bench/*.sh (OWNERDASH_BENCH=1), never built by `swift build`/CI.
if Context.environment["OWNERDASH_BENCH"] == "1" {
    package.targets += [
        .executableTarget(name: "WorkbookWriteBench", dependencies: ["XLSXKit"], path: "Bench/WorkbookWriteBench"),
        .executableTarget(name: "SOAPCheckBench", dependencies: ["SOAP"], path: "Bench/SOAPCheckBench"),
    ]
}
