/// Building XML text by hand (SOAP requests, exports): every value goes through `escape`.
public enum XMLText {
    /// The text with `& < > " '` as entity references, safe inside element content and quoted attribute values.
    ///
    /// Tab, LF and CR become character references because parsers normalize them in attributes
    /// (and CR in text); other control characters cannot appear in XML 1.0 at all, so they become U+FFFD.
    public static func escape(_ text: String) -> String {
        var needs = false
        for byte in text.utf8 where byte < 0x20 || byte == 0x26 || byte == 0x3C || byte == 0x3E || byte == 0x22 || byte == 0x27 {
            needs = true
            break
        }
        if !needs { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
