import Foundation
import HTTPTypes

/// The secret a `webrtc://` server asks of every WHEP or WHIP request that changes something (POST,
/// PATCH, DELETE) as `Authorization: Bearer SECRET` (RFC 6750, as WHIP and WHEP specify): from the
/// address's `?token=`, else from `GSTPIPE_WEBRTC_TOKEN`, which keeps it out of the process list. The
/// pages are served to anyone (they hold nothing secret) and send the token they find in their own
/// URL (`#token=`, which no server log sees, or `?token=`).
///
/// The token is compared in constant time, and never shown: every address said to the user has
/// `token=***` (`masked`).
package struct BearerToken: Sendable {
    /// The environment variable read when the address has no `?token=`.
    package static let variable = "GSTPIPE_WEBRTC_TOKEN"

    private let secret: [UInt8]

    /// `token`, else `variable` from `environment`; nil when neither is there or empty (callers refuse
    /// an empty one first, with `emptiness`).
    package init?(_ token: String?, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let token = token ?? environment[Self.variable], !token.isEmpty else { return nil }
        secret = Array(token.utf8)
    }

    /// Why `token` (the address's, else `variable` in `environment`) cannot be used: it is there but
    /// empty. An empty secret admits nothing anyone could not guess, and reading it as no token would
    /// serve without authentication after the user asked for it (a script's unset variable, a
    /// `?token=` left blank), so it is refused rather than taken as either; nil when it is fine.
    package static func emptiness(
        _ token: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if let token {
            return token.isEmpty ? "token= is empty: give the secret (token=SECRET), or leave token out" : nil
        }
        guard environment[variable] == "" else { return nil }
        return "\(variable) is set but empty: give it the secret, or unset it to serve without a token"
    }

    /// True when `authorization` (the request's header) is `Bearer` and this token. Every byte is
    /// compared whatever the first difference, so that the time taken tells nothing of the token.
    package func admits(_ authorization: String?) -> Bool {
        guard let authorization, authorization.count > 7,
            authorization.prefix(7).lowercased() == "bearer "
        else { return false }
        let given = Array(authorization.utf8.dropFirst(7))
        // Lengths compared whole: a token with 256 bytes more must not pass for it.
        var difference: UInt8 = given.count == secret.count ? 0 : 1
        for index in secret.indices {
            difference |= secret[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }

    /// The header of a refusal: RFC 6750's `invalid_token` when a token was given, and the bare
    /// challenge when none was.
    package static func challenge(given authorization: String?) -> HTTPFields {
        let challenge = "Bearer realm=\"gstpipe\""
        return [.wwwAuthenticate: authorization == nil ? challenge : challenge + ", error=\"invalid_token\""]
    }
}
