import Foundation
import FuzzSupport
import GstPipeParsing

// A users file (`--rtsp-users`) is read, or refused with an error naming the line, whatever it holds; what
// it reads is one user a name, each with a name and a secret, and an error never shows a password.

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = Fuzzing.text(data, count)
    Secrets.forgetAll()
    do {
        let users = try RTSPUser.parse(text, file: "users")
        if users.isEmpty { fatalError("\(text.debugDescription) gave no user, and no error") }
        if Set(users.map(\.name)).count != users.count { fatalError("\(text.debugDescription) gave a user twice") }
        for user in users {
            let secret: String
            switch user.secret {
            case .password(let password): secret = password
            case .digestHash(let hash): secret = hash
            }
            if user.name.isEmpty || secret.isEmpty || user.name.contains(":") {
                fatalError("\(text.debugDescription) gave the user \(user.name.debugDescription): \(secret)")
            }
        }
    } catch {
        let message: String
        switch error {
        case .usage(let words), .runtime(let words): message = words
        }
        // Errors name the file, a line and a user, never a password: none long enough to be told from
        // ordinary words (8 characters) is in the message once the users' names are taken out.
        // Comment lines hold no password.
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("#") }
        let names = lines.map { $0.prefix { $0 != ":" } }
        // The message with the words every such error carries (which a password may happen to spell, as
        // `gstpipe:` of the hint did) and the users' names taken out: what is left may not quote a password.
        var rest = message
        for words in ["user:password", "user:gstpipe:digest-hash", "realm gstpipe", "htdigest FILE gstpipe"] {
            rest = rest.replacing(words, with: "")
        }
        for name in names where !name.isEmpty { rest = rest.replacing(name, with: "") }
        // A hash line's realm (`user:realm:HASH`) is named when it is not gstpipe's: it is no password.
        for line in lines {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            if fields.count == 3, fields[2].count == 32, fields[2].allSatisfy(\.isHexDigit), !fields[1].isEmpty {
                rest = rest.replacing(fields[1], with: "")
            }
        }
        let passwords = lines.compactMap { line in line.firstIndex(of: ":").map { line[line.index(after: $0)...] } }
        if let shown = passwords.first(where: { password in
            // (Compared as bytes: Foundation's contains stops at a NUL.)
            password.count >= 8 && rest.utf8.firstRange(of: password.utf8) != nil
        }) {
            fatalError("an error about \(text.debugDescription) shows the password \(shown): \(message)")
        }
    }
    return 0
}

Fuzzing.main(testOneInput)
