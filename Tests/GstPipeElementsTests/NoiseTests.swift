import GstPipeElements
import MediaIO
import Testing

@Suite("noise produces white noise", .bounded)
struct NoiseTests {
    @Test("The same seed gives the same frames; successive frames and other seeds differ")
    func reproducible() async throws {
        let first = try await captureFrames("noise seed=7 num-buffers=3 ! appsink name=out sync=false")
        let again = try await captureFrames("noise seed=7 num-buffers=3 ! appsink name=out sync=false")
        let other = try await captureFrames("noise seed=8 num-buffers=3 ! appsink name=out sync=false")
        #expect(first.count == 3)
        #expect(first.map(\.planes) == again.map(\.planes))
        #expect(first[0].planes != first[1].planes)
        #expect(first[1].planes != first[2].planes)
        #expect(first[0].planes != other[0].planes)
    }

    @Test("Defaults: I420 320x240 at 30/1, timestamps at the frame rate")
    func defaults() async throws {
        let frames = try await captureFrames("noise num-buffers=3 ! appsink name=out sync=false")
        #expect(frames.count == 3)
        #expect(frames[0].format.pixelFormat == .i420)
        #expect(frames[0].format.width == 320 && frames[0].format.height == 240)
        #expect(frames[0].format.frameRate == VideoFrameRate(30))
        #expect(frames.map(\.timestamp) == [0, 33_333_333, 66_666_666])
    }

    @Test("A caps filter downstream chooses format and size", arguments: VideoPixelFormat.allCases)
    func capsFilter(format: VideoPixelFormat) async throws {
        let frames = try await captureFrames(
            "noise num-buffers=1 ! video/x-raw,format=\(format.gstreamerName),width=97,height=31,framerate=5/1 ! appsink name=out sync=false"
        )
        #expect(frames.first?.format.pixelFormat == format)
        #expect(frames.first?.format.width == 97)
        #expect(frames.first?.format.height == 31)
        #expect(frames.first?.format.frameRate == VideoFrameRate(5))
    }

    @Test("Properties set the size when downstream leaves it open")
    func properties() async throws {
        let frames = try await captureFrames(
            "noise num-buffers=1 width=64 height=48 framerate=10/1 ! appsink name=out sync=false")
        #expect(frames.first?.format.width == 64)
        #expect(frames.first?.format.height == 48)
        #expect(frames.first?.format.frameRate == VideoFrameRate(10))
    }

    @Test("Over a large frame every byte value occurs and the mean is 127.5")
    func distribution() async throws {
        let frames = try await captureFrames(
            "noise seed=1 num-buffers=1 ! video/x-raw,format=GRAY8,width=1920,height=1080 ! appsink name=out sync=false"
        )
        let bytes = try #require(frames.first?.planes[0])
        var counts = [Int](repeating: 0, count: 256)
        var sum = 0
        for byte in bytes {
            counts[Int(byte)] += 1
            sum += Int(byte)
        }
        #expect(counts.allSatisfy { $0 > 0 })
        let mean = Double(sum) / Double(bytes.count)
        // The standard error of the mean of 2 M uniform bytes is about 0.05.
        #expect(abs(mean - 127.5) < 0.3)
    }
}
