import MediaIO
import Testing

/// An AudioPullSink's arguments, outside any pipeline: a buffer with no room, the wrong sample type, a
/// count below zero, a capacity beyond `Int`, and no channels at all. Each trapped before.
@Suite("AudioPullSink arguments", .bounded)
struct AudioPullSinkArgumentTests {
    @Test("An empty buffer takes nothing; the wrong sample type or a negative count throws; 0 channels cannot be made")
    func arguments() throws {
        #expect(throws: GStreamerError.self) { _ = try AudioInfo(format: .s16, rate: 48000, channels: 0) }
        let sink = AudioPullSink(format: try AudioInfo(format: .s16, rate: 48000, channels: 2))
        var none: [Int16] = []
        #expect(try none.withUnsafeMutableBufferPointer { try sink.pull(into: $0) } == 0)
        // Less than one instant of two channels: nothing to fill.
        var one: [Int16] = [7]
        #expect(try one.withUnsafeMutableBufferPointer { try sink.pull(into: $0) } == 0)
        #expect(one == [7])
        var floats = [Float](repeating: 1, count: 4)
        do {
            _ = try floats.withUnsafeMutableBufferPointer { try sink.pull(into: $0) }
            Issue.record("pulling Float from an S16 sink did not throw")
        } catch {
            #expect("\(error)" == "pull Int16 samples from this sink, not Float")
        }
        #expect(floats == [1, 1, 1, 1])
        do {
            _ = try sink.pull(-1, as: Int16.self)
            Issue.record("a negative count did not throw")
        } catch {
            #expect("\(error)".contains("not -1"))
        }
        let (silence, missing) = try sink.pull(3, as: Int16.self)
        #expect(silence == [0, 0, 0, 0, 0, 0] && missing == 3)
        #expect(
            AudioPullSink(format: try AudioInfo(format: .s16, rate: 48000, channels: 1), capacityMilliseconds: .max)
                .capacity > 0)
    }
}
