extension ExcelDateTime {
    /// The date and time an Excel serial number stands for, or nil when it is outside 0...9999-12-31.
    ///
    /// The 1900 system keeps Lotus 1-2-3's bug: serial 60 is the nonexistent 1900-02-29, so serials
    /// below 61 count from 1899-12-31 and later ones from 1899-12-30. Times round to the nearest second.
    public init?(serial: Double, uses1904DateSystem: Bool) {
        guard serial.isFinite, serial >= 0, serial < 2_958_466 else { return nil }
        let totalSeconds = Int64((serial * 86_400).rounded())
        let dayCount = Int(totalSeconds / 86_400)
        let secondOfDay = Int(totalSeconds % 86_400)
        let civil: (year: Int, month: Int, day: Int)
        if uses1904DateSystem {
            civil = civilDate(fromDays: daysFromCivil(1904, 1, 1) + dayCount)
        } else if dayCount == 60 {
            civil = (1900, 2, 29)
        } else if dayCount < 60 {
            civil = civilDate(fromDays: daysFromCivil(1899, 12, 31) + dayCount)
        } else {
            civil = civilDate(fromDays: daysFromCivil(1899, 12, 30) + dayCount)
        }
        guard civil.year <= 9999 else { return nil }
        self.init(year: civil.year, month: civil.month, day: civil.day,
                  hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    /// Parses ISO 8601 text as written in `t="d"` cells: `YYYY-MM-DD`, optionally `THH:MM[:SS[.fff]]` and a zone (ignored).
    init?(iso8601 bytes: some Collection<UInt8>) {
        let b = Array(bytes)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), b.count >= 10, b[4] == 0x2D, b[7] == 0x2D,
              let month = number(5, 2), let day = number(8, 2),
              (1...12).contains(month), day >= 1, day <= daysInMonth(year, month) else { return nil }
        var hour = 0, minute = 0, second = 0
        if b.count > 10 {
            guard b[10] == 0x54 || b[10] == 0x20, let h = number(11, 2), b.count > 13, b[13] == 0x3A,
                  let m = number(14, 2) else { return nil }
            hour = h
            minute = m
            if b.count > 16, b[16] == 0x3A {
                guard let s = number(17, 2) else { return nil }
                second = s
            }
            guard hour < 24, minute < 60, second < 60 else { return nil }
        }
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}

func daysInMonth(_ year: Int, _ month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
}

/// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
}

/// The calendar date of a day count since 1970-01-01 (inverse of `daysFromCivil`).
func civilDate(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let day = doy - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
}
