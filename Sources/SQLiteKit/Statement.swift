import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// A prepared statement, compiled once and reused across rows; finalized in deinit.
public final class Statement {
    private let handle: OpaquePointer
    private unowned let database: Database
    /// Where the compiled statement goes back when this is released (its connection's `StatementCache`).
    private let cache: StatementCache
    /// The SQL text, for error messages.
    public let sql: String

    /// The statement for `sql`: one the connection compiled before and no one uses now, else compiled anew.
    init(database: Database, sql: String) throws {
        if let kept = database.statements.take(sql) {
            self.handle = kept
        } else {
            var statement: OpaquePointer?
            let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
            guard code == SQLITE_OK, let statement else {
                throw SQLiteError(code: code, handle: database.handle, context: SQLiteError.describe(sql: sql))
            }
            self.handle = statement
        }
        self.database = database
        self.cache = database.statements
        self.sql = sql
    }

    deinit { cache.give(handle, sql: sql) }

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

    /// Binds text given as its UTF-8 bytes (SQLite copies them) at a 1-based parameter index: a caller reading bytes
    /// from elsewhere (a PostgreSQL COPY) binds them without making a String first.
    public func bindText(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        // An empty field may have no base address; bind a zero-length text, not NULL.
        let code = if let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self) {
            sqlite3_bind_text(handle, index, base, Int32(bytes.count), sqliteTransient)
        } else {
            sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
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

    /// How SQLite stores a value: its storage class.
    public enum StorageClass: Sendable {
        case null, integer, real, text, blob
    }

    /// The storage class of the current row's value in a column (0-based): for loops that read a value where it lies
    /// (`int(at:)`, `double(at:)`, `withTextBytes(at:)`) instead of making an `SQLValue`.
    public func storageClass(at index: Int) -> StorageClass {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
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

    // MARK: - Comparing the current rows of two statements

    /// How this statement's current value in `column` orders against `other`'s current value in `otherColumn` (both
    /// 0-based, both statements on a row), as SQLite orders values under the BINARY collation: NULL first, then numbers
    /// by value, then text by its bytes, then blobs by theirs. 0: the same value, as `IS` says (an integer and a real
    /// of the same value are the same). Read where the values lie: no `SQLValue` is made, for walks over whole tables.
    public func compare(_ column: Int, with other: Statement, _ otherColumn: Int) -> Int {
        let left = Int32(column), right = Int32(otherColumn)
        let leftType = sqlite3_column_type(handle, left), rightType = sqlite3_column_type(other.handle, right)
        func rank(_ type: Int32) -> Int {
            switch type {
            case SQLITE_NULL: 0
            case SQLITE_INTEGER, SQLITE_FLOAT: 1
            case SQLITE_TEXT: 2
            default: 3
            }
        }
        let leftRank = rank(leftType), rightRank = rank(rightType)
        guard leftRank == rightRank else { return leftRank < rightRank ? -1 : 1 }
        func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : a == b ? 0 : 1 }
        switch leftRank {
        case 0:
            return 0
        case 1:
            if leftType == SQLITE_INTEGER && rightType == SQLITE_INTEGER {
                return order(sqlite3_column_int64(handle, left), sqlite3_column_int64(other.handle, right))
            }
            return order(sqlite3_column_double(handle, left), sqlite3_column_double(other.handle, right))
        default:
            // Text or blob: the bytes, a shorter one first when it is the other's beginning.
            let a = leftRank == 2 ? UnsafeRawPointer(sqlite3_column_text(handle, left)) : sqlite3_column_blob(handle, left)
            let b = leftRank == 2 ? UnsafeRawPointer(sqlite3_column_text(other.handle, right)) : sqlite3_column_blob(other.handle, right)
            let aCount = Int(sqlite3_column_bytes(handle, left)), bCount = Int(sqlite3_column_bytes(other.handle, right))
            if let a, let b, case let bytes = memcmp(a, b, min(aCount, bCount)), bytes != 0 { return bytes < 0 ? -1 : 1 }
            return order(aCount, bCount)
        }
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, handle: database.handle, context: SQLiteError.describe(sql: sql))
    }
}

/// SQLite's SQLITE_TRANSIENT (a destructor of -1), which the C macro hides from Swift:
/// it tells SQLite to copy the bound bytes before the call returns.
let sqliteTransient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
