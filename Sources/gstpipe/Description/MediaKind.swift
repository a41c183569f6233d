import GstPipeParsing

/// Pictures or sound: what a description's elements work on, and so which stream of a file input
/// goes down it and what an output file is asked to hold.
enum MediaKind: String, Sendable, CustomStringConvertible {
    case video, audio

    var description: String { rawValue }

    /// The kinds of media `tokens` (launch description tokens, file names left out) work on, each
    /// with the first token that shows it, for messages: an element whose factory klass holds
    /// "Video" or "Audio" (`gray` is "Filter/Effect/Video", `audioconvert` "Filter/Converter/Audio",
    /// so any Swift element registered with such a klass counts without a change here), or a caps
    /// filter (`video/x-raw,width=320`, `audio/x-raw,rate=48000`). Elements of neither kind (queue,
    /// tee, identity, filesink) say nothing.
    ///
    /// `klass` gives a factory's klass by name, nil for a token that names no factory (a property,
    /// `!`, a `name.` reference).
    static func found(in tokens: [String], klass: (String) -> String?) -> [MediaKind: String] {
        var found: [MediaKind: String] = [:]
        for token in tokens.map(TokenReader.unquoted) where token != "!" {
            if token.hasPrefix("video/") {
                found[.video] = found[.video] ?? token
            } else if token.hasPrefix("audio/") {
                found[.audio] = found[.audio] ?? token
            } else if !token.contains("="), !token.hasSuffix("."), let klass = klass(token) {
                // A klass is a list of words separated by "/", such as "Codec/Encoder/Audio".
                let words = klass.split(separator: "/")
                if words.contains("Video") { found[.video] = found[.video] ?? token }
                if words.contains("Audio") { found[.audio] = found[.audio] ?? token }
            }
        }
        return found
    }
}
