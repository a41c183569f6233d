// The system's cameras and microphones through GStreamer's device providers. A headless machine may
// have none, or no provider able to start: both are answers, printed as such, not failures.
import GStreamer

let monitor = try DeviceMonitor()
try monitor.addFilter(classes: "Video/Source")
try monitor.addFilter(classes: "Audio/Source", caps: try Caps("audio/x-raw"))
print("providers: \(monitor.providers.isEmpty ? "none" : monitor.providers.joined(separator: ", "))")
do {
    try monitor.start()
    let devices = monitor.devices
    for device in devices {
        print("\(device.deviceClass): \(device.displayName) (\(device.caps?.description.prefix(60) ?? "no caps"))")
    }
    print("\(devices.count) device(s)")
    // Each device makes the element that captures from it: a v4l2src or pulsesrc with its device set.
    if let first = devices.first {
        print("its element: \((try? first.makeElement())?.factoryName ?? "none: the provider could not make one")")
    }
    // snippet.hide
    precondition(
        devices.allSatisfy { $0.deviceClass.contains("Video/Source") || $0.deviceClass.contains("Audio/Source") },
        "a device outside the filters was listed")
    // snippet.show
    monitor.stop()
} catch {
    print("no device provider could start here: \(error.message)")
}
