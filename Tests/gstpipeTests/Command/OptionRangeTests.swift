import ArgumentParser
import GstPipeParsing
import Testing

@testable import gstpipe

/// Option values that trapped or were taken silently, read in this process: each is now a usage error
/// naming the range.
@Suite("Option values out of range")
struct OptionRangeTests {
    @Test("--timeout inf, nan or past a year is refused, naming the range; 0 and 2.5 are taken")
    func timeouts() throws {
        for value in ["inf", "nan", "1e300", "31536001", "-1"] {
            let options = try StreamOptions.parse(["--timeout=\(value)"])
            do {
                try options.check()
                Issue.record("--timeout \(value) was taken")
            } catch let error as ValidationError {
                #expect(error.message.hasPrefix("--timeout takes seconds (0 waits forever, at most 31536000), not "))
            }
        }
        #expect(try StreamOptions.parse(["--timeout", "2.5"]).settings.inputTimeout == .milliseconds(2500))
        #expect(try StreamOptions.parse(["--timeout", "0"]).settings.inputTimeout == nil)
        try StreamOptions.parse(["--timeout", "31536000"]).check()
    }

    @Test("--reconnect-max inf or past a year, and --record-keep inf, are refused, naming the range or the form")
    func reconnectAndRetention() throws {
        for value in ["inf", "1e300", "31536001", "0", "-2"] {
            let options = try StreamOptions.parse(["--reconnect", "--reconnect-max=\(value)"])
            do {
                try options.check()
                Issue.record("--reconnect-max \(value) was taken")
            } catch let error as ValidationError {
                #expect(error.message.hasPrefix("--reconnect-max takes seconds above 0 (at most 31536000), not "))
            }
        }
        let year = try StreamOptions.parse(["--reconnect", "--reconnect-max", "31536000"])
        try year.check()
        #expect(year.settings.reconnectMax == .seconds(31_536_000))
        for value in ["inf", "infs", "1e400s", "nan"] {
            do {
                _ = try RecordOptions.parse(["--record", "rec/%T.mkv", "--record-keep=\(value)"]).settings()
                Issue.record("--record-keep \(value) was taken")
            } catch let error as ValidationError {
                #expect(error.message.hasPrefix("--record-keep takes a duration"), "\(error.message)")
            }
        }
        let week = try RecordOptions.parse(["--record", "rec/%T.mkv", "--record-keep", "7d"]).settings()
        #expect(week?.keepSeconds == 604_800)
    }

    @Test("A port with more digits than an Int holds is out of range, not the default port")
    func hugePort() {
        let huge = "rtsp://127.0.0.1:99999999999999999999999/live"
        #expect(
            OutputSchemeTests.usageMessage { () throws(FileJob.Failure) in _ = try StreamOutputs.output(named: huge) }
                == "\(huge): the port must be between 1 and 65535")
        #expect(
            OutputSchemeTests.usageMessage { () throws(FileJob.Failure) in
                _ = try StreamOutputs.output(named: "srt://127.0.0.1:18446744073709551616")
            } == "srt://127.0.0.1:18446744073709551616: the port must be between 1 and 65535")
    }
}
