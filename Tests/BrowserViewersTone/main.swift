// BrowserViewersTone: the test helper of BrowserViewersAudioTests. It serves a Swift VideoSource
// (moving gray bars) and a Swift AudioSource (a 440 Hz sine) through `BrowserViewers` at
// webrtc://127.0.0.1:PORT/live, so that the test can run it inside a network namespace with loopback
// alone and watch it from headless Chromium; `--turn URI` gives it a TURN server (coturn in the
// namespace, BrowserViewersRelayTests). SIGINT or SIGTERM closes it and exits 0, printing how many
// frames and samples the sources handed on.
//
//   BrowserViewersTone [--port 8890] [--turn turn://USER:PASS@HOST:PORT] [--token TOKEN]
//                      [--lifetimes | --publisher]
//
// With --lifetimes it checks what closing lets go instead (Lifetimes.swift); with --publisher it takes
// a publisher through `BrowserPublisher` at webrtc://127.0.0.1:PORT/in instead, with the same --turn
// and --token (WebRTCICEServersTests reads its page and endpoint). Either way it answers what the
// pages send over their data channels (`echo`).
import Dispatch
import Foundation
import GstPipeWebRTC
import MediaIO
import Synchronization

/// Moving gray bars at 320x240 and 30 frames a second, pulled by the pipeline: every pixel has
/// R = G = B, and the bars move by four pixels a frame, so a viewer can check both.
final class GrayBars: VideoSource {
    static let format = VideoFrameFormat(pixelFormat: .argb, width: 320, height: 240, frameRate: VideoFrameRate(30))
    private let state = Mutex<(consumer: (any VideoFrameConsumer)?, frames: Int)>((nil, 0))

    var bufferType: VideoBufferType { .rawData }
    var frames: Int { state.withLock { $0.frames } }

    func shouldInitialize(consumer: any VideoFrameConsumer) -> Bool {
        state.withLock { $0.consumer = consumer }
        return true
    }

    func shouldDispose() {
        state.withLock { $0.consumer = nil }
    }

    func produceFrame() {
        guard
            let (consumer, index) = state.withLock({ state -> ((any VideoFrameConsumer), Int)? in
                state.consumer.map { ($0, state.frames) }
            })
        else { return }
        let format = Self.format
        var pixels = [UInt8](repeating: 255, count: format.width * format.height * 4)
        for y in 0..<format.height {
            for x in 0..<format.width {
                let value = UInt8(truncatingIfNeeded: (x + index * 4) & 0xC0)
                let offset = (y * format.width + x) * 4
                pixels[offset + 1] = value
                pixels[offset + 2] = value
                pixels[offset + 3] = value
            }
        }
        // The appsink after the encoder syncs on the pipeline's clock: these timestamps pace the frames.
        let flow = pixels.withUnsafeBytes { bytes in
            consumer.consumeRawData(
                bytes, timestamp: format.frameRate.timestamp(ofFrame: index), format: format, rotation: .none)
        }
        if flow == .ok { state.withLock { $0.frames += 1 } }
    }
}

/// A 440 Hz sine at half of full scale, S16 48 kHz mono in 10 ms buffers, pulled by the pipeline and
/// timed by its sample count.
final class Sine440: AudioSource {
    static let rate = 48000
    static let samplesPerBuffer = AudioFormatRequest.samples(milliseconds: 10, rate: 48000)
    private let state = Mutex<(consumer: (any AudioFrameConsumer)?, samples: Int)>((nil, 0))

    var samples: Int { state.withLock { $0.samples } }

    func shouldInitialize(consumer: any AudioFrameConsumer) -> Bool {
        let request = AudioFormatRequest(
            formats: [.s16], rate: Self.rate, channels: 1, samplesPerBuffer: Self.samplesPerBuffer)
        guard consumer.negotiate(request) != nil else { return false }
        state.withLock { $0.consumer = consumer }
        return true
    }

    func shouldDispose() {
        state.withLock { $0.consumer = nil }
    }

