import Foundation
import Synchronization

/// The user and password a URI carries before its host (`rtsp://alice:secret@host:8554/live`): taken
/// out of the URI, so that what GStreamer and the messages see holds no password, and remembered as a
/// secret (`Secrets`), so that nothing gstpipe writes shows it.
package struct URICredentials: Sendable {
    package let user: String
    package let password: String

    /// Where the password of `rtsp://alice@…` comes from, so that it stays out of the process list.
    package static let passwordVariable = "GSTPIPE_RTSP_PASSWORD"

    /// True once a URI (an `rtsp://alice@camera/…` input, say) took its password from `passwordVariable`:
    /// then the variable was set for it, and an output naming no user is not refused for it.
    package static let environmentPasswordTaken = Atomic<Bool>(false)

    /// The scheme and `user[:password]` of a URI: the authority ends at the first `/`, `?` or `#`, and
    /// the user part at its last `@` (a password holding `@` or `/` is written percent-encoded).
    private static var pattern: Regex<AnyRegexOutput> { try! Regex(#"^([A-Za-z][A-Za-z0-9+.-]*://)([^/?#]*)@"#) }

    /// `scheme://user:pa/ss@host`: a password with a `/`, `?` or `#` not percent-encoded, which ends the
    /// authority early (digits before the first of them are a port: `host:8554/a@b` is a path).
    private static var unencoded: Regex<AnyRegexOutput> {
        // (An IPv6 literal's colons are not a password's: `rtsp://[::1]:8554/live?x=a@b`.)
        try! Regex(#"^[A-Za-z][A-Za-z0-9+.-]*://(?!\[)[^/?#@:\s]*:(?!\d*(?:[/?#]|$))[^\s]*[/?#][^\s]*@"#)
    }

    /// `uri` without its user and password, and them, decoded; the password of a URI naming a user
    /// alone comes from `GSTPIPE_RTSP_PASSWORD` in `environment`. Throws a usage error (with the
    /// password masked) for an empty user, or a user without a password from either place.
    package static func split(
        _ uri: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(CommandFailure) -> (uri: String, credentials: URICredentials?) {
        guard let match = uri.firstMatch(of: pattern), let userInfo = match.output[2].substring else {
            if uri.firstMatch(of: unencoded) != nil {
                throw .usage(
                    "\(Secrets.redact(uri)): its password holds a /, ? or # that ends the user part of a URI: "
                        + "percent-encode them (%2F, %3F, %23), or set \(passwordVariable) and write USER@ alone")
            }
            return (uri, nil)
        }
        let bare = String(match.output[1].substring ?? "") + uri[match.range.upperBound...]
        let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        // Registered before any message quotes the URI (a password without a user is refused below).
        if parts.count == 2 { Secrets.register(parts[1]) }
        let user = parts[0].removingPercentEncoding ?? parts[0]
        guard !user.isEmpty else {
            throw .usage(
                "\(Secrets.redact(uri)) names a password without a user: write it as rtsp://USER:PASSWORD@HOST/PATH")
        }
        let password: String
        if parts.count == 2 {
            password = parts[1].removingPercentEncoding ?? parts[1]
        } else if let fromEnvironment = environment[passwordVariable], !fromEnvironment.isEmpty {
            password = fromEnvironment
            environmentPasswordTaken.store(true, ordering: .relaxed)
        } else {
            throw .usage(
                "\(uri) names the user \(user) without a password: set \(passwordVariable) in the environment "
                    + "(it stays out of the process list), or write USER:PASSWORD@ in the URI")
        }
        guard !password.isEmpty else {
            throw .usage(
                "\(Secrets.redact(uri)) has an empty password: write one, or set \(passwordVariable) and leave it out")
        }
        Secrets.register(password)
        return (bare, URICredentials(user: user, password: password))
    }

    /// True when `uri` has a user part (`alice@`, `alice:secret@`).
    package static func isCarried(by uri: String) -> Bool { uri.firstMatch(of: pattern) != nil }
}
