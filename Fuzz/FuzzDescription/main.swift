import FuzzSupport
import GstPipeParsing

// A launch description's tokens (`TokenReader`) and a stream output's address (`StreamAddress.parse`), read
// from any text: tokens that are never empty, filesink spans inside the tokens, and an address that is
// either refused with a usage error or has a port in range and no password in what is shown.

/// Entries like the real ones (Sources/gstpipe/Streams/Schemes): a server with a path and credentials,
/// a caller or listener whose options are checked, one that passes options on, one that refuses them.
let schemes = [
    OutputScheme(
        naming: .uri(["rtsp", "rtsps"]), help: "rtsp://HOST:PORT/PATH", example: "rtsp://0.0.0.0:8554/live",
        isServer: true, defaultPort: 8554, needsPath: true, options: .checked { _, _ in }, takesCredentials: true),
    OutputScheme(
        naming: .uri(["srt"]), help: "srt://HOST:PORT", example: "srt://HOST:9000", needsHost: false,
        options: .checked { options, token throws(CommandFailure) in
            if options.contains(where: { $0.name == "mode" }) { throw .usage("\(token): no mode") }
        }),
    OutputScheme(naming: .uri(["udp"]), help: "udp://HOST:PORT", example: "udp://127.0.0.1:5000"),
    OutputScheme(
        naming: .uri(["webrtc"]), help: "webrtc://HOST:PORT", example: "webrtc://0.0.0.0:8080", isServer: true,
        defaultPort: 8080, options: .refused("webrtc:// outputs take no options"))
]

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = Fuzzing.text(data, count)
    Secrets.forgetAll()
    let tokens = TokenReader.tokens(of: text)
    if tokens.contains(where: \.isEmpty) { fatalError("\(text.debugDescription) gave an empty token: \(tokens)") }
    let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
    if !text.contains("\"") && !text.contains("\\") && tokens != words {
        fatalError("\(text.debugDescription) without quotes gave \(tokens)")
    }
    let reader = TokenReader(names: Set(tokens.prefix(4)))
    for span in reader.filesinks(in: tokens)
    where !tokens.indices.contains(span.range.lowerBound)
        || span.range.upperBound > tokens.count
    {
        fatalError("\(text.debugDescription) gave the filesink span \(span.range) of \(tokens.count) tokens")
    }
    for index in tokens.indices { _ = reader.feeder(before: index, in: tokens) }
    for token in tokens.suffix(2) + [text] {
        _ = TokenReader.unquoted(token)
        for scheme in schemes where scheme.names(token) {
            guard let address = try? StreamAddress.parse(token, as: scheme) else { continue }
            if !((scheme.isServer ? 0 : 1)...65535).contains(address.port) {
                fatalError("\(token.debugDescription) gave the port \(address.port)")
            }
            // (A password also written as the host, the path or an option's value may show as those.)
            // (Compared as bytes: Foundation's contains stops at a NUL.)
            func holds(_ text: String, _ part: String) -> Bool { text.utf8.firstRange(of: part.utf8) != nil }
            let elsewhere = [address.host, address.path] + address.options.flatMap { [$0.name, $0.value] }
            if let password = address.credentials?.password, password.count >= 8, holds(address.uri, password),
                !elsewhere.contains(where: { holds($0, password) })
            {
                fatalError("\(token.debugDescription) shows its password in \(address.uri.debugDescription)")
            }
        }
    }
    return 0
}

Fuzzing.main(testOneInput)
