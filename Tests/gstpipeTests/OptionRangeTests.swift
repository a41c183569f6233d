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
