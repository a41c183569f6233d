// BrowserCall: a whole call loop between a browser and Swift code. The browser publishes its camera
// (WHIP, into `BrowserPublisher`), a Swift VideoSink turns each frame gray with a moving red box
// (`MovingBox`), a Swift VideoSource hands the result on (`ProcessedFeed`), and the browser watches it
// (WHEP, from `BrowserViewers`) beside its own camera, on one page served here. A word the page sends on
// the publisher's data channel comes back on the viewers' (`BrowserPublisher.messages`, `BrowserViewers.send`).
//
//   swift run BrowserCall --serve            then open http://127.0.0.1:8892/ in a browser
//   swift run BrowserCall                    the same, but if no browser opens the page within 15 s,
//                                            checks the loop itself with headless Chromium and exits
//   swift run BrowserCall --check            checks the loop with headless Chromium at once
//
// `--port N` serves the page on N, the WHIP endpoint on N+1 and the WHEP endpoint on N+2; `--host H`
// listens on H (browsers allow the camera on http:// only for 127.0.0.1 and localhost). The check
// passes when the page sees gray frames with the red box come back and Swift's answer on the data
// channel (exit 0); without Chromium it
// checks that the three servers answer.
import Foundation
import GstPipeWebRTC
import MediaIO

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let arguments = CommandLine.arguments
func value(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}
let host = value("--host") ?? "127.0.0.1"
let port = Int(value("--port") ?? "") ?? 8892
let serveOnly = arguments.contains("--serve")
let checkNow = arguments.contains("--check")

let feed = ProcessedFeed()
let box = MovingBox(feed: feed)
let meter = SoundMeter()
let viewers: BrowserViewers
let publisher: BrowserPublisher
do {
    viewers = try await BrowserViewers.serve(video: feed, at: "webrtc://\(host):\(port + 2)/out")
    publisher = try await BrowserPublisher.receive(at: "webrtc://\(host):\(port + 1)/in", video: box, audio: meter) {
        print("BrowserCall: \($0)")
    }
} catch {
    print("BrowserCall: \(error)")
    exit(1)
}
// What the camera's page says over its data channel, passed on to every viewer's page.
let chat = Task {
    for await message in publisher.messages {
        guard case .text(let text) = message.content else { continue }
        let reached = viewers.send(.text("Swift heard: \(text)"))
        print("BrowserCall: the publisher's page said \"\(text)\"; passed on to \(reached) viewer(s)")
    }
}
let page = CallPageServer()
page.start(host: host, port: port)
let pageURL = "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)/"
print("BrowserCall: open \(pageURL) in a browser (camera and microphone are asked for)")
print("BrowserCall: publishers at \(publisher.whipURL), viewers at \(viewers.whepURL)")

func finish(_ status: Int32) -> Never {
    publisher.close()
    viewers.close()
    page.close()
    exit(status)
}

if serveOnly {
    while true { try await Task.sleep(for: .seconds(3600)) }
}
if !checkNow {
    // Fifteen seconds for a person to open the page; then the example checks itself.
    for _ in 0..<150 where !page.opened { try await Task.sleep(for: .milliseconds(100)) }
    if page.opened {
        print("BrowserCall: a browser opened the page; serving until Ctrl-C")
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}

guard let chromium = HeadlessCheck.chromium() else {
    // No browser to drive: check that the three servers answer.
    let answered = await HeadlessCheck.answers([pageURL, viewers.pageURL, publisher.pageURL])
    print("BrowserCall: no Chromium to run the call; the page and both endpoints answer: \(answered)")
    finish(answered ? 0 : 1)
}
print("BrowserCall: checking the loop with headless Chromium (its fake camera)")
let browser = try HeadlessCheck.launch(chromium, url: pageURL)
let result = await page.result(timeout: .seconds(90))
browser.terminate()
// The microphone's samples must have come too (48000 a second: a second's worth at least), and
// Swift's answer on the data channel.
let chatAnswered = result?["chat"] as? String == "Swift heard: hello from the camera"
let processed = (result?["processed"] as? Bool ?? false) && meter.samples >= 48000 && chatAnswered
print(
    "BrowserCall: \(box.processed) frames processed in Swift, \(publisher.framesReceived) received, "
        + "\(meter.samples) samples of sound; the page "
        + "reported \(result.map { "\($0)" } ?? "nothing")")
print(
    processed
        ? "BrowserCall: the page saw processed frames (gray, with the red box), the sound came, and Swift "
            + "answered on the data channel"
        : "BrowserCall: FAILED")
finish(processed ? 0 : 1)
