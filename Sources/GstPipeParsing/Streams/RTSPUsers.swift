import Foundation

/// The users an `rtsp://` output lets in (`RTSPAccess`): the one its URI names, and those of a users
/// file (`--rtsp-users FILE`): one `user:password` a line, or `user:HASH` with HASH the 32 hex digits
/// of MD5(user:gstpipe:password) that `htdigest` writes for the realm `gstpipe`; `#` starts a comment.
package struct RTSPUser: Sendable {
    package enum Secret: Sendable {
        case password(String)
        /// MD5(user:realm:password), hex: Digest only (Basic needs the password itself).
        case digestHash(String)
    }

    package let name: String
    package let secret: Secret

    /// The user `name`, let in with `secret`.
    package init(name: String, secret: Secret) { (self.name, self.secret) = (name, secret) }

    /// Reads a users file. Refuses (exit 1), as ssh refuses a key others can read, a file whose mode
    /// lets its group or others in; and says which line is wrong in one that is not as above.
    package static func read(file path: String) throws(CommandFailure) -> [RTSPUser] {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw .runtime("the users file \(path) does not exist: check the path given to --rtsp-users")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else {
            throw .runtime("the users file \(path) is a directory: give --rtsp-users a file of user:password lines")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw .runtime(
                "the users file \(path) is open to other users (mode \(String(mode, radix: 8))): "
                    + "chmod 600 \(path), so that only you can read its passwords")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .runtime("cannot read the users file \(path): check its permissions")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .runtime("the users file \(path) is not UTF-8 text: write it as user:password lines")
        }
        return try parse(text, file: path)
    }

    /// The users of a file's `text`; `file` names it in errors, which never show a password.
    package static func parse(_ text: String, file: String) throws(CommandFailure) -> [RTSPUser] {
        var users: [RTSPUser] = []
        var lineOf: [String: Int] = [:]
        // \.isNewline: "\r\n" is one Character, which splitting at "\n" would never find (a file from Windows).
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = line.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw .runtime("\(file), line \(index + 1): write each user as user:password (or user:digest-hash)")
            }
            Secrets.register(parts[1])
            // gst-rtsp-server would keep the last silently, and refuse the password of the first.
            if let first = lineOf[parts[0]] {
                throw .runtime("\(file), lines \(first) and \(index + 1) both name \(parts[0]): keep one of them")
            }
            lineOf[parts[0]] = index + 1
            let isHash = parts[1].count == 32 && parts[1].allSatisfy(\.isHexDigit)
            users.append(
                RTSPUser(name: parts[0], secret: isHash ? .digestHash(parts[1].lowercased()) : .password(parts[1])))
        }
        guard !users.isEmpty else { throw .runtime("the users file \(file) names no user: add lines of user:password") }
        return users
    }
}