    func produceAudio() {
        guard
            let (consumer, first) = state.withLock({ state -> ((any AudioFrameConsumer), Int)? in
                state.consumer.map { ($0, state.samples) }
            })
        else { return }
        let samples = (0..<Self.samplesPerBuffer).map { n in
            Int16((sin(2 * Double.pi * 440 * Double(first + n) / Double(Self.rate)) * 16384).rounded())
        }
        if consumer.consumeSamples(samples) == .ok { state.withLock { $0.samples += samples.count } }
    }
}

/// Answers each message a page sends over its data channel, and says what came (WebRTCDataChannelTests):
/// text with "echo: TEXT" to that page alone and then "to every page" to all, bytes with the same
/// bytes reversed.
func echo(
    _ messages: BrowserMessages, send: @escaping @Sendable (BrowserMessage.Content, String?) -> Int
) {
    Task {
        for await message in messages {
            switch message.content {
            case .text(let text):
                print("BrowserViewersTone: text from \(message.peer): \(text)")
                let back = send(.text("echo: \(text)"), message.peer)
                let all = send(.text("to every page"), nil)
                print("BrowserViewersTone: answered \(back) page, then \(all) pages")
            case .binary(let data):
                let bytes = data.map { String($0) }.joined(separator: " ")
                print("BrowserViewersTone: bytes from \(message.peer): \(bytes)")
                _ = send(.binary(Data(data.reversed())), message.peer)
            }
        }
        print("BrowserViewersTone: the messages ended")
    }
}

let arguments = CommandLine.arguments
let port =
    arguments.firstIndex(of: "--port").flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }
    ?? 8890
if arguments.contains("--lifetimes") { exit(await Lifetimes.run(port: port)) }
let turn = arguments.firstIndex(of: "--turn").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
let token = arguments.firstIndex(of: "--token").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
let query = token.map { "?token=\($0)" } ?? ""
let ice = BrowserICEServers(turn: turn)
let video = GrayBars()
let audio = Sine440()

/// Starts serving (or taking a publisher) and returns what closes it. A function rather than top-level code:
/// Swift 6.3.1 leaks the string an interpolation builds inside a top-level `do` block after an `await` (its
/// storage is never released), which LeakSanitizer reports at exit.
func start(
    publisher isPublisher: Bool, port: Int, query: String, ice: BrowserICEServers, video: GrayBars, audio: Sine440
) async throws -> () -> Void {
    if isPublisher {
        let publisher = try await BrowserPublisher.receive(
            at: "webrtc://127.0.0.1:\(port)/in\(query)", video: IgnoringVideoSink(), ice: ice
        ) {
            print("BrowserViewersTone: \($0)")
        }
        print("BrowserViewersTone: taking a publisher at \(publisher.whipURL)")
        echo(publisher.messages) { publisher.send($0, to: $1) }
        return publisher.close
    }
    let viewers = try await BrowserViewers.serve(
        video: video, audio: audio, at: "webrtc://127.0.0.1:\(port)/live\(query)", ice: ice
    ) {
        print("BrowserViewersTone: \($0)")
    }
    print("BrowserViewersTone: serving at \(viewers.whepURL)")
    echo(viewers.messages) { viewers.send($0, to: $1) }
    return viewers.close
}

let close: () -> Void
do {
    close = try await start(
        publisher: arguments.contains("--publisher"), port: port, query: query, ice: ice, video: video, audio: audio)
} catch {
    print("BrowserViewersTone: \(error)")
    exit(1)
}

// Both signals end it cleanly: the test sends SIGINT once the page has reported.
let stopped = Mutex(false)
var handlers: [DispatchSourceSignal] = []
for number in [SIGINT, SIGTERM] {
    signal(number, SIG_IGN)
    let handler = DispatchSource.makeSignalSource(signal: number, queue: .global())
    // Sendable, so not isolated to the main actor of this top-level code: dispatch runs it on its own queue.
    handler.setEventHandler { @Sendable in stopped.withLock { $0 = true } }
    handler.resume()
    handlers.append(handler)
}
while !stopped.withLock({ $0 }) {
    try await Task.sleep(for: .milliseconds(100))
}
close()
print("BrowserViewersTone: \(video.frames) frames and \(audio.samples) samples handed on")
exit(0)
