/// Substring tests by UTF-8 bytes, for the checks every token of every run goes through: Foundation's
/// `contains` on Linux goes through NSString, and the generic `firstRange(of:)` costs more to set up at each
/// call than the search; each was a measurable share of gstpipe's start.
package enum ByteSearch {
    /// Whether the bytes of `word` stand in `text`, anywhere (an empty word stands everywhere).
    package static func contains(_ word: String, in text: String) -> Bool {
        var text = text
        var word = word
        return text.withUTF8 { text in
            word.withUTF8 { word in
                guard !word.isEmpty else { return true }
                guard word.count <= text.count else { return false }
                for start in 0...(text.count - word.count) {
                    var offset = 0
                    while offset < word.count && text[start + offset] == word[offset] { offset += 1 }
                    if offset == word.count { return true }
                }
                return false
            }
        }
    }
}
