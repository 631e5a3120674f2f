import CSQLite

/// A prepared statement, compiled once and reused across rows; finalized in deinit.
public final class Statement {
    private let handle: OpaquePointer
    private unowned let database: Database
    /// The bytes `bindBorrowed` lends to SQLite; freed after the statement is finalized (deinit runs first).
    private let arena = BindArena()
    /// The SQL text, for error messages.
    public let sql: String

    init(database: Database, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(code: code, handle: database.handle, context: SQLiteError.describe(sql: sql))
        }
        self.handle = statement
        self.database = database
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: - Binding

    /// The 1-based index of a named parameter (`:name`, `@name` or `$name`); traps on a name the SQL lacks,
    /// which is a programmer mistake, not bad data.
    public func parameterIndex(_ name: String) -> Int32 {
        let index = sqlite3_bind_parameter_index(handle, name)
        precondition(index > 0, "no parameter \(name) in: \(sql)")
        return index
    }

    /// Whether the SQL names this parameter (for callers that bind a shared set of values to many statements).
    public func hasParameter(_ name: String) -> Bool {
        sqlite3_bind_parameter_index(handle, name) > 0
    }

    /// Binds one value at a 1-based parameter index.
    public func bind(_ value: SQLValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .null: code = sqlite3_bind_null(handle, index)
        case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
        case .real(let v): code = sqlite3_bind_double(handle, index, v)
        case .text(var s):
            code = s.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    // An empty string may have no base address; bind a zero-length text, not NULL.
                    guard let base = chars.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, sqliteTransient) }
                    return sqlite3_bind_text(handle, index, base, Int32(chars.count), sqliteTransient)
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { raw in
                sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), sqliteTransient)
            }
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Starts a row of `bindBorrowed` bindings: the bytes the previous row borrowed may be written over.
    public func beginBorrowedRow() {
        arena.reset()
    }

    /// Binds one value of a bulk insert's row without SQLite copying its text (SQLITE_STATIC): the bytes are copied
    /// once into memory this statement keeps (`BindArena`), which stays put until the next `beginBorrowedRow`. Every
    /// parameter must be bound again before each step (a bulk insert binds them all). For a large report's rows,
    /// SQLite's own copy of each text value (an allocation and a free per cell) took 13 % of the writer thread.
    public func bindBorrowed(_ value: SQLValue, at index: Int32) throws {
        let code: Int32
        switch value {
        case .text(var s):
            code = s.withUTF8 { bytes in
                let copy = arena.copy(UnsafeRawBufferPointer(bytes))
                return sqlite3_bind_text(handle, index, copy.assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                                         sqliteStatic)
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { raw in
                sqlite3_bind_blob(handle, index, arena.copy(raw), Int32(raw.count), sqliteStatic)
            }
        default:
            try bind(value, at: index)
            return
        }
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Binds values by parameter name (`[":unit": .text("101")]`).
    public func bind(_ values: [String: SQLValue]) throws {
        for (name, value) in values { try bind(value, at: parameterIndex(name)) }
    }

    /// Binds values to parameters 1, 2, ... in order.
    public func bind(_ values: [SQLValue]) throws {
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    /// Resets the statement and clears its bindings so it can run again.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement and leaves its bindings: for a caller that binds every parameter before each step (a
    /// bulk insert), clearing them first only costs time (5 % of a large report's writes).
    public func resetKeepingBindings() {
        sqlite3_reset(handle)
    }

    // MARK: - Running

    /// Advances one step: true when a row is available, false when done.
    @discardableResult
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            // Reset so the statement is reusable after the error; the step's code is the one that matters.
            sqlite3_reset(handle)
            throw error(code)
        }
    }

    /// Runs a statement that returns no rows, with named bindings, then resets it for reuse.
    public func execute(_ values: [String: SQLValue] = [:]) throws {
        reset()
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs with positional bindings, then resets it for reuse.
    public func execute(_ values: [SQLValue]) throws {
        reset()
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs a query and returns every row as `SQLValue`s (for small results).
    public func query(_ values: [String: SQLValue] = [:]) throws -> [[SQLValue]] {
        reset()
        try bind(values)
        defer { sqlite3_reset(handle) }
        var rows: [[SQLValue]] = []
        while try step() { rows.append(currentRow()) }
        return rows
    }

    /// Runs a query, handing each row to `body` without collecting them (for large results).
    public func forEachRow(_ values: [String: SQLValue] = [:], _ body: (Statement) throws -> Void) throws {
        reset()
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() { try body(self) }
    }

    /// Like `forEachRow`, but stops as soon as `body` returns false: a reader that needs only the first rows of an
    /// ordered result does not step through the rest.
    public func forEachRowWhile(_ values: [String: SQLValue] = [:], _ body: (Statement) throws -> Bool) throws {
        reset()
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step(), try body(self) {}
    }

    // MARK: - Reading the current row

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The name of a result column (0-based).
    public func columnName(_ index: Int) -> String {
        sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }

    /// The current row's value in a column (0-based), in its stored SQLite type.
    public func value(at index: Int) -> SQLValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT: return .text(text(at: index) ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let base = sqlite3_column_blob(handle, column), count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default: return .null
        }
    }

    /// Every column of the current row.
    public func currentRow() -> [SQLValue] { (0..<columnCount).map { value(at: $0) } }

    /// A column as text; nil for NULL.
    public func text(at index: Int) -> String? {
        guard let bytes = sqlite3_column_text(handle, Int32(index)) else { return nil }
        return String(cString: bytes)
    }

    /// A column's text as UTF-8 bytes, valid only inside `body`; nil for NULL. No String is made: for loops over
    /// millions of rows that compare or parse a column rather than keep it.
    public func withTextBytes<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> R) rethrows -> R {
        guard let bytes = sqlite3_column_text(handle, Int32(index)) else { return try body(nil) }
        return try body(UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, Int32(index)))))
    }

    /// A column as an integer; nil for NULL.
    public func int(at index: Int) -> Int? {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL ? nil : Int(sqlite3_column_int64(handle, Int32(index)))
    }

    /// A column as a double; nil for NULL.
    public func double(at index: Int) -> Double? {
        sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL ? nil : sqlite3_column_double(handle, Int32(index))
    }

    /// The position of a result column by name; a name the query does not select is a programming error.
    public func columnIndex(_ name: String) -> Int {
        for index in 0..<columnCount where columnName(index) == name { return index }
        preconditionFailure("the query selects no column \(name): \(sql)")
    }

    /// A named column as text; nil for NULL.
    public func text(_ column: String) -> String? { text(at: columnIndex(column)) }

    /// A named column as a double; nil for NULL.
    public func double(_ column: String) -> Double? { double(at: columnIndex(column)) }

    /// A named column as an integer; nil for NULL.
    public func int(_ column: String) -> Int? { int(at: columnIndex(column)) }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, handle: database.handle, context: SQLiteError.describe(sql: sql))
    }
}

