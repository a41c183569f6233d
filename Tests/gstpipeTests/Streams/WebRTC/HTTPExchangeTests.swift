import Foundation
import NIOHTTP1
import Testing

@testable import gstpipe

/// `HTTPExchange`, the WHIP and WHEP clients' HTTP, against a server that answers byte by byte as
/// written below (a Python socket server, no HTTP library: the bytes are the test's), in a network
/// namespace of its own with loopback alone. The exchange runs on a thread that has joined the
/// namespace (`setns` moves the calling thread alone), as the clients run it on a thread of their own.
@Suite(
    "HTTPExchangeTests",
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"))
struct HTTPExchangeTests {
    /// Each path answers one way. The redirect's target answers in chunks, echoing what it got, and keeps the
    /// connection open 5 s after its last chunk: a client that waited for the close would take that long.
    static let server = #"""
        import socket, sys, threading, time
        def handle(c):
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = c.recv(4096)
                if not chunk:
                    return
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            lines = head.decode().split("\r\n")
            method, target, _ = lines[0].split(" ")
            headers = {k.lower(): v.strip() for k, v in (l.split(":", 1) for l in lines[1:])}
            while len(body) < int(headers.get("content-length", "0")):
                body += c.recv(4096)
            echo = ("X-Target: %s\r\nX-Host: %s\r\nX-Method: %s\r\nX-Auth: %s\r\n" % (
                target, headers.get("host"), method, headers.get("authorization", "none"))).encode()
            if target == "/moved":
                c.sendall(b"HTTP/1.1 307 Temporary Redirect\r\nLocation: /answer?x=1\r\nContent-Length: 0\r\n\r\n")
            elif target.startswith("/answer"):
                c.sendall(b"HTTP/1.1 201 Created\r\n" + echo + b"Transfer-Encoding: chunked\r\n\r\n")
                for piece in (body[:3], body[3:]):
                    c.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))
                c.sendall(b"0\r\n\r\n")
                time.sleep(5)
            elif target == "/garbage":
                c.sendall(b"HELLO THERE\r\n\r\n")
            elif target == "/short":
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789")
            elif target == "/to-close":
                c.sendall(b"HTTP/1.1 404 Not Found\r\n" + echo + b"\r\nbody to the close")
            elif target == "/silent":
                time.sleep(30)
            elif target == "/loop":
                c.sendall(b"HTTP/1.1 308 Permanent Redirect\r\nLocation: /loop\r\nContent-Length: 0\r\n\r\n")
            else:
                c.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
            c.close()
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", int(sys.argv[1])))
        s.listen(8)
        while True:
            c, _ = s.accept()
            threading.Thread(target=handle, args=(c,), daemon=True).start()
        """#

    /// A namespace, and the server listening on 8895 in it.
    static func serving() async throws -> (NetworkNamespace, Spawned) {
        let namespace = try await NetworkNamespace()
        let server = namespace.run("/usr/bin/python3", ["-c", Self.server, "8895"])
        guard await namespace.waitForListener(8895) else {
            server.signal(SIGKILL)
            throw NetworkNamespace.NamespaceError(
                message: "the server did not listen: \(await server.finish(timeout: 5).stderr)")
        }
        return (namespace, server)
    }

    /// `HTTPExchange.sendBlocking` on a thread inside `namespace`; how long it took.
    static func exchange(
        in namespace: NetworkNamespace, _ method: HTTPMethod, _ url: String, body: String = "",
        headers: @escaping @Sendable (URL) -> [(String, String)] = { _ in [] },
        cancellable: HTTPExchange.Cancellable = HTTPExchange.Cancellable()
    ) async -> (result: Result<HTTPExchange.Response, HTTPExchange.Failure>, seconds: Double) {
        let path = namespace.path
        return await withCheckedContinuation { continuation in
            Thread {
                let descriptor = open(path, O_RDONLY)
                // CLONE_NEWNET: this thread alone moves into the namespace. Glibc's setns, which Swift's
                // Glibc module leaves out (it is declared for _GNU_SOURCE alone).
                typealias SetNamespace = @convention(c) (Int32, Int32) -> Int32
                let setns = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "setns").map {
                    unsafeBitCast($0, to: SetNamespace.self)
                }
                guard descriptor >= 0, let setns, setns(descriptor, 0x4000_0000) == 0 else {
                    let failure = HTTPExchange.Failure(reason: "setns failed", isCertificate: false)
                    continuation.resume(returning: (.failure(failure), 0))
                    return
                }
                close(descriptor)
                let start = Date()
                let result = HTTPExchange.sendBlocking(
                    method, to: URL(string: url)!, headers: headers, body: Array(body.utf8), timeout: 10,
                    cancellable: cancellable)
                continuation.resume(returning: (result, Date().timeIntervalSince(start)))
            }.start()
        }
    }

    @Test("A 307 followed with its method, body and headers; a chunked answer read whole without waiting for the close")
    func redirectAndChunks() async throws {
        let (namespace, server) = try await Self.serving()
        defer { server.signal(SIGKILL) }
        let (result, seconds) = await Self.exchange(
            in: namespace, .POST, "http://127.0.0.1:8895/moved", body: "v=0 an offer",
            headers: { url in [("Authorization", "Bearer for \(url.path)")] })
        let response = try result.get()
        #expect(response.status == 201 && response.said == "201 Created")
        #expect(String(decoding: response.body, as: UTF8.self) == "v=0 an offer")
        #expect(response.url.absoluteString == "http://127.0.0.1:8895/answer?x=1")
        #expect(response.headers.first(name: "X-Target") == "/answer?x=1")
        #expect(response.headers.first(name: "X-Method") == "POST")
        #expect(response.headers.first(name: "X-Host") == "127.0.0.1:8895")
        // The headers are asked for each address: the redirect's target got its own.
        #expect(response.headers.first(name: "X-Auth") == "Bearer for /answer")
        #expect(seconds < 4, "the answer took \(seconds) s: the client waited for the connection to close")
    }

    @Test("A body that runs to the close; a status with it; refusals said in a user's words")
    func endsAndFailures() async throws {
        let (namespace, server) = try await Self.serving()
        defer { server.signal(SIGKILL) }
        let response = try await Self.exchange(in: namespace, .DELETE, "http://127.0.0.1:8895/to-close").result.get()
        #expect(response.said == "404 Not Found")
        #expect(String(decoding: response.body, as: UTF8.self) == "body to the close")
        #expect(response.headers.first(name: "X-Method") == "DELETE")
        #expect(response.headers.first(name: "X-Auth") == "none")
        func reason(_ path: String, port: Int = 8895) async -> String? {
            guard
                case .failure(let failure) = await Self.exchange(
                    in: namespace, .POST, "http://127.0.0.1:\(port)\(path)"
                ).result
            else { return nil }
            return failure.reason
        }
        #expect(await reason("/garbage")?.hasPrefix("its answer is not HTTP") == true)
        #expect(await reason("/short") == "the connection was lost before the whole answer came")
        #expect(await reason("/loop") == "more than 5 redirects")
        #expect(await reason("/", port: 8896) == "connection refused")
        // A server that never answers: cancelled (a run's Ctrl-C) half a second in, the wait ends then, not
        // at the 10 s timeout.
        let cancellable = HTTPExchange.Cancellable()
        Task {
            try await Task.sleep(for: .milliseconds(500))
            cancellable.cancel()
        }
        let (silent, seconds) = await Self.exchange(
            in: namespace, .POST, "http://127.0.0.1:8895/silent", cancellable: cancellable)
        guard case .failure(let failure) = silent else {
            Issue.record("a silent server answered: \(silent)")
            return
        }
        #expect(failure.reason == "cancelled" && seconds < 3, "\(failure.reason) after \(seconds) s")
    }
}
