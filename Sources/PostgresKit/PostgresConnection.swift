import Foundation
import CLibPQ

/// One libpq connection; closed in deinit. Statements take named parameters (`:property`), sent in text form.
///
/// Not shared between threads: each thread (a sync worker, a serve reader) opens its own.
public final class PostgresConnection {
    let handle: OpaquePointer
    /// Where it is connected, password redacted (for messages).
    public let url: DatabaseURL

    /// Connects; a failure names the redacted URL and libpq's reason (refused, authentication, TLS, no database).
    public init(url: DatabaseURL, applicationName: String = "ownerdash") throws {
        // The URI is expanded by libpq (expand_dbname = 1); a separately kept password is its own parameter, so it
        // never appears in a string OwnerDash builds.
        var keywords = ["dbname", "application_name"]
        var values = [url.uri, applicationName]
        if let password = url.password { keywords.append("password"); values.append(password) }
        let connection = withCStringArray(keywords) { keywordPointers in
            withCStringArray(values) { valuePointers in
                PQconnectdbParams(keywordPointers, valuePointers, 1)
            }
        }
        guard let connection else {
            throw PostgresError(message: "out of memory", context: "connecting to \(url)")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let error = PostgresError(result: nil, connection: connection, context: "connecting to \(url)")
            PQfinish(connection)
            throw error
        }
        handle = connection
        self.url = url
        // Server notices ("relation already exists, skipping") are not OwnerDash's output.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(handle) }

    /// Runs one statement (or, without parameters, several separated by `;`) that returns no rows.
    /// Returns the number of rows it affected (0 for statements without a count).
    @discardableResult
    public func execute(_ sql: String, _ values: [String: PostgresValue] = [:]) throws -> Int {
        let result = try run(sql, values)
        defer { PQclear(result) }
        return Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    /// Runs a query and reads its rows (for results that fit in memory; COPY streams larger ones).
    public func query(_ sql: String, _ values: [String: PostgresValue] = [:]) throws -> PostgresRows {
        let result = try run(sql, values)
        defer { PQclear(result) }
        let columnCount = PQnfields(result)
        let columns = (0..<columnCount).map { String(cString: PQfname(result, $0)) }
        var rows: [[String?]] = []
        rows.reserveCapacity(Int(PQntuples(result)))
        for row in 0..<PQntuples(result) {
            rows.append((0..<columnCount).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            })
        }
        return PostgresRows(columns: columns, values: rows)
    }

    /// The first column of the first row, or nil (no row, or NULL).
    public func scalar(_ sql: String, _ values: [String: PostgresValue] = [:]) throws -> String? {
        try query(sql, values).values.first?.first ?? nil
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Streams rows into `COPY table (columns) FROM STDIN` (text format), buffered; returns the rows sent.
    @discardableResult
    public func copyIn<Rows: Sequence>(_ sql: String, rows: Rows) throws -> Int where Rows.Element == [String?] {
        let context = PostgresError.describe(sql: sql)
        try startCopy(sql, expecting: PGRES_COPY_IN, context: context)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        var count = 0
        func flush() throws {
            guard !buffer.isEmpty else { return }
            let sent = buffer.withUnsafeBufferPointer { bytes in
                bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    PQputCopyData(handle, $0, Int32(bytes.count))
                }
            }
            guard sent == 1 else { throw PostgresError(result: nil, connection: handle, context: context) }
            buffer.removeAll(keepingCapacity: true)
        }
        do {
            for row in rows {
                CopyText.append(row, to: &buffer)
                count += 1
                if buffer.count >= 1 << 16 { try flush() }
            }
            try flush()
        } catch {
            _ = PQputCopyEnd(handle, "aborted by ownerdash")
            drainResults()
            throw error
        }
        guard PQputCopyEnd(handle, nil) == 1 else {
            throw PostgresError(result: nil, connection: handle, context: context)
        }
        try finishCommand(context: context)
        return count
    }

    /// Streams `COPY (query) TO STDOUT` (text format) row by row into `body`, each row read in place (`CopyRow`);
    /// returns the rows read.
    @discardableResult
    public func copyOut(_ sql: String, _ body: (CopyRow) throws -> Void) throws -> Int {
        let context = PostgresError.describe(sql: sql)
        try startCopy(sql, expecting: PGRES_COPY_OUT, context: context)
        var count = 0
        var failure: Error?
        var spans: [CopyRow.Span] = []
        while true {
            var line: UnsafeMutablePointer<CChar>?
            let length = PQgetCopyData(handle, &line, 0)
            if length == -1 { break }
            guard length >= 0, let line else {
                throw PostgresError(result: nil, connection: handle, context: context)
            }
            if failure == nil {
                let bytes = UnsafeRawBufferPointer(start: line, count: Int(length))
                CopyText.cut(bytes, into: &spans)
                do { try body(CopyRow(line: bytes, spans: spans)); count += 1 } catch { failure = error }
            }
            PQfreemem(line)
        }
        try finishCommand(context: context)
        if let failure { throw failure }
        return count
    }

    /// `password` hashed for `user` the way the server stores it (SCRAM-SHA-256 by default), for `CREATE ROLE ...
    /// PASSWORD`: the clear text never reaches the server, nor a statement log there.
    public func encryptedPassword(_ password: String, user: String) throws -> String {
        guard let hashed = PQencryptPasswordConn(handle, password, user, nil) else {
            throw PostgresError(result: nil, connection: handle, context: "hashing the password of \(user)")
        }
        defer { PQfreemem(hashed) }
        return String(cString: hashed)
    }

    /// Sends a COPY statement; throws unless the server switched to the COPY direction expected.
    private func startCopy(_ sql: String, expecting expected: ExecStatusType, context: String) throws {
        let start = PQexec(handle, sql)
        let status = PQresultStatus(start)
        defer { PQclear(start) }
        guard status == expected else {
            let error = PostgresError(result: start, connection: handle, context: context)
            drainResults()
            throw error
        }
    }

    /// Runs `sql` with its named parameters and returns a successful result (the caller clears it).
    private func run(_ sql: String, _ values: [String: PostgresValue]) throws -> OpaquePointer {
        let context = PostgresError.describe(sql: sql)
        let result: OpaquePointer?
        let named = NamedParameters(sql)
        if named.names.isEmpty && values.isEmpty {
            // PQexec, not PQexecParams: it runs several statements separated by `;` (the schema's DDL).
            result = PQexec(handle, sql)
        } else {
            let ordered = try named.ordered(values, context: context)
            result = withOptionalCStringArray(ordered) { pointers in
                PQexecParams(handle, named.sql, Int32(ordered.count), nil, pointers, nil, nil, 0)
            }
        }
        let status = PQresultStatus(result)
        guard let result, status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let error = PostgresError(result: result, connection: handle, context: context)
            PQclear(result)
            drainResults()
            throw error
        }
        drainResults()
        return result
    }

    /// Reads the result that ends a COPY and throws its error, if any.
    private func finishCommand(context: String) throws {
        var failure: PostgresError?
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            if status != PGRES_COMMAND_OK, failure == nil {
                failure = PostgresError(result: result, connection: handle, context: context)
            }
            PQclear(result)
        }
        if let failure { throw failure }
    }

    /// Discards any results left on the connection (after PQexec of several statements or a failed COPY).
    private func drainResults() {
        while let result = PQgetResult(handle) { PQclear(result) }
    }
}

/// Calls `body` with a NULL-terminated array of C strings that live for the call.
private func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    withOptionalCStringArray(strings + [nil]) { body($0) }
}

/// Calls `body` with an array of C strings (nil stays a NULL pointer) that live for the call.
private func withOptionalCStringArray<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0)! } }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { UnsafePointer($0) }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
