import Foundation
import Hummingbird
import Logging
import Synchronization

/// The example's own small HTTP server (Hummingbird): the call page at `/`, and `/result`, where the
/// page POSTs what its check found. It notes whether a browser has opened the page.
final class CallPageServer: Sendable {
    private let state = Mutex<(opened: Bool, result: String?)>((false, nil))
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// True once a browser has loaded the page.
    var opened: Bool { state.withLock { $0.opened } }

    /// Starts listening on `host`:`port`.
    func start(host: String, port: Int) {
        let router = Router()
        router.get("/") { [self] _, _ in
            state.withLock { $0.opened = true }
            return Response(
                status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: CallPage.html)))
        }
        router.post("/result") { [self] request, _ in
            let body = try await request.body.collect(upTo: 64 * 1024)
            state.withLock { $0.result = String(buffer: body) }
            return Response(status: .noContent)
        }
        let logger = Logger(label: "browsercall") { _ in SwiftLogNoOpLogHandler() }
        let application = Application(
            router: router, configuration: .init(address: .hostname(host, port: port)), logger: logger)
        task.withLock { $0 = Task { try? await application.run() } }
    }

    /// What the page reported, waiting up to `timeout`; nil when nothing came.
    func result(timeout: Duration) async -> [String: Any]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let text = state.withLock({ $0.result }) {
                let result = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
                return result ?? ["processed": false, "error": "unreadable result: \(text)"]
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        return nil
    }

    /// Stops listening.
    func close() {
        task.withLock { $0?.cancel() }
    }
}
