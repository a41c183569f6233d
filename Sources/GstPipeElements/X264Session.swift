import CX264
import GStreamer

/// One open libx264 encoder, for one set of input caps. Used only under the element's lock.
final class X264Session {
    let inputCaps: Caps
    let outputCaps: Caps
    let info: VideoInfo
    private let encoder: OpaquePointer
    private let name: String
    /// The input frames' durations, by presentation timestamp, until their encoded frames come out;
    /// nil until the next frame tells it, for input without durations.
    private var durations: [Int64: ClockTime?] = [:]
    private var lastPTS: ClockTime?
    /// The last duration known: for a frame whose own is not yet (the last one, or with no delay).
    private var frameDuration: ClockTime

    init(caps: Caps, properties: ElementProperties, name: String, avc: Bool) throws(GStreamerError) {
        info = try VideoInfo(caps: caps)
        self.name = name
        inputCaps = caps
        var param = x264_param_t()
        x264_param_default_preset(&param, properties.string("speed-preset") ?? "medium", properties.string("tune"))
        param.i_csp = X264_CSP_I400
        param.i_width = Int32(info.width)
        param.i_height = Int32(info.height)
        param.i_threads = Int32(properties.int("threads"))
        param.i_log_level = X264_LOG_ERROR
        param.rc.i_rc_method = X264_RC_CRF
        param.rc.f_rf_constant = Float(properties.double("crf"))
        if properties.int("key-int-max") > 0 { param.i_keyint_max = Int32(properties.int("key-int-max")) }
        // Timestamps in nanoseconds, as GStreamer's; the frame rate (when the caps give one) guides
        // rate control, and variable frame rates follow the timestamps.
        param.i_timebase_num = 1
        param.i_timebase_den = 1_000_000_000
        let rate = info.framerate
        if rate.numerator > 0 && rate.denominator > 0 {
            param.i_fps_num = UInt32(rate.numerator)
            param.i_fps_den = UInt32(rate.denominator)
            frameDuration = ClockTime(1_000_000_000 * rate.denominator / rate.numerator)
        } else {
            frameDuration = 1_000_000_000 / 25
        }
        if let aspect = caps.fraction("pixel-aspect-ratio"), aspect.numerator > 0, aspect.denominator > 0 {
            param.vui.i_sar_width = Int32(aspect.numerator)
            param.vui.i_sar_height = Int32(aspect.denominator)
        }
        // The luma goes in as it is, so its range is the input's (ffmpeg's gray is full range: it
        // stretches video-range luma on the way, work this element does not do).
        param.vui.b_fullrange = info.isFullRange ? 1 : 0
        // avc: 4-byte lengths instead of start codes, and SPS and PPS in codec_data only.
        param.b_annexb = avc ? 0 : 1
        param.b_repeat_headers = avc ? 0 : 1
        guard let encoder = CX264_encoder_open(&param) else {
            throw GStreamerError(
                kind: .core, message: "\(name): libx264 cannot encode \(info.width)x\(info.height) with these settings")
        }
        self.encoder = encoder
        var output =
            "video/x-h264, stream-format=(string)\(avc ? "avc" : "byte-stream"), alignment=(string)au, "
            + "width=(int)\(info.width), height=(int)\(info.height)"
        if avc {
            guard let record = X264Session.decoderConfiguration(encoder) else {
                x264_encoder_close(encoder)
                throw GStreamerError(kind: .core, message: "\(name): libx264 gave no SPS and PPS")
            }
            output += ", codec_data=(buffer)" + record.map { String(format: "%02x", $0) }.joined()
        }
        if rate.denominator > 0 { output += ", framerate=(fraction)\(rate.numerator)/\(rate.denominator)" }
        if let aspect = caps.fraction("pixel-aspect-ratio") {
            output += ", pixel-aspect-ratio=(fraction)\(aspect.numerator)/\(aspect.denominator)"
        }
        outputCaps = try Caps(output)
    }

    deinit {
        x264_encoder_close(encoder)
    }

