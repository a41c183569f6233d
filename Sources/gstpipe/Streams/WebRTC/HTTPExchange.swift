import CGIO
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1

/// One HTTP/1.1 request and its response, for the WHIP and WHEP clients: the bytes written and read by
/// SwiftNIO's HTTP/1.1 encoder and decoder (no hand-written HTTP: lengths, chunked bodies and malformed
/// responses are NIO's to handle), carried over a GIO connection, in TLS for `https` (glib-networking:
/// GnuTLS, the system's trusted certificates, the host name checked).
///
/// Foundation's URLSession did this before, at a price paid by every run, WHIP or not: on Linux it
/// links libcurl, which brings 27 more shared libraries to load at start (Kerberos, LDAP, SSH, RTMP,
/// two TLS stacks) and about 6 MB of their pages.
enum HTTPExchange {
    /// What the server answered.
    struct Response: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]
        /// The address that answered: the request's, or where its redirects led.
        let url: URL

        /// The status with its reason phrase, as a message says it (`503 Service Unavailable`).
        var said: String {
            let phrase = HTTPResponseStatus(statusCode: status).reasonPhrase
            return phrase.isEmpty ? "\(status)" : "\(status) \(phrase)"
        }
    }

    /// Why no response came, in a user's words, and whether the server's certificate was refused.
    struct Failure: Error, Sendable {
        let reason: String
        let isCertificate: Bool
    }

    /// The longest response body read: a WHIP or WHEP answer is an SDP of a few kilobytes.
    static let bodyLimit = 1 << 20
    /// Redirects followed (307 and 308 alone, which keep the method and body).
    static let redirectLimit = 5

    /// Sends `method` to `url` with `headers` and `body`, on a thread of its own (GIO's calls block),
    /// following 307 and 308 redirects; `headers(url)` gives the headers for each address asked (an
    /// `Authorization` for the endpoint's origin alone). Each connect, write and read waits at most
    /// `timeout` seconds.
    static func send(
        _ method: HTTPMethod, to url: URL, headers: @escaping @Sendable (URL) -> [(String, String)],
        body: [UInt8] = [], timeout: TimeInterval
    ) async throws(Failure) -> Response {
        // A cancelled task (Ctrl-C while a server keeps it waiting) cancels GIO's wait at once.
        let cancellable = Cancellable()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Response, Failure>, Never>) in
                Thread {
                    continuation.resume(
                        returning: sendBlocking(
                            method, to: url, headers: headers, body: body, timeout: timeout, cancellable: cancellable))
                }.start()
            }
        } onCancel: {
            cancellable.cancel()
        }
        return try result.get()
    }

    /// A GCancellable, which any thread may cancel.
    final class Cancellable: @unchecked Sendable {
        let pointer = g_cancellable_new()

        func cancel() { g_cancellable_cancel(pointer) }

        deinit { g_object_unref(pointer) }
    }

    /// As `send`, on the calling thread.
    static func sendBlocking(
        _ method: HTTPMethod, to url: URL, headers: (URL) -> [(String, String)], body: [UInt8] = [],
        timeout: TimeInterval, cancellable: Cancellable = Cancellable()
    ) -> Result<Response, Failure> {
        var address = url
        for _ in 0...redirectLimit {
            let result = once(
                method, to: address, headers: headers(address), body: body, timeout: timeout,
                cancellable: cancellable.pointer)
            guard case .success(let response) = result, response.status == 307 || response.status == 308,
                let location = response.headers.first(name: "Location"),
                let next = URL(string: location, relativeTo: address)?.absoluteURL
            else { return result }
            address = next
        }
        return .failure(Failure(reason: "more than \(redirectLimit) redirects", isCertificate: false))
    }

    /// One request to `url` and its response, on one connection, closed after.
    private static func once(
        _ method: HTTPMethod, to url: URL, headers: [(String, String)], body: [UInt8], timeout: TimeInterval,
        cancellable: UnsafeMutablePointer<GCancellable>?
    ) -> Result<Response, Failure> {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host,
            !host.isEmpty
        else { return .failure(Failure(reason: "not an http:// or https:// address", isCertificate: false)) }
        let tls = scheme == "https"
        let port = url.port ?? (tls ? 443 : 80)
        guard (1...65535).contains(port) else {
            return .failure(Failure(reason: "port \(port) is not between 1 and 65535", isCertificate: false))
        }
        let client = g_socket_client_new()
        defer { g_object_unref(client) }
        g_socket_client_set_timeout(client, guint(min(max(1, timeout.rounded(.up)), 3600)))
        g_socket_client_set_tls(client, tls ? 1 : 0)
        var error: UnsafeMutablePointer<GError>?
        // An IPv6 address goes in brackets, so that its colons are not read as the port's.
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let named = bare.contains(":") ? "[\(bare)]" : bare
        guard
            let connection = g_socket_client_connect_to_host(
                client, "\(named):\(port)", guint16(port), cancellable, &error)
        else { return .failure(failure(error)) }
        let stream = UnsafeMutableRawPointer(connection).assumingMemoryBound(to: GIOStream.self)
        defer {
            g_io_stream_close(stream, nil, nil)
            g_object_unref(connection)
        }
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        do {
            try channel.pipeline.syncOperations.addHTTPClientHandlers()
            var head = HTTPRequestHead(version: .http1_1, method: method, uri: target(of: url))
            let defaultPort = port == (tls ? 443 : 80)
            head.headers.add(name: "Host", value: defaultPort ? named : "\(named):\(port)")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            head.headers.add(name: "Content-Length", value: "\(body.count)")
            head.headers.add(name: "Connection", value: "close")
            try channel.writeOutbound(HTTPClientRequestPart.head(head))
            if !body.isEmpty {
                try channel.writeOutbound(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))))
            }
            try channel.writeOutbound(HTTPClientRequestPart.end(nil))
            var request: [UInt8] = []
            while let part = try channel.readOutbound(as: ByteBuffer.self) { request += part.readableBytesView }
            let output = g_io_stream_get_output_stream(stream)
            guard g_output_stream_write_all(output, request, gsize(request.count), nil, cancellable, &error) != 0 else {
                return .failure(failure(error))
            }
            let input = g_io_stream_get_input_stream(stream)
            var received = [UInt8](repeating: 0, count: 16_384)
            var status: Int?
            var responseHeaders = HTTPHeaders()
            var responseBody: [UInt8] = []
            var ended = false
            func take() throws {
                while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
                    switch part {
                    // An informational response (100 Continue) comes before the real one.
                    case .head(let head) where head.status.code < 200: continue
                    case .head(let head): (status, responseHeaders) = (Int(head.status.code), head.headers)
                    case .body(var buffer): responseBody += buffer.readBytes(length: buffer.readableBytes) ?? []
                    case .end: ended = true
                    }
                }
            }
            while !ended {
                let count = g_input_stream_read(input, &received, gsize(received.count), cancellable, &error)
                if count < 0 { return .failure(failure(error)) }
                if count == 0 {
                    // The server closed: a body that runs to the close ends here; any other is cut short.
                    channel.pipeline.fireChannelInactive()
                    try take()
                    break
                }
                try channel.writeInbound(ByteBuffer(bytes: received[0..<count]))
                try take()
                guard responseBody.count <= bodyLimit else {
                    return .failure(Failure(reason: "its answer is larger than 1 MB", isCertificate: false))
                }
            }
            guard let status, ended else {
                return .failure(
                    Failure(reason: "the connection was lost before the whole answer came", isCertificate: false))
            }
            return .success(Response(status: status, headers: responseHeaders, body: responseBody, url: url))
        } catch {
            return .failure(Failure(reason: "its answer is not HTTP (\(error))", isCertificate: false))
        }
    }

    /// The request's target: the path (`/` when empty) and query, as written in the address.
    private static func target(of url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?\($0)" } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }

    /// GIO's error in a user's words (and freed).
    private static func failure(_ error: UnsafeMutablePointer<GError>?) -> Failure {
        guard let error else { return Failure(reason: "the connection failed", isCertificate: false) }
        defer { g_error_free(error) }
        let message = String(cString: error.pointee.message)
        let domain = error.pointee.domain
        let code = error.pointee.code
        if domain == g_tls_error_quark() {
            // GIO says "Unacceptable TLS certificate" for any refusal (an unknown CA, another host's name,
            // expired): the advice beside it says what to check.
            if code == gint(G_TLS_ERROR_BAD_CERTIFICATE.rawValue) {
                return Failure(
                    reason: "the TLS connection failed (the server's certificate was refused)", isCertificate: true)
            }
            return Failure(reason: "the TLS connection failed (\(message))", isCertificate: false)
        }
        if domain == g_resolver_error_quark() { return Failure(reason: "no such host", isCertificate: false) }
        if domain == g_io_error_quark() {
            switch code {
            case gint(G_IO_ERROR_CONNECTION_REFUSED.rawValue):
                return Failure(reason: "connection refused", isCertificate: false)
            case gint(G_IO_ERROR_TIMED_OUT.rawValue): return Failure(reason: "no answer in time", isCertificate: false)
            case gint(G_IO_ERROR_CONNECTION_CLOSED.rawValue), gint(G_IO_ERROR_BROKEN_PIPE.rawValue):
                return Failure(reason: "the connection was lost", isCertificate: false)
            case gint(G_IO_ERROR_HOST_NOT_FOUND.rawValue): return Failure(reason: "no such host", isCertificate: false)
            case gint(G_IO_ERROR_CANCELLED.rawValue): return Failure(reason: "cancelled", isCertificate: false)
            default: break
            }
        }
        return Failure(reason: message, isCertificate: false)
    }
}
