import Foundation
import FuzzSupport
import GstPipeParsing

// `URICredentials.split` takes the user and password out of any URI, or refuses it with a usage error, and
// never lets the password through: not in the URI it returns, nor (once registered) in the URI redacted.

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let uri = Fuzzing.text(data, count)
    Secrets.forgetAll()
    let carried = URICredentials.isCarried(by: uri)
    let bare: String
    let credentials: URICredentials?
    do {
        (bare, credentials) = try URICredentials.split(uri, environment: [:])
    } catch {
        // Refused: only a URI with a user part, or one whose password ends its user part early, is.
        return 0
    }
    guard let credentials else {
        if carried { fatalError("\(uri.debugDescription) has a user part, and split found none") }
        if bare != uri { fatalError("\(uri.debugDescription) has no user part, and split changed it to \(bare)") }
        return 0
    }
    if credentials.user.isEmpty || credentials.password.isEmpty {
        fatalError("\(uri.debugDescription) gave an empty user or password")
    }
    // The authority left holds no user part.
    let authority = bare.drop { $0 != "/" }.dropFirst(2).prefix { !"/?#".contains($0) }
    if authority.contains("@") { fatalError("\(uri.debugDescription) left a user part in \(bare.debugDescription)") }
    // A password as written, long enough to be hidden wherever it stands, and not also in the rest of the URI.
    let written = uri.dropFirst(uri.distance(from: uri.startIndex, to: uri.range(of: "://")!.upperBound))
        .prefix { $0 != "@" }.drop { $0 != ":" }.dropFirst()
    // A user's name stays in the redacted URI, with the colon and the mask after it ("alice:***"), and a password
    // may spell part of that run (a password "alice:" of the user alice, or "lice:***"): the password shows when the
    // redacted URI holds it once those runs are taken out. The names are those the URI spells after each "//": the
    // redactor also hides what looks like a user part further on ("//bob:x@" in a path). Only those exact runs go,
    // so a password shown beside a mask ("alice:secret:***") still counts. (Compared as bytes: Foundation's search
    // stops at a NUL.)
    let bytes = Array(uri.utf8)
    let names = Set(
        bytes.ranges(of: Array("//".utf8)).map { slash in
            Array(bytes[slash.upperBound...].prefix { !"/:@".utf8.contains($0) })
        }
    ).sorted { $0.count > $1.count }
    var shown = Array(Secrets.redact(uri).utf8)
    if let marker = (UInt8(1)...UInt8(127)).first(where: { !written.utf8.contains($0) }) {
        for name in names {
            for userPart in shown.ranges(of: name + Array(":\(Secrets.mask)".utf8)).reversed() {
                shown.replaceSubrange(userPart, with: [marker])
            }
        }
    }
    if written.count >= 8, bare.utf8.ranges(of: written.utf8).isEmpty,
        !shown.ranges(of: Array(written.utf8)).isEmpty
    {
        fatalError("the password of \(uri.debugDescription) shows in \(Secrets.redact(uri).debugDescription)")
    }
    return 0
}

Fuzzing.main(testOneInput)
