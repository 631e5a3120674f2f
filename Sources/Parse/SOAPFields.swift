import OwnerDashCore
import SOAP
import XMLKit

/// The fields of one record element of a SOAP payload, read by local name and normalized with `SOAPValue`.
///
/// A value in none of the documented formats throws a `SOAPError` naming the operation, the record
/// (`UnitInfo 3`) and the field, so the artifact fails whole rather than storing a wrong number.
struct SOAPFields {
    let element: XMLElement
    let operation: String
    /// `UnitInfo 3`, for messages.
    let record: String

    init(_ element: XMLElement, operation: String, record: String) {
        self.element = element; self.operation = operation; self.record = record
    }

    /// The child element's fields under the same record label; nil when absent.
    func nested(_ names: String...) -> SOAPFields? {
        var current = element
        for name in names {
            guard let next = current.child(named: name) else { return nil }
            current = next
        }
        return SOAPFields(current, operation: operation, record: record)
    }

    /// Trimmed text of the child, nil when the child is missing or empty.
    func text(_ name: String) -> String? {
        guard let child = element.child(named: name) else { return nil }
        let value = String(child.text.trimmingWhitespace)
        return value.isEmpty ? nil : value
    }

    /// Trimmed attribute value, nil when missing or empty.
    func attribute(_ name: String) -> String? {
        let value = element.attribute(name).map { String($0.trimmingWhitespace) }
        return value?.isEmpty == false ? value : nil
    }

    func money(_ name: String) throws -> Money? { try convert(name) { try SOAPValue.money($0) } }
    func date(_ name: String) throws -> LocalDate? { try convert(name) { try SOAPValue.date($0) } }
    func dateTime(_ name: String) throws -> String? { try convert(name) { try SOAPValue.dateTime($0) } }
    func flag(_ name: String) throws -> Bool? { try convert(name) { try SOAPValue.flag($0) } }
    func integer(_ name: String) throws -> Int? { try convert(name) { try SOAPValue.integer($0) } }
    func decimal(_ name: String) throws -> Double? { try convert(name) { try SOAPValue.decimal($0) } }
    func month(_ name: String) throws -> String? { try convert(name) { try SOAPValue.month($0) } }

    /// A required amount: missing is an error, not zero.
    func requiredMoney(_ name: String) throws -> Money {
        guard let value = try money(name) else { throw invalid("\(name) is missing") }
        return value
    }

    /// A required text field.
    func required(_ name: String) throws -> String {
        guard let value = text(name) else { throw invalid("\(name) is missing") }
        return value
    }

    /// A MITS date group: `<MadeReadyDate Month="3" Day="14" Year="2026" />`; nil when it has no attributes.
    func mitsDate(_ name: String) throws -> LocalDate? {
        guard let child = element.child(named: name), let y = child.attribute("Year"), let m = child.attribute("Month"),
              let d = child.attribute("Day") else { return nil }
        guard let year = Int(y), let month = Int(m), let day = Int(d), let date = LocalDate(year: year, month: month, day: day) else {
            throw invalid("\(name): Month=\"\(m)\" Day=\"\(d)\" Year=\"\(y)\" is not a date")
        }
        return date
    }

    func invalid(_ message: String) -> SOAPError {
        SOAPError(operation: operation, kind: .invalidValue("\(record): \(message)"))
    }

    private func convert<T>(_ name: String, _ body: (String) throws -> T?) throws -> T? {
        guard let child = element.child(named: name) else { return nil }
        do {
            return try body(child.text)
        } catch let error as SOAPValueError {
            throw invalid("\(name): \(error.description)")
        }
    }
}

extension SOAPResponse {
    /// Parses and checks a Yardi response for `operation`.
    static func yardi(_ bytes: [UInt8], _ operation: YardiOperation) throws -> SOAPResponse {
        try SOAPResponse(bytes: bytes, operation: operation.name, expectedRoot: operation.payloadRoot)
    }

    /// Checks a Yardi response for `operation` and decodes each `record` element of its payload (`records(named:)`).
    static func yardiRecords<Record>(_ bytes: [UInt8], _ operation: YardiOperation, named record: String,
                                     _ decode: (XMLElement, Int) throws -> Record) throws -> [Record] {
        try records(named: record, decode) { try yardiStream(bytes, operation, records: [record], $0) }
    }

    /// Each `record` element of a payload `stream` hands out, decoded in document order as it is read (`decode` gets
    /// the element and its 1-based position). One pass: the check and then a parse of the whole tree read every
    /// answer twice (the tree alone was a third of decoding getleaseinfo). A record that fails to decode throws only
    /// once the stream's check has passed, so a vendor's error still wins, as it did when the answer was checked first.
    fileprivate static func records<Record>(named record: String, _ decode: (XMLElement, Int) throws -> Record,
                                            stream: ((XMLElement) throws -> Void) throws -> Void) throws -> [Record] {
        var records: [Record] = []
        var failure: (any Error)?
        try withoutActuallyEscaping(decode) { decode in
            try stream { element in
                guard failure == nil else { return }
                do { records.append(try decode(element, records.count + 1)) } catch { failure = error }
            }
        }
        if let failure { throw failure }
        return records
    }

    /// Checks a Yardi response for `operation` while streaming the `records` elements of its payload to `body`.
    static func yardiStream(_ bytes: [UInt8], _ operation: YardiOperation, records: Set<String>,
                            _ body: (XMLElement) throws -> Void) throws {
        try SOAPResponse.stream(bytes: bytes, operation: operation.name, expectedRoot: operation.payloadRoot,
                                records: records, body)
    }
}

extension SOAPResponse {
    /// Parses and checks an RPX response for `operation`.
    static func rpx(_ bytes: [UInt8], _ operation: RPXOperation) throws -> SOAPResponse {
        try SOAPResponse(bytes: bytes, operation: operation.name, expectedRoot: operation.payloadRoot)
    }

    /// Checks an RPX response for `operation` and decodes each `record` element of its payload (`records(named:)`).
    static func rpxRecords<Record>(_ bytes: [UInt8], _ operation: RPXOperation, named record: String,
                                   _ decode: (XMLElement, Int) throws -> Record) throws -> [Record] {
        try records(named: record, decode) { try rpxStream(bytes, operation, records: [record], $0) }
    }

    /// Checks an RPX response for `operation` while streaming the `records` elements of its payload to `body`.
    static func rpxStream(_ bytes: [UInt8], _ operation: RPXOperation, records: Set<String>,
                          _ body: (XMLElement) throws -> Void) throws {
        try SOAPResponse.stream(bytes: bytes, operation: operation.name, expectedRoot: operation.payloadRoot,
                                records: records, body)
    }
}
