import Foundation
import GstPipeParsing
import GstPipeSupport
import GstPipeWebRTC

/// The HTTP side of gstpipe as a client of another server: a WHIP endpoint (RFC 9725) it publishes
/// to, or a WHEP endpoint it watches. The offer is POSTed as `application/sdp`, with
/// `Authorization: Bearer TOKEN` when a token is given; the `201 Created` response holds the answer
/// and, in `Location`, the session's resource, which a DELETE ends. The candidates gathered after the
/// offer went follow by PATCH to that resource (`trickle`). `HTTPExchange` does the HTTP (SwiftNIO's
/// HTTP/1.1 over GIO's TCP and TLS): no hand-written HTTP.
///
/// The token never shows: every address said to the user has `token=***` (`shown`, by `Secrets`).
struct WHIPClient: Sendable {
    /// Which protocol, for messages and the token's variable.
    enum Role: Sendable {
        case whip, whep

        var name: String { self == .whip ? "WHIP" : "WHEP" }
        /// The environment variable read when the address has no `?token=`.
        var tokenVariable: String { self == .whip ? "GSTPIPE_WHIP_TOKEN" : "GSTPIPE_WHEP_TOKEN" }
    }

    /// A session the server accepted: its answer, and its resource (nil when the server gave no
    /// `Location`: the session then ends with the connection alone).
    struct Session: Sendable {
        let answer: String
        let resource: URL?
    }

    let role: Role
    /// The endpoint as HTTP: `whip+` or `whep+` taken off, the token taken out of the query.
    let endpoint: URL
    let token: String?
    /// The address as written, its token hidden.
    let shown: String

    /// Reads `uri` (`whip+http://…`, `whep+https://…`); the token comes from its `token` option, else
    /// from the role's environment variable. Throws a usage error for an address that is not one.
    init(uri: String, role: Role, environment: [String: String] = ProcessInfo.processInfo.environment) throws(FileJob
        .Failure)
    {
        self.role = role
        shown = Secrets.redact(uri)
        guard let plus = uri.firstIndex(of: "+"),
            var parts = URLComponents(string: String(uri[uri.index(after: plus)...]))
        else {
            throw .usage("cannot read \(shown) as a \(role.name) endpoint: write it as whip+http://HOST:PORT/PATH")
        }
        let items = parts.queryItems ?? []
        let written = items.last { $0.name == "token" }?.value
        let kept = items.filter { $0.name != "token" && $0.name != "codec" }
        parts.queryItems = kept.isEmpty ? nil : kept
        guard let endpoint = parts.url, endpoint.host != nil else {
            throw .usage("cannot read \(shown) as a \(role.name) endpoint: write it as whip+http://HOST:PORT/PATH")
        }
        self.endpoint = endpoint
        let token = written ?? environment[role.tokenVariable]
        self.token = token?.isEmpty == false ? token : nil
    }

    /// POSTs `offer` and returns the server's answer and session; throws a runtime error that says
    /// what went wrong and what to do (nothing listening, a token refused, an answer that is not SDP).
    func open(offer: String) async throws(FileJob.Failure) -> Session {
        let response: HTTPExchange.Response
        do {
            response = try await HTTPExchange.send(
                .POST, to: endpoint,
                headers: { url in
                    [("Content-Type", "application/sdp"), ("Accept", "application/sdp")]
                        + (authorization(for: url).map { [("Authorization", $0)] } ?? [])
                }, body: Array(offer.utf8), timeout: 15)
        } catch {
            let advice =
                error.isCertificate
                ? "is its certificate one this machine trusts? a self-signed one, or its CA, goes in "
                    + "/usr/local/share/ca-certificates, then update-ca-certificates"
                : "check the address, and that the server runs"
            throw .runtime("cannot reach \(shown): \(error.reason) (\(advice))")
        }
        let body = String(decoding: response.body, as: UTF8.self)
        try check(response, body: body)
        let type = response.headers.first(name: "Content-Type")?.split(separator: ";").first
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard type == "application/sdp", body.hasPrefix("v=0") else {
            throw .runtime(
                "\(shown) answered \(response.status) with \(type ?? "no Content-Type"), not an SDP answer "
                    + "(\(Self.excerpt(body))): is it a \(role.name) endpoint?")
        }
        let resource = response.headers.first(name: "Location").flatMap { URL(string: $0, relativeTo: response.url) }
        return Session(answer: body, resource: resource?.absoluteURL)
    }

