import Foundation
import FuzzSupport
import GstPipeParsing

// The redactor hides a registered secret whatever surrounds it. The input is a secret, then text around it:
// the secret's letters become digits (so it always holds digits), and the text around it holds no digit, so
// that any digit in what `Secrets.redact` returns is a piece of the secret that got out.

/// The forms a secret is written in (the first: none), with no digit of their own; `%@` stands for the secret.
let forms = [
    "%@", "rtsp://alice:%@@camera/live", "srt://host?passphrase=%@&latency=low",
    "webrtc://host/live?token=%@", "user-pw=\\\"%@\\\"", "password=%@", "Authorization: Bearer %@",
    "proxy-pw='%@'", "#token=%@"
]

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard count > 1, let data else { return 0 }
    let form = forms[Int(data[0]) % forms.count]
    let text = Fuzzing.text(data + 1, count - 1)
    // The secret up to the first NUL, the text around it after.
    let parts = text.split(separator: "\0", maxSplits: 2, omittingEmptySubsequences: false)
    guard parts.count == 3 else { return 0 }
    let secret = String(parts[1].map { $0.isASCII && $0.isLetter ? Character(String($0.asciiValue! % 10)) : $0 })
    // Secrets under 8 characters stay inside longer words on purpose (Secrets.masking): not asked here.
    guard secret.count >= 8, secret.unicodeScalars.contains(where: isDigit) else { return 0 }
    let before = String(String.UnicodeScalarView(parts[0].unicodeScalars.filter { !isDigit($0) }))
    let after = String(String.UnicodeScalarView(parts[2].unicodeScalars.filter { !isDigit($0) }))
    Secrets.forgetAll()
    Secrets.register(secret)
    let written = before + form.replacingOccurrences(of: "%@", with: secret) + after
    let shown = Secrets.redact(written)
    if shown.unicodeScalars.contains(where: isDigit) {
        fatalError(
            "the secret \(secret.debugDescription) got out of \(written.debugDescription): \(shown.debugDescription)")
    }
    return 0
}

func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

Fuzzing.main(testOneInput)