    /// The AVC decoder configuration record (ISO/IEC 14496-15 `avcC`) for `codec_data`: the SPS and
    /// PPS x264 will use, with the chroma format and bit depths the High profiles add (4:0:0, 8 bits).
    private static func decoderConfiguration(_ encoder: OpaquePointer) -> [UInt8]? {
        var nals: UnsafeMutablePointer<x264_nal_t>?
        var count: Int32 = 0
        guard x264_encoder_headers(encoder, &nals, &count) > 0, let nals else { return nil }
        // Without start codes each NAL begins with its 4-byte length.
        func unit(_ type: Int32) -> [UInt8]? {
            guard let nal = (0..<Int(count)).map({ nals[$0] }).first(where: { $0.i_type == type }),
                nal.i_payload > 4, let payload = nal.p_payload
            else { return nil }
            return Array(UnsafeBufferPointer(start: payload + 4, count: Int(nal.i_payload) - 4))
        }
        guard let sps = unit(7), let pps = unit(8), sps.count >= 4 else { return nil }
        func length(_ bytes: [UInt8]) -> [UInt8] { [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] }
        var record: [UInt8] = [1, sps[1], sps[2], sps[3], 0xFF, 0xE1] + length(sps) + sps + [1] + length(pps) + pps
        if [100, 110, 122, 144].contains(sps[1]) {
            record += [0xFC | 0, 0xF8 | 0, 0xF8 | 0, 0]
        }
        return record
    }

    /// True when `pts` is before the last frame's: the input went back in time.
    func goesBack(to pts: ClockTime?) -> Bool {
        guard let pts, let lastPTS else { return false }
        return pts < lastPTS
    }

    /// The most frames x264 holds before it gives one out, as time at the input's frame rate.
    var latency: ClockTime {
        ClockTime(x264_encoder_maximum_delayed_frames(encoder)) * frameDuration
    }

    /// Hands one frame's luma to x264 (which copies it) and returns the frames that came out.
    func encode(_ buffer: Buffer) throws -> [Buffer] {
        var pts = buffer.pts ?? lastPTS.map { $0 + frameDuration } ?? 0
        // x264 needs strictly increasing timestamps.
        if let last = lastPTS, pts <= last { pts = last + 1 }
        // x264 counts time in signed 64 bits, and what comes out is moved later by `timestampOffset`: a
        // time past that (a source's timestamp-offset near gint64's end) traps in the conversions.
        let latest = ClockTime(Int64.max) - GrayH264Encoder.timestampOffset
        guard pts <= latest else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "\(name): a frame at \(pts) ns is past the latest time x264 counts (\(latest) ns)")
        }
        if let last = lastPTS, let unknown = durations[Int64(last)], unknown == nil {
            // The previous frame lasts until this one.
            durations[Int64(last)] = pts - last
            frameDuration = pts - last
        }
        lastPTS = pts
        durations[Int64(pts)] = buffer.duration
        if let duration = buffer.duration { frameDuration = duration }
        let layout = info.adjusted(for: buffer)
        return try buffer.withVideoFrame(layout) { frame in
            try frame.withPlane(0) { luma, stride in
                var picture = x264_picture_t()
                x264_picture_init(&picture)
                picture.img.i_csp = X264_CSP_I400
                picture.img.i_plane = 1
                picture.img.i_stride.0 = Int32(stride)
                picture.img.plane.0 = UnsafeMutablePointer(
                    mutating: luma.baseAddress!.assumingMemoryBound(to: UInt8.self))
                picture.i_pts = Int64(pts)
                return try call(&picture)
            }
        }
    }

    /// The frames x264 still holds, encoded to the end.
    func flush() throws -> [Buffer] {
        var outputs: [Buffer] = []
        while x264_encoder_delayed_frames(encoder) > 0 {
            outputs += try call(nil)
        }
        return outputs
    }

    private func call(_ picture: UnsafeMutablePointer<x264_picture_t>?) throws -> [Buffer] {
        var nals: UnsafeMutablePointer<x264_nal_t>?
        var count: Int32 = 0
        var encoded = x264_picture_t()
        let size = x264_encoder_encode(encoder, &nals, &count, picture, &encoded)
        guard size >= 0 else {
            throw GStreamerError(kind: .core, message: "\(name): libx264 failed to encode a frame")
        }
        guard size > 0, let first = nals?.pointee.p_payload else { return [] }
        // The payloads of one call follow each other in memory.
        let output = try Buffer(copying: UnsafeRawBufferPointer(start: first, count: Int(size)))
        output.pts = ClockTime(encoded.i_pts + Int64(GrayH264Encoder.timestampOffset))
        output.dts = ClockTime(encoded.i_dts + Int64(GrayH264Encoder.timestampOffset))
        output.duration = (durations.removeValue(forKey: encoded.i_pts) ?? nil) ?? frameDuration
        output.isDeltaUnit = encoded.b_keyframe == 0
        return [output]
    }
}
