// Playback tutorial 5, colour balance: the GstColorBalance interface lists an element's channels
// (brightness, contrast, hue, saturation) with their ranges and changes them while the video plays.
// The original changes playbin's channels from the keyboard and watches the window; this one lowers
// videobalance's brightness by half its range mid-stream and reads the pixels that come out.
//
//     swift run PlaybackTutorial5
//
// Checks: the four channels are listed with their ranges; the value reads back as set (and as
// videobalance's brightness property); a white picture (luma 235) comes out about half as bright.
import GStreamer
import TutorialSupport

let width = 64
let height = 48

/// The mean luma of an I420 frame: its first plane.
func meanLuma(_ sample: Sample?) throws -> Double {
    let buffer = try Tutorial.require(sample?.buffer, "no frame came")
    let luma = buffer.bytes.prefix(width * height)
    return Double(luma.reduce(0) { $0 + Int($1) }) / Double(luma.count)
}

await Tutorial.run {
    // A bounded appsink (one frame, no dropping) holds the stream back, so a change made between two
    // pulls shows within a few frames.
    let pipeline = try Pipeline(
        launch: "videotestsrc pattern=white num-buffers=100 ! video/x-raw,format=I420,width=\(width),height=\(height) "
            + "! videobalance name=balance ! appsink name=frames max-buffers=1 sync=false")
    let balance = try Tutorial.require(pipeline.element(named: "balance"), "no videobalance")
    let frames = try pipeline.appSink(named: "frames")
    try Tutorial.check(balance.hasColorBalance, "videobalance does not implement GstColorBalance")

    let channels = balance.colorBalanceChannels
    for channel in channels {
        print(
            "\(channel.label): \(try balance.colorBalanceValue(channel.label)) in \(channel.minValue)...\(channel.maxValue)"
        )
    }
    try Tutorial.check(
        Set(channels.map(\.label)) == ["HUE", "SATURATION", "BRIGHTNESS", "CONTRAST"],
        "the channels are \(channels.map(\.label)), not hue, saturation, brightness and contrast")

    try pipeline.play()
    let before = try meanLuma(await frames.nextSample(timeout: .seconds(20)))
    print("Mean luma before: \(before)")
    try Tutorial.check(abs(before - 235) < 2, "white came out with luma \(before), not 235")

    // The tutorial's update_color_channel: a step of the channel's range, here half of it down.
    let brightness = try Tutorial.require(channels.first { $0.label == "BRIGHTNESS" }, "no brightness channel")
    let lowered = brightness.maxValue - (brightness.maxValue - brightness.minValue) * 3 / 4
    try balance.setColorBalanceValue("BRIGHTNESS", lowered)
    let readBack = try balance.colorBalanceValue("BRIGHTNESS")
    let property = try Tutorial.require(try balance.get("brightness").doubleValue, "brightness is no number")
    print("BRIGHTNESS set to \(lowered), reads \(readBack); videobalance's brightness is \(property)")
    try Tutorial.check(readBack == lowered, "BRIGHTNESS reads back \(readBack), not \(lowered)")
    try Tutorial.check(abs(property + 0.5) < 0.01, "videobalance's brightness is \(property), not -0.5")

    // Frames already past videobalance still carry the old value: the change shows within a few.
    var after = before
    for _ in 0..<10 where after > 200 {
        after = try meanLuma(await frames.nextSample(timeout: .seconds(20)))
    }
    pipeline.stop()
    print("Mean luma after: \(after)")
    try Tutorial.check(
        after > 80 && after < 140, "with brightness -0.5 white came out with luma \(after), not about 108")
}
