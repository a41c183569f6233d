// Playback tutorial 4, progressive download: with the `download` flag playbin keeps what it fetches
// over HTTP in a temporary file (GStreamer 1.22's uridecodebin uses a downloadbuffer for it), so the clip
// can be played again or sought in without fetching it twice, and it reports the download's progress as
// buffering messages. The original plays a web URI and draws the downloaded ranges; this one serves a
// generated clip from a small HTTP server of its own on 127.0.0.1 (FileServer.swift), plays it into
// fake sinks, headless, and at the end of stream reads the downloaded file (`temp-location`) to compare
// it with what was served.
//
//     swift run PlaybackTutorial4 [FILE]
//
// Checks: the download went to a file made from the element's `temp-template`; buffering messages came
// and the last said 100%; playback reached the end of stream after about the clip's duration; the
// downloaded file holds the served file byte for byte; the server sent it all.
import Foundation
import GStreamer
import TutorialSupport

await Tutorial.run { input in
    let contents = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input.path)))
    let server = try FileServer(serving: contents, at: "/clip.mkv")
    server.start()
    defer { server.stop() }
    print("Serving \(contents.count) bytes at \(server.uri)")

    let playbin = try Pipeline(launch: "playbin uri=\(server.uri)")
    try playbin.set("video-sink", element: try Tutorial.clockedSink())
    try playbin.set("audio-sink", element: try Tutorial.clockedSink())
    // The tutorial's one change to playbin: its flags plus download.
    let flags = try Tutorial.require(
        try Value(playbin).object?.value(ofProperty: "flags").flagNicks, "playbin's flags read back as no flags")
    try playbin.set("flags", fromString: (flags + ["download"]).joined(separator: "+"))

    // The download goes to a file from uridecodebin's template in the user's cache folder (GLib's
    // g_get_user_cache_dir), which must exist.
    let cache =
        ProcessInfo.processInfo.environment["XDG_CACHE_HOME"]
        ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache").path
    try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)

    let messages = playbin.messages
    // A live source would not preroll and must not be paused for buffering.
    let isLive = try playbin.setState(.playing) == .noPreroll
    defer { playbin.stop() }
    var percents: [Int] = []
    var playing = true
    // The tutorial's handling of a buffering message: below 100% pause, at 100% play (again).
    func buffered(_ percent: Int) throws {
        percents.append(percent)
        print("Buffering (\(percent)%)")
        guard (percent == 100) != playing else { return }
        playing = percent == 100
        try playbin.setState(playing ? .playing : .paused)
    }
    let start = ContinuousClock.now
    for await message in messages {
        if case .error(let error) = message { throw error }
        if case .endOfStream = message { break }
        if case .buffering(_, let percent, _) = message, !isLive { try buffered(percent) }
    }
    print("End of stream")
    let elapsed = Tutorial.elapsed(since: start)

    // At the end of stream the file is still there (the element removes it on its way to NULL). In
    // GStreamer 1.22 uridecodebin downloads with a downloadbuffer; older ones used a queue2.
    let buffer = try Tutorial.require(
        playbin.allElements.first { ["downloadbuffer", "queue2"].contains($0.factoryName) },
        "playbin has no downloadbuffer: it did not download")
    let template = try Tutorial.require(try buffer.get("temp-template").stringValue, "no temp-template")
    let location = try Tutorial.require(
        try buffer.get("temp-location").stringValue, "\(buffer.name) has no temp-location: it downloaded to no file")
    let downloaded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: location)))
    print("Buffering messages: \(percents.count), the last \(percents.last.map { "\($0)%" } ?? "none")")
    print("Downloaded to \(location): \(downloaded.count) bytes")
    print("Requests: \(server.ranges.map { $0.isEmpty ? "whole file" : $0 }); \(server.bytesSent) bytes sent")
    print("Played to the end in \(Tutorial.seconds(elapsed)) (duration \(Tutorial.seconds(input.duration)))")

    try Tutorial.check(!isLive, "an HTTP file should not play as live")
    try Tutorial.check(
        location.hasPrefix(String(template.dropLast("XXXXXX".count))), "the file \(location) is not from \(template)")
    try Tutorial.check(!percents.isEmpty, "no buffering message came")
    try Tutorial.check(percents.last == 100, "the last buffering message said \(percents.last!)%, not 100%")
    try Tutorial.check(downloaded == contents, "the downloaded file (\(downloaded.count) bytes) is not the served one")
    try Tutorial.check(server.bytesSent >= contents.count, "the server sent \(server.bytesSent) bytes, not all")
    try Tutorial.check(elapsed >= input.duration * 8 / 10, "the clip ended after \(Tutorial.seconds(elapsed))")
}
