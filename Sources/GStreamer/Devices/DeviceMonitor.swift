import CGStreamer

/// A capture or playback device the system has: a camera, a microphone, a sound card's output.
///
/// The corresponding C type is `GstDevice`.
public struct Device: Sendable {
    /// The name to show a user, such as "HD Webcam".
    public var displayName: String
    /// Its class, such as "Video/Source" or "Audio/Sink".
    public var deviceClass: String
    /// What it produces or takes; nil when it does not say.
    public var caps: Caps?
    /// What its provider says about it (the device node, the card, the API), when anything.
    public var properties: Structure?
    /// The GstDevice, to make its element with.
    let object: Object

    /// Makes the element that reads from or plays to this device (a `v4l2src` with its device set, a
    /// `pulsesink` with its device set).
    ///
    /// The corresponding C function is `gst_device_create_element`.
    ///
    /// - Parameter name: The element's name; nil lets GStreamer name it.
    /// - Returns: The element.
    /// - Throws: ``GStreamerError`` (core) when the provider cannot make one.
    public func makeElement(name: String? = nil) throws(GStreamerError) -> Element {
        let device = UnsafeMutableRawPointer(object.pointer).assumingMemoryBound(to: GstDevice.self)
        guard let element = gst_device_create_element(device, name) else {
            throw GStreamerError(kind: .core, message: "the device \(displayName) could not make an element")
        }
        return Element.wrap(element)
    }
}

extension Device {
    /// The device's description, and a reference to it of its own.
    init(reading handle: UnsafeMutablePointer<GstDevice>) {
        self.init(
            displayName: String(takingGString: gst_device_get_display_name(handle)) ?? "",
            deviceClass: String(takingGString: gst_device_get_device_class(handle)) ?? "",
            caps: gst_device_get_caps(handle).map { Caps(taking: $0) },
            properties: gst_device_get_properties(handle).map { Structure(taking: $0) },
            object: Object(borrowing: UnsafeMutableRawPointer(handle)))
    }
}

/// Lists the system's devices by class, through GStreamer's device providers (v4l2, PulseAudio, ALSA…).
/// A headless machine may have none: an empty list is an answer, not an error. Owns one reference;
/// `deinit` stops it.
///
/// The corresponding C type is `GstDeviceMonitor`.
public final class DeviceMonitor: @unchecked Sendable {
    // GstDeviceMonitor locks itself: filters, start, stop and the device list are safe from any thread.
    let pointer: UnsafeMutablePointer<GstDeviceMonitor>
    /// Routes the monitor's own bus (device-added, device-removed, device-changed) to `messages`.
    private let router: BusRouter

    /// A monitor with no filter yet; add at least one (``addFilter(classes:caps:)``) to choose devices.
    ///
    /// The corresponding C function is `gst_device_monitor_new`.
    ///
    /// - Throws: ``GStreamerError`` when GStreamer cannot be initialized.
    public init() throws(GStreamerError) {
        try GStreamer.initialize()
        pointer = gst_device_monitor_new()!
        let bus = gst_device_monitor_get_bus(pointer)!
        defer { gst_object_unref(UnsafeMutableRawPointer(bus)) }
        router = BusRouter(bus: bus, pipelineAddress: 0)
    }

    deinit {
        gst_device_monitor_stop(pointer)
        let bus = gst_device_monitor_get_bus(pointer)!
        gst_bus_set_sync_handler(bus, nil, nil, nil)
        gst_object_unref(UnsafeMutableRawPointer(bus))
        router.finish()
        gst_object_unref(UnsafeMutableRawPointer(pointer))
    }

    /// The monitor's messages from now on: ``Message/deviceAdded(source:_:)`` and
    /// ``Message/deviceRemoved(source:_:)`` as devices come and go while it runs (after ``start()``, one
    /// `deviceAdded` for each device a provider that cannot watch finds when probed), and
    /// ``Message/deviceChanged(source:device:old:)``. Each access subscribes anew, as
    /// `Pipeline.messages` does; the sequence finishes when the monitor is released.
    ///
    /// The corresponding C function is `gst_device_monitor_get_bus`.
    public var messages: MessageStream { MessageStream(router: router, capacity: 4096) }

    /// Adds a filter: devices whose class has every part of `classes` ("Video/Source", "Audio") and
    /// whose caps meet `caps`. A device matching any filter is listed.
    ///
    /// The corresponding C function is `gst_device_monitor_add_filter`.
    ///
    /// - Parameters:
    ///   - classes: The classes, `/`-separated; nil for any.
    ///   - caps: The caps to meet; nil for any.
    /// - Returns: The filter's id, to remove it.
    /// - Throws: ``GStreamerError`` (invalid argument) when no provider offers devices of these classes.
    @discardableResult
    public func addFilter(classes: String?, caps: Caps? = nil) throws(GStreamerError) -> UInt {
        let id = gst_device_monitor_add_filter(pointer, classes, caps?.pointer)
        guard id != 0 else {
            throw GStreamerError(
                kind: .invalidArgument,
                message: "no device provider offers devices of class \(classes ?? "any")"
                    + (caps.map { " with caps \($0)" } ?? "") + ": check the class (such as Video/Source)")
        }
        return UInt(id)
    }

    /// Removes a filter `addFilter` added.
    ///
    /// The corresponding C function is `gst_device_monitor_remove_filter`.
    ///
    /// - Parameter id: The filter's id.
    /// - Returns: True when there was such a filter.
    @discardableResult
    public func removeFilter(_ id: UInt) -> Bool {
        gst_device_monitor_remove_filter(pointer, guint(truncatingIfNeeded: id)) != 0
    }

    /// The names of the device providers the filters use ("v4l2deviceprovider", "pulsedeviceprovider").
    ///
    /// The corresponding C function is `gst_device_monitor_get_providers`.
    public var providers: [String] {
        guard let names = gst_device_monitor_get_providers(pointer) else { return [] }
        defer { g_strfreev(names) }
        var result: [String] = []
        var index = 0
        while let name = names[index] {
            result.append(String(cString: name))
            index += 1
        }
        return result
    }

    /// Starts watching: probes the providers, after which ``devices`` lists what they found.
    ///
    /// The corresponding C function is `gst_device_monitor_start`.
    ///
    /// - Throws: ``GStreamerError`` (runtime) when no provider could start (none matches the filters, or
    ///   they all failed).
    public func start() throws(GStreamerError) {
        guard gst_device_monitor_start(pointer) != 0 else {
            throw GStreamerError(
                kind: .runtime,
                message: "the device monitor could not start: no provider for its filters started "
                    + "(providers: \(providers.isEmpty ? "none" : providers.joined(separator: ", ")))")
        }
    }

    /// Stops watching.
    ///
    /// The corresponding C function is `gst_device_monitor_stop`.
    public func stop() { gst_device_monitor_stop(pointer) }

    /// The devices matching the filters now; empty when there are none (a headless machine).
    ///
    /// The corresponding C function is `gst_device_monitor_get_devices`.
    public var devices: [Device] {
        let list = gst_device_monitor_get_devices(pointer)
        defer { g_list_free_full(list) { gst_object_unref($0) } }
        var result: [Device] = []
        var node = list
        while let current = node {
            node = current.pointee.next
            guard let device = current.pointee.data else { continue }
            result.append(Device(reading: device.assumingMemoryBound(to: GstDevice.self)))
        }
        return result
    }
}