    /// Throws for any status but success, naming it and the server's reason; for 401 and 403, saying
    /// whether a token was sent (never the token).
    private func check(_ response: HTTPExchange.Response, body: String) throws(FileJob.Failure) {
        let status = response.status
        guard !(200...299).contains(status) else { return }
        let said = response.said
        let reason = body.isEmpty ? "" : ": \(Self.excerpt(body))"
        if status == 401 || status == 403 {
            let fix =
                token == nil
                ? "no token was given: add ?token=TOKEN to the address, or set \(role.tokenVariable)"
                : "the token is wrong (or not this endpoint's)"
            throw .runtime("\(shown) refused gstpipe (\(said)\(reason)): \(fix)")
        }
        let advice =
            switch status {
            case 404: " (check the path)"
            // gstpipe's own server (and WHIP/WHEP servers generally) answers 503 when it has all the
            // viewers or publishers it takes (Retry-After), not when it failed.
            case 503: " (the server is full or busy: try again later)"
            case 500...: " (the server failed: see its log)"
            default: ""
            }
        throw .runtime("\(shown) refused the offer (\(said)\(reason))\(advice)")
    }

    /// Sends the candidates `trickle` gathers after `offer` to `session`'s resource by PATCH, until
    /// the last (`ClientTrickle.run`). A server that does not take them (`405`, `501`: trickle is
    /// optional) ends it quietly, as does a session without a resource; any other refusal is said once
    /// to `note`, and the connection goes on with the offer's candidates.
    func trickle(
        _ trickle: ClientTrickle, after offer: String, to session: Session,
        note: @escaping @Sendable (String) -> Void
    ) async {
        guard let resource = session.resource else {
            trickle.stop()
            return
        }
        await trickle.run(after: offer) { fragment in
            switch await patch(fragment, to: resource) {
            case .success(let status): return (200...299).contains(status)
            case .failure(let refusal):
                if let reason = refusal.reason {
                    note(
                        "\(shown) did not take gstpipe's later ICE candidates (\(reason)): the connection goes on "
                            + "with those of the offer")
                }
                return false
            }
        }
    }

    /// Why a PATCH did not go through: nil for a server that does not trickle, which is no error.
    struct PatchRefusal: Error {
        let reason: String?
    }

    /// PATCHes `fragment` to `resource`; the status it got, or why it got none it could use.
    func patch(_ fragment: TrickleFragment, to resource: URL) async -> Result<Int, PatchRefusal> {
        let response: HTTPExchange.Response
        do {
            response = try await HTTPExchange.send(
                .PATCH, to: resource,
                headers: { url in
                    [("Content-Type", "application/trickle-ice-sdpfrag")]
                        + (authorization(for: url).map { [("Authorization", $0)] } ?? [])
                }, body: Array(fragment.text.utf8), timeout: 10)
        } catch {
            return .failure(PatchRefusal(reason: error.reason))
        }
        switch response.status {
        case 200...299: return .success(response.status)
        case 405, 501: return .failure(PatchRefusal(reason: nil))
        default:
            let text = String(decoding: response.body, as: UTF8.self)
            return .failure(
                PatchRefusal(reason: text.isEmpty ? response.said : "\(response.said): \(Self.excerpt(text))"))
        }
    }

    /// Ends `session` by DELETE on its resource, waiting at most `timeout` seconds for each step (connecting,
    /// sending, the answer). Blocks: it runs as the run ends (`StreamServer.close`), after the pipeline
    /// stopped. Returns the reason when the server did not accept it, nil when it did (or there was nothing to
    /// delete).
    @discardableResult
    func close(_ session: Session, timeout: TimeInterval = 3) -> String? {
        guard let resource = session.resource else { return nil }
        let result = HTTPExchange.sendBlocking(
            .DELETE, to: resource, headers: { url in authorization(for: url).map { [("Authorization", $0)] } ?? [] },
            timeout: timeout)
        switch result {
        case .success(let response): return (200...299).contains(response.status) ? nil : "\(response.status)"
        case .failure(let failure): return failure.reason
        }
    }

    /// The `Authorization` header for a request to `url`: the token only when `url` has the endpoint's
    /// origin (scheme, host and port, RFC 6454). `Location` is the server's to write, and one that
    /// named another host (a redirect planted in a proxy, a server that was not the one meant) would
    /// otherwise be handed the token with the DELETE; a session elsewhere is DELETEd without it.
    func authorization(for url: URL) -> String? {
        guard let token else { return nil }
        func origin(_ url: URL) -> (String?, String?, Int?) {
            let scheme = url.scheme?.lowercased()
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            return (scheme, url.host?.lowercased(), port)
        }
        return origin(url) == origin(endpoint) ? "Bearer \(token)" : nil
    }

    /// The first line of a server's text, at most 200 characters, for a message; its control and
    /// format characters written as `\u{1B}`. The text is another server's: an escape sequence in it
    /// printed as it came could redraw the user's terminal, hide the lines before it or fake a
    /// message of gstpipe's, and a right-to-left override could reorder what is shown.
    static func excerpt(_ body: String) -> String {
        let line = body.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let text = line.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return "an empty body" }
        let cut = text.count > 200 ? String(text.prefix(200)) + "…" : text
        var shown = ""
        for scalar in cut.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format:
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default:
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }
}