/// SQLite's SQLITE_STATIC (a null destructor): the bound bytes stay valid and unchanged until rebound.
let sqliteStatic: sqlite3_destructor_type? = nil

/// Memory in chunks that never move, for bytes lent to SQLite while a row is bound: a chunk is never reallocated
/// (a longer text takes a chunk of its own), so a pointer handed out stays valid until `reset`.
final class BindArena {
    // Used by the statement's one thread at a time; unchecked, or every value bound pays three dynamic checks.
    @exclusivity(unchecked) private var chunks: [UnsafeMutableRawBufferPointer] = []
    @exclusivity(unchecked) private var chunk = 0
    @exclusivity(unchecked) private var offset = 0
    private static let chunkSize = 1 << 14

    /// Makes every chunk free again for the next row (they are kept: a row's memory is reused, not reallocated).
    func reset() { chunk = 0; offset = 0 }

    /// A copy of `bytes` that stays in place until `reset`.
    func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawPointer {
        let count = max(bytes.count, 1)
        while chunk < chunks.count, offset + count > chunks[chunk].count { chunk += 1; offset = 0 }
        if chunk == chunks.count {
            chunks.append(.allocate(byteCount: max(Self.chunkSize, count), alignment: 8))
            offset = 0
        }
        let destination = chunks[chunk].baseAddress! + offset
        if let source = bytes.baseAddress, bytes.count > 0 { destination.copyMemory(from: source, byteCount: bytes.count) }
        offset += count
        return UnsafeRawPointer(destination)
    }

    deinit { for chunk in chunks { chunk.deallocate() } }
}

/// SQLite's SQLITE_TRANSIENT (a destructor of -1), which the C macro hides from Swift:
/// it tells SQLite to copy the bound bytes before the call returns.
let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
