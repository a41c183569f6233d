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
        // Errors name the file, a line, a user and a hash line's realm, never a password (of 8 characters
        // or more, to be told from ordinary words). What the message may quote: those, the line numbers, and
        // the fixed words of each of the parser's messages. A password is shown when it stands in the
        // message somewhere none of those covers: a password that merely spells part of a name, a realm, a
        // line's number or the messages' own words, or a run of them ("e gstpipe" in "both name gstpipe",
        // which the fuzzer builds on purpose), is not. Every byte of a message that shows no password is one
        // of those, so only a password the parser copied stays uncovered. Comment lines hold no password.
        // Compared as bytes: Foundation's string search stops at a NUL.
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("#") }
        var quotable = [
            "users", ", line ", ", lines ", " and ", " both name ", ": keep one of them",
            ": write each user as user:password (or user:gstpipe:digest-hash)",
            ": an htdigest hash for the realm ", ", which gstpipe does not use: make it for the realm gstpipe",
            " (htdigest FILE gstpipe ", ")", "the users file ", " names no user: add lines of user:password"
        ]
        for line in lines {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            quotable.append(fields[0])
            if fields.count == 3, fields[2].count == 32, fields[2].allSatisfy(\.isHexDigit) {
                quotable.append(fields[1])
            }
        }
        let bytes = Array(message.utf8)
        var covered = [Bool](repeating: false, count: bytes.count)
        for words in quotable where !words.isEmpty {
            for range in bytes.ranges(of: Array(words.utf8)) { for index in range { covered[index] = true } }
        }
        // A line's number: each run of digits that counts a line of the file.
        let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            if end > start, let number = Int(String(decoding: bytes[start..<end], as: UTF8.self)),
                (1...lineCount).contains(number)
            {
                for index in start..<end { covered[index] = true }
            }
            start = end + 1
        }
        let passwords = lines.compactMap { line in
            line.firstIndex(of: ":").map { String(line[line.index(after: $0)...]) }
        }
        if let shown = passwords.first(where: { password in
            password.utf8.count >= 8
                && bytes.ranges(of: Array(password.utf8)).contains { range in
                    // A space or colon beside a quoted name is the message's own ("both name gstpipe: keep"):
                    // a password that only adds those to such a name shows nothing the name did not.
                    range.contains { !covered[$0] && bytes[$0] != UInt8(ascii: " ") && bytes[$0] != UInt8(ascii: ":") }
                }
        }) {
            fatalError("an error about \(text.debugDescription) shows the password \(shown): \(message)")
        }
    }
    return 0
}

Fuzzing.main(testOneInput)
