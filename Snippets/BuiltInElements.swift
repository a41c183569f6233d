// gstpipe's built-in elements, registered and used by name.
import Foundation
import GStreamer
import GstPipeElements

try GstPipeElements.register()
let output = FileManager.default.temporaryDirectory.appendingPathComponent("gray.mkv").path
let pipeline = try Pipeline(
    launch: "noise num-buffers=100 ! gray ! x264grayenc ! matroskamux ! filesink location=\(output)")
try await pipeline.run()
// snippet.hide
print("wrote \(output)")
