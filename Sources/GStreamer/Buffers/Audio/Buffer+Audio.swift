import CGStreamer

extension Buffer {
    /// Reads the buffer as audio of shape `info`: `body` gets one plane for interleaved audio, one
    /// per channel otherwise (where a GstAudioMeta puts them), and the samples per channel.
    ///
    /// The corresponding C functions are `gst_audio_buffer_map` and `gst_audio_buffer_unmap`.
    ///
    /// - Parameters:
    ///   - info: The audio's shape.
    ///   - body: Reads the planes and gets the samples per channel; the pointers are valid only until it
    ///     returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``GStreamerError`` (core) when the buffer cannot be mapped as `info`, or what `body` throws.
    public func withAudioPlanes<R>(
        _ info: AudioInfo, _ body: (_ planes: [UnsafeRawBufferPointer], _ samples: Int) throws -> R
    ) throws -> R {
        try mapAudio(info, flags: GST_MAP_READ) { planes, samples in
            try body(planes.map { UnsafeRawBufferPointer($0) }, samples)
        }
    }

    /// Writes the buffer's audio planes, as `withAudioPlanes` reads them. The buffer must be writable.
    ///
    /// The corresponding C functions are `gst_audio_buffer_map` (with `GST_MAP_WRITE`) and
    /// `gst_audio_buffer_unmap`.
    ///
    /// - Parameters:
    ///   - info: The audio's shape.
    ///   - body: Writes the planes and gets the samples per channel; the pointers are valid only until it
    ///     returns.
    /// - Returns: What `body` returns.
    /// - Throws: ``GStreamerError`` (invalid argument) when the buffer is shared, (core) when it cannot be
    ///   mapped as `info`, or what `body` throws.
    public func withMutableAudioPlanes<R>(
        _ info: AudioInfo, _ body: (_ planes: [UnsafeMutableRawBufferPointer], _ samples: Int) throws -> R
    ) throws -> R {
        guard isWritable else {
            throw GStreamerError(kind: .invalidArgument, message: "the buffer is shared and cannot be written")
        }
        return try mapAudio(info, flags: GST_MAP_WRITE, body)
    }

    private func mapAudio<R>(
        _ info: AudioInfo, flags: GstMapFlags, _ body: ([UnsafeMutableRawBufferPointer], Int) throws -> R
    ) throws -> R {
        let pointer = enterScope()
        defer { leaveScope() }
        if info.layout == .interleaved, gst_buffer_get_meta(pointer, gst_audio_meta_api_get_type()) == nil {
            // One plane, the whole buffer: a plain map, without building a GstAudioInfo each buffer.
            var map = GstMapInfo()
            guard gst_buffer_map(pointer, &map, flags) != 0 else {
                throw GStreamerError(kind: .core, message: "could not map a buffer as \(info)")
            }
            defer { gst_buffer_unmap(pointer, &map) }
            let samples = info.bytesPerFrame > 0 ? Int(map.size) / info.bytesPerFrame : 0
            return try body(
                [UnsafeMutableRawBufferPointer(start: map.data, count: samples * info.bytesPerFrame)], samples)
        }
        var gstInfo = info.gstInfo
        var audio = GstAudioBuffer()
        guard gst_audio_buffer_map(&audio, &gstInfo, pointer, flags) != 0 else {
            throw GStreamerError(kind: .core, message: "could not map a buffer as \(info)")
        }
        defer { gst_audio_buffer_unmap(&audio) }
        let samples = Int(audio.n_samples)
        let planeBytes =
            info.layout == .interleaved ? samples * info.bytesPerFrame : samples * info.format.bytesPerSample
        let planes = (0..<Int(audio.n_planes)).map { index in
            UnsafeMutableRawBufferPointer(start: audio.planes[index], count: planeBytes)
        }
        return try body(planes, samples)
    }

    /// Says where the planes of non-interleaved audio lie: one after another, `samples` each.
    ///
    /// The corresponding C function is `gst_buffer_add_audio_meta`.
    ///
    /// - Parameters:
    ///   - info: The audio's shape (non-interleaved).
    ///   - samples: Samples per channel in the buffer.
    /// - Returns: False, and no meta added, when `samples` is negative or more than the buffer holds.
    @discardableResult
    public func addAudioMeta(_ info: AudioInfo, samples: Int) -> Bool {
        // GStreamer checks the planes against the buffer's size only with a critical warning.
        guard samples >= 0, samples <= size / max(info.bytesPerFrame, 1) else { return false }
        var gstInfo = info.gstInfo
        return withPointer { gst_buffer_add_audio_meta($0, &gstInfo, gsize(samples), nil) != nil }
    }

    /// Marks the buffer as the first after a gap or a jump in time (or clears the mark). Like the
    /// timestamp setters, it changes a buffer others hold in a copy (same memory, new metadata) that
    /// this wrapper holds from then on.
    ///
    /// The corresponding C macros are `gst_buffer_make_writable` and `GST_BUFFER_FLAG_SET` with
    /// `GST_BUFFER_FLAG_DISCONT`.
    ///
    /// - Parameter discontinuous: True to set the mark, false to clear it.
    public func setDiscontinuity(_ discontinuous: Bool) {
        modifyFlags { flags in
            if discontinuous {
                flags |= GST_BUFFER_FLAG_DISCONT.rawValue
            } else {
                flags &= ~GST_BUFFER_FLAG_DISCONT.rawValue
            }
        }
    }
}

extension Buffer {
    /// The samples per channel a GstAudioMeta says the buffer holds, when it has one.
    ///
    /// The corresponding C macro is `gst_buffer_get_audio_meta`.
    public var audioMetaSamples: Int? {
        guard let meta = withPointer({ gst_buffer_get_meta($0, gst_audio_meta_api_get_type()) }) else { return nil }
        return Int(UnsafeMutableRawPointer(meta).assumingMemoryBound(to: GstAudioMeta.self).pointee.samples)
    }
}
