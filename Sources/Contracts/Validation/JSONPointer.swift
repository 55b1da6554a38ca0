/// RFC 6901 JSON Pointers, built only when a violation is reported.
public enum JSONPointer {
    /// One reference token escaped: `~` becomes `~0`, `/` becomes `~1`.
    public static func escape(_ token: String) -> String {
        var needsEscape = false
        for byte in token.utf8 where byte == 0x7E || byte == 0x2F {
            needsEscape = true
            break
        }
        guard needsEscape else { return token }
        var result = ""
        for character in token.unicodeScalars {
            switch character {
            case "~": result += "~0"
            case "/": result += "~1"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// The pointer for a list of unescaped tokens: `["aps", "mutable-content"]` → `/aps/mutable-content`.
    public static func make(_ tokens: [String]) -> String {
        var result = ""
        for token in tokens {
            result += "/"
            result += escape(token)
        }
        return result
    }

    /// The pointer for `tokens` followed by `last`.
    public static func make(_ tokens: [String], appending last: String) -> String {
        make(tokens) + "/" + escape(last)
    }
}
