// The render path of RTC SDKs: the application's device loop pulls 10 ms at a time.

// snippet.register
import MediaIO

let deviceFormat = try AudioInfo(format: .s16, rate: 48000, channels: 2)
try MediaIOElements.registerAudioSink(name: "device", longName: "Device", description: "Pulled by the app") { _ in
    AudioPullSink(format: deviceFormat)
}
// Any input: here 44.1 kHz mono; the element converts it to what the sink declared.
let pipeline = try Pipeline(
    launch:
        "audiotestsrc num-buffers=20 samplesperbuffer=441 ! audio/x-raw,rate=44100,channels=1 ! device name=out sync=false"
)
guard let device = pipeline.mediaIOElement(named: "out", as: AudioPullSink.self) else { fatalError("no device") }
try pipeline.play()
// snippet.end

// snippet.pull
var chunk = [Int16](repeating: 0, count: 480 * 2)  // 10 ms of 48 kHz stereo
var (pulled, silent) = (0, 0)
for _ in 0..<30 {  // a device asking every 10 ms
    let missing = try chunk.withUnsafeMutableBufferPointer { try device.pull(into: $0) }
    pulled += 480 - missing
    silent += missing  // an underrun: silence was written instead
    try await Task.sleep(for: .milliseconds(10))
}
pipeline.stop()
print("pulled \(pulled) samples, \(silent) of silence")
// snippet.end
