// MediaIO's frames, caps and pipelines are the Swift core's types: re-exporting it lets an application
// write `import MediaIO` alone and still name `Pipeline`, `Caps` or `ClockTime`.
@_exported import GStreamer
