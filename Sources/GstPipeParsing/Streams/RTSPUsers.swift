import Foundation

/// The users an `rtsp://` output lets in (`RTSPAccess`): the one its URI names, and those of a users
/// file (`--rtsp-users FILE`): one `user:password` a line, or `user:gstpipe:HASH` as `htdigest` writes
/// it for the realm `gstpipe` (HASH the 32 hex digits of MD5(user:gstpipe:password)); `#` starts a
/// comment.
///
/// `user:password` is always a password, whatever it looks like: 32 hex digits are as likely a
/// password (`openssl rand -hex 16` writes them) as a hash, and reading one as the other locks its
/// user out without a word. A hash says so by its realm, as `htdigest` writes it; a line of another
/// realm is refused (its hash could never match), not read as the password `realm:hash`.
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

    /// The realm gstpipe's RTSP server names, which a users file's hashes must be made for.
    package static let realm = "gstpipe"

    /// Reads a users file. Refuses (exit 1), as ssh refuses a key others could read or change: a
    /// symbolic link (whoever can change the link chooses the file), a file another user owns, one
    /// whose mode lets its group or others in, and anything but a regular file (a FIFO would block the
    /// start until someone wrote to it, a device would be read forever). The file is opened without
    /// following a link or blocking, and checked again once open, so that it cannot be swapped
    /// between the check and the read. Says which line is wrong in one that is not as above.
    package static func read(file path: String) throws(CommandFailure) -> [RTSPUser] {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw .runtime("the users file \(path) does not exist: check the path given to --rtsp-users")
        }
        try check(status, path: path)
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .runtime("cannot read the users file \(path): check its permissions")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard fstat(descriptor, &status) == 0 else {
            throw .runtime("cannot read the users file \(path): check its permissions")
        }
        try check(status, path: path)
        guard let data = try? handle.readToEnd() ?? Data() else {
            throw .runtime("cannot read the users file \(path): check its permissions")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .runtime("the users file \(path) is not UTF-8 text: write it as user:password lines")
        }
        return try parse(text, file: path)
    }

    /// Refuses a users file that is not a regular file of this user's, closed to everyone else.
    private static func check(_ status: stat, path: String) throws(CommandFailure) {
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR:
            throw .runtime("the users file \(path) is a directory: give --rtsp-users a file of user:password lines")
        case S_IFLNK:
            throw .runtime(
                "the users file \(path) is a symbolic link: give --rtsp-users the file itself, so that whoever "
                    + "can change the link cannot choose who watches")
        default:
            throw .runtime("the users file \(path) is not a regular file (a FIFO, socket or device): give a file")
        }
        guard status.st_uid == geteuid() else {
            throw .runtime(
                "the users file \(path) belongs to user \(status.st_uid), not to this one (\(geteuid())): "
                    + "chown it, so that nobody else can change who watches")
        }
        let mode = status.st_mode & 0o777
        guard mode & 0o077 == 0 else {
            throw .runtime(
                "the users file \(path) is open to other users (mode \(String(mode, radix: 8))): "
                    + "chmod 600 \(path), so that only you can read its passwords")
        }
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
                throw .runtime(
                    "\(file), line \(index + 1): write each user as user:password (or user:gstpipe:digest-hash)")
            }
            var secret = Secret.password(parts[1])
            let fields = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            if fields.count == 2, fields[1].count == 32, fields[1].allSatisfy(\.isHexDigit) {
                guard fields[0] == realm else {
                    throw .runtime(
                        "\(file), line \(index + 1): an htdigest hash for the realm \(fields[0]), which gstpipe "
                            + "does not use: make it for the realm \(realm) (htdigest FILE \(realm) \(parts[0]))")
                }
                secret = .digestHash(fields[1].lowercased())
            }
            Secrets.register(parts[1])
            if case .digestHash(let hash) = secret { Secrets.register(hash) }
            // gst-rtsp-server would keep the last silently, and refuse the password of the first.
            if let first = lineOf[parts[0]] {
                throw .runtime("\(file), lines \(first) and \(index + 1) both name \(parts[0]): keep one of them")
            }
            lineOf[parts[0]] = index + 1
            users.append(RTSPUser(name: parts[0], secret: secret))
        }
        guard !users.isEmpty else { throw .runtime("the users file \(file) names no user: add lines of user:password") }
        return users
    }
}
