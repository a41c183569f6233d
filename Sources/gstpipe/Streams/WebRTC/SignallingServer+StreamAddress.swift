import Foundation
import GstPipeParsing
import GstPipeWebRTC
import Hummingbird

// The library's signalling pieces (GstPipeWebRTC) know nothing of the command line: here they are
// given a `webrtc://` address as the CLI reads it, and their refusals become the CLI's failures.

extension SignallingServer.Address {
    /// `address`'s host, port and path, shown with its secrets hidden.
    init(_ address: StreamAddress) {
        self.init(host: address.host, port: address.port, path: address.path, shown: Secrets.redact(address.uri))
    }
}

extension SignallingServer {
    /// Starts listening on `address` with `router`; a refusal is a runtime failure (exit 1).
    static func start(address: StreamAddress, router: Router<BasicRequestContext>) async throws(FileJob.Failure)
        -> SignallingServer
    {
        do {
            return try await SignallingServer(address: Address(address), router: router)
        } catch {
            throw .runtime(error.message)
        }
    }

    /// The page's URL for `address`: this machine's name in place of an address that listens everywhere.
    static func pageURL(of address: StreamAddress) -> String { pageURL(of: Address(address)) }
}

extension BearerToken {
    /// The token of `address` (its `token` option, else `variable`), nil when there is none.
    ///
    /// The option is percent-decoded, as a client decodes it from the same URI (`whip+http://…?token=`
    /// reads it with URLComponents) and the pages from theirs: `?token=a%2Fb%2B` is the token `a/b+`.
    /// A `+` stays a `+` (bearer tokens use it; this is not a form). The environment's is taken as it is.
    init?(address: StreamAddress, environment: [String: String] = ProcessInfo.processInfo.environment) {
        let written = address.option("token")
        let decoded = written.map { $0.removingPercentEncoding ?? $0 }
        if let decoded, !decoded.isEmpty { Secrets.register(decoded) }
        self.init(decoded, environment: environment)
    }
}
