// A debug category of the application's own, its lines read back as values, and GStreamer's debug log
// sent to a swift-log Logger for as long as the bridge is installed.
import GStreamer
import GStreamerLogging
import Logging

let category = try DebugCategory(name: "myapp", color: [.green], description: "My application")
try DebugLog.setThresholds("myapp:5")
let handler = try DebugLog.addHandler { message in
    if message.category == "myapp" { print("\(message.level) \(message.function): \(message.text)") }
}
category.info("starting")
handler.remove()

let bridge = try GStreamerLogBridge.install(logger: Logger(label: "gstreamer"), removingDefaultWriter: true)
category.info("this line goes to swift-log")
bridge.remove()
