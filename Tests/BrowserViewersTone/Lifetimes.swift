import Foundation
import GstPipeWebRTC
import MediaIO

// `BrowserViewersTone --lifetimes`: what `close()` lets go. BrowserViewers and BrowserPublisher put the
// user's objects into pipelines of their own; once closed, nothing may keep them (a source kept
// alive keeps its frames and whatever it captures from). Two viewers' servers at once, closed, then
// a publisher's server, closed, each checked through weak references while the closed object is
// still held; then a third server on the first one's port, which must serve as the first did.
// Prints one line the test reads:
//
//   BrowserViewersTone: lifetimes: sources freed 3/3, sinks freed 2/2, served again N frames

/// A weak reference, checked from another task.
final class WeakObject: @unchecked Sendable {
    weak var object: AnyObject?

    init(_ object: AnyObject) {
        self.object = object
    }
}

/// A video sink that takes I420 frames and does nothing with them.
final class IgnoringVideoSink: VideoSink {
    var pixelFormat: VideoPixelFormat { .i420 }
    func render(_ frame: VideoFrame) throws {}
}

/// An audio sink that takes samples and does nothing with them.
final class IgnoringAudioSink: AudioSink {
    func render(_ frame: AudioFrame) throws {}
}

enum Lifetimes {
    /// Runs the checks with servers on `port` and the three after it; the exit status.
    static func run(port: Int) async -> Int32 {
        do {
            let viewers = try await serveTwo(port: port)
            let sources = await freed(viewers.watched, closing: viewers.servers.map { $0.close })
            let publisher = try await receive(port: port + 2)
            let sinks = await freed(publisher.watched, closing: [publisher.server.close])
            let again = GrayBars()
            let server = try await BrowserViewers.serve(video: again, at: "webrtc://127.0.0.1:\(port)/again")
            let frames = await framesFlow([again])
            server.close()
            print(
                "BrowserViewersTone: lifetimes: sources freed \(sources)/\(viewers.watched.count), "
                    + "sinks freed \(sinks)/\(publisher.watched.count), served again \(frames) frames")
            return 0
        } catch {
            print("BrowserViewersTone: \(error)")
            return 1
        }
    }

    /// Two servers at once, the first with sound, once frames flow in both; the sources are held by
    /// them alone.
    private static func serveTwo(port: Int) async throws -> (servers: [BrowserViewers], watched: [WeakObject]) {
        let videos = [GrayBars(), GrayBars()]
        let audio = Sine440()
        let first = try await BrowserViewers.serve(video: videos[0], audio: audio, at: "webrtc://127.0.0.1:\(port)/one")
        let second = try await BrowserViewers.serve(video: videos[1], at: "webrtc://127.0.0.1:\(port + 1)/two")
        let frames = await framesFlow(videos)
        print("BrowserViewersTone: both servers' sources made \(frames) frames")
        return ([first, second], videos.map(WeakObject.init) + [WeakObject(audio)])
    }

    /// A publisher's server with both sinks, held by it alone.
    private static func receive(port: Int) async throws -> (server: BrowserPublisher, watched: [WeakObject]) {
        let video = IgnoringVideoSink()
        let audio = IgnoringAudioSink()
        let server = try await BrowserPublisher.receive(
            at: "webrtc://127.0.0.1:\(port)/in", video: video, audio: audio)
        return (server, [WeakObject(video), WeakObject(audio)])
    }

    /// How many of `watched` are gone within 10 s of `closing` (the closed objects still held).
    private static func freed(_ watched: [WeakObject], closing: [() -> Void]) async -> Int {
        closing.forEach { $0() }
        for _ in 0..<100 where watched.contains(where: { $0.object != nil }) {
            try? await Task.sleep(for: .milliseconds(100))
        }
        return watched.filter { $0.object == nil }.count
    }

    /// The fewest frames any of `videos` made, once each has made 10 (or 20 s have gone).
    private static func framesFlow(_ videos: [GrayBars]) async -> Int {
        for _ in 0..<200 where videos.contains(where: { $0.frames < 10 }) {
            try? await Task.sleep(for: .milliseconds(100))
        }
        return videos.map(\.frames).min() ?? 0
    }
}
