import CGStreamer

/// One channel of an element's colour balance (brightness, contrast, hue, saturation), with the range
/// its values take.
///
/// The corresponding C type is `GstColorBalanceChannel`.
public struct ColorBalanceChannel: Sendable, Equatable {
    /// Its label, such as "BRIGHTNESS" (videobalance's) or "HUE".
    public var label: String
    /// The lowest value it takes.
    public var minValue: Int
    /// The highest value it takes.
    public var maxValue: Int
}

// The GstColorBalance interface, which videobalance, playbin (through the sink or its own
// videobalance) and some video sinks implement: the portable way to change a picture's colours.
extension Element {
    /// True when the element implements GstColorBalance.
    ///
    /// The corresponding C macro is `GST_IS_COLOR_BALANCE`.
    public var hasColorBalance: Bool {
        g_type_check_instance_is_a(UnsafeMutablePointer(OpaquePointer(pointer)), gst_color_balance_get_type()) != 0
    }

    /// The element's colour balance channels; empty when it has none (or does not implement the
    /// interface, see ``hasColorBalance``).
    ///
    /// The corresponding C function is `gst_color_balance_list_channels`.
    public var colorBalanceChannels: [ColorBalanceChannel] {
        guard hasColorBalance else { return [] }
        var channels: [ColorBalanceChannel] = []
        var node = gst_color_balance_list_channels(OpaquePointer(pointer))
        while let current = node {
            if let channel = current.pointee.data?.assumingMemoryBound(to: GstColorBalanceChannel.self).pointee {
                channels.append(
                    ColorBalanceChannel(
                        label: channel.label.map { String(cString: $0) } ?? "",
                        minValue: Int(channel.min_value), maxValue: Int(channel.max_value)))
            }
            node = UnsafePointer(current.pointee.next)
        }
        return channels
    }

    /// The value of the colour balance channel labelled `label`.
    ///
    /// The corresponding C function is `gst_color_balance_get_value`.
    ///
    /// - Parameter label: The channel's label, as ``colorBalanceChannels`` gives it.
    /// - Returns: Its value, within its range.
    /// - Throws: ``GStreamerError`` (invalid argument) when the element has no such channel.
    public func colorBalanceValue(_ label: String) throws(GStreamerError) -> Int {
        try withColorBalanceChannel(label) { Int(gst_color_balance_get_value(OpaquePointer(pointer), $0)) }
    }

    /// Sets the colour balance channel labelled `label` to `value`.
    ///
    /// The corresponding C function is `gst_color_balance_set_value`.
    ///
    /// - Parameters:
    ///   - label: The channel's label, as ``colorBalanceChannels`` gives it.
    ///   - value: The new value, within the channel's range.
    /// - Throws: ``GStreamerError`` (invalid argument) when the element has no such channel or the value is
    ///   outside its range.
    public func setColorBalanceValue(_ label: String, _ value: Int) throws(GStreamerError) {
        try withColorBalanceChannel(label) { (channel) throws(GStreamerError) in
            let range = Int(channel.pointee.min_value)...Int(channel.pointee.max_value)
            guard range.contains(value) else {
                throw GStreamerError(
                    kind: .invalidArgument,
                    message: "\(value) is outside the range \(range.lowerBound)...\(range.upperBound) of \(name)'s "
                        + "colour balance channel \(label)",
                    source: name)
            }
            gst_color_balance_set_value(OpaquePointer(pointer), channel, gint(value))
        }
    }

    private func withColorBalanceChannel<Result>(
        _ label: String, _ body: (UnsafeMutablePointer<GstColorBalanceChannel>) throws(GStreamerError) -> Result
    ) throws(GStreamerError) -> Result {
        if hasColorBalance {
            var node = gst_color_balance_list_channels(OpaquePointer(pointer))
            while let current = node {
                if let channel = current.pointee.data?.assumingMemoryBound(to: GstColorBalanceChannel.self),
                    channel.pointee.label.map({ String(cString: $0) }) == label
                {
                    return try body(channel)
                }
                node = UnsafePointer(current.pointee.next)
            }
        }
        let known = colorBalanceChannels.map(\.label).joined(separator: ", ")
        throw GStreamerError(
            kind: .invalidArgument,
            message: "\(name) has no colour balance channel \"\(label)\" (it has: \(known.isEmpty ? "none" : known))",
            source: name)
    }
}
