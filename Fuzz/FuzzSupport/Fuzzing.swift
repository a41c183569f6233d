import CFuzzer
import Foundation

/// What every fuzz target's `main.swift` does: hand its `LLVMFuzzerTestOneInput` to libFuzzer when the
/// binary was built with `-sanitize=fuzzer` (scripts/fuzz.sh), or else run it once on each file named on
/// the command line, so that a finding can be replayed in a plain build.
package enum Fuzzing {
    /// libFuzzer's entry: one input, its bytes and their count; returns 0.
    package typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

    /// Runs `testOneInput` under libFuzzer, or on the files given; never returns.
    package static func main(_ testOneInput: TestOneInput) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = CFuzzer_run_driver(&argc, &argv, testOneInput)
        if status != -1 { exit(status) }
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                exit(1)
            }
            _ = data.withUnsafeBytes { bytes in
                testOneInput(bytes.bindMemory(to: UInt8.self).baseAddress, bytes.count)
            }
        }
        print("ran \(CommandLine.arguments.count - 1) inputs")
        exit(0)
    }

    /// The input as text: its bytes as UTF-8, each invalid sequence replaced (the parsers read Strings).
    package static func text(_ data: UnsafePointer<UInt8>?, _ count: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    }
}
