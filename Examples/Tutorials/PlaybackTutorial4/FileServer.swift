import Foundation
import Synchronization
import TutorialSupport

#if canImport(Glibc)
import Glibc
#endif

/// The web server of playback tutorial 4, as small as a test fixture can be: one file over HTTP/1.1 on
/// 127.0.0.1, on a port the system picks, with byte ranges (queue2 asks for one when the demuxer reads
/// ahead of the download, as Matroska's does for its index at the end). One thread accepts, one per
/// connection answers; each connection serves one request and closes.
///
/// (Unchecked Sendable: the listening socket is set once in init; what changes is behind a Mutex.)
final class FileServer: @unchecked Sendable {
    /// The file's path on the server, such as "/clip.mkv".
    let path: String
    /// The port it listens on, on 127.0.0.1.
    let port: UInt16
    private let contents: [UInt8]
    private let listener: Int32
    /// The requests answered (their Range header, or "" for the whole file) and the body bytes sent.
    private let log = Mutex<(ranges: [String], bytesSent: Int)>(([], 0))

    /// Listens on a free port of 127.0.0.1 for requests of `contents` at `path`.
    init(serving contents: [UInt8], at path: String) throws {
        self.contents = contents
        self.path = path
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard listener >= 0 else { throw Tutorial.Failure(reason: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(listener, generic, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, generic, &length) == 0
            }
        }
        guard bound else {
            throw Tutorial.Failure(reason: "cannot listen on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    /// The file's URI.
    var uri: String { "http://127.0.0.1:\(port)\(path)" }

    /// The Range headers of the requests answered so far ("" for a request of the whole file).
    var ranges: [String] { log.withLock { $0.ranges } }

    /// The body bytes sent so far, over all requests.
    var bytesSent: Int { log.withLock { $0.bytesSent } }

    /// Accepts connections on a thread of its own until `stop`.
    func start() {
        Thread {
            while true {
                let connection = accept(self.listener, nil, nil)
                guard connection >= 0 else { return }
                Thread { self.answer(connection) }.start()
            }
        }.start()
    }

    /// Stops accepting (the accepting thread's `accept` returns).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func answer(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        let lines = request.split(separator: "\r\n", omittingEmptySubsequences: false)
        let words = lines.first?.split(separator: " ") ?? []
        guard words.count >= 2, words[0] == "GET" || words[0] == "HEAD", words[1] == path else {
            send(connection, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", body: [])
            return
        }
        let range = lines.first { $0.lowercased().hasPrefix("range:") }.map {
            $0.dropFirst("range:".count).trimmingCharacters(in: .whitespaces)
        }
        var first = 0
        var last = contents.count - 1
        if let range, range.hasPrefix("bytes=") {
            let bounds = range.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
            first = bounds.first.flatMap { Int($0) } ?? 0
            if bounds.count > 1, let end = Int(bounds[1]) { last = min(end, last) }
        }
        guard first <= last || contents.isEmpty else {
            send(
                connection,
                "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(contents.count)\r\n"
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n", body: [])
            return
        }
        var head = range == nil ? "HTTP/1.1 200 OK\r\n" : "HTTP/1.1 206 Partial Content\r\n"
        head += "Content-Type: video/x-matroska\r\nAccept-Ranges: bytes\r\nConnection: close\r\n"
        head += "Content-Length: \(last - first + 1)\r\n"
        if range != nil { head += "Content-Range: bytes \(first)-\(last)/\(contents.count)\r\n" }
        let body = words[0] == "HEAD" ? [] : Array(contents[first...last])
        log.withLock { $0.ranges.append(range ?? "") }
        send(connection, head + "\r\n", body: body)
    }

    /// The request line and headers, up to the blank line.
    private func readRequest(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while !received.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            let count = read(connection, &chunk, chunk.count)
            guard count > 0, received.count < 65536 else { return nil }
            received += chunk[0..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Sends the head and the body; stops when the client goes (souphttpsrc closes a connection it
    /// no longer needs, after a seek).
    private func send(_ connection: Int32, _ head: String, body: [UInt8]) {
        let bytes = Array(head.utf8) + body
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { break }
            offset += count
        }
        let bodySent = max(0, offset - head.utf8.count)
        log.withLock { $0.bytesSent += bodySent }
    }
}
