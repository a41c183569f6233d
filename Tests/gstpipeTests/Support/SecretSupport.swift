import Foundation
import GstPipeParsing
import Testing

@testable import gstpipe

/// What a run of gstpipe showed: its standard output and error, and the files it wrote for a person
/// to read (a `--graph` picture, a `GST_DEBUG_FILE` log), for a test to search for secrets.
struct ShownText: CustomStringConvertible {
    let result: CLIResult
    /// Each file's path and text; a file the run did not write is kept as empty.
    let files: [(path: String, text: String)]

    init(_ result: CLIResult, files paths: [String] = []) {
        self.result = result
        files = paths.map { path in (path, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "") }
    }

    /// Everything, one text.
    var all: String { ([result.stdout, result.stderr] + files.map(\.text)).joined(separator: "\n") }

    var description: String {
        let written = files.map { "\($0.path): \($0.text.count) characters" }.joined(separator: ", ")
        return "status \(result.status); stdout: \(result.stdout.suffix(1500)); stderr: \(result.stderr.suffix(1500))"
            + (written.isEmpty ? "" : "; files: \(written)")
    }
}

/// Expects that none of `secrets` shows anywhere in `shown` (as written, or percent-encoded), and,
/// unless `masked` is false, that `***` does: the secret was there and was hidden, not left out.
/// For every test that runs gstpipe with a secret: every output is searched for it.
func expectHidden(
    _ secrets: [String], in shown: ShownText, masked: Bool = true, sourceLocation: SourceLocation = #_sourceLocation
) {
    let text = shown.all
    for secret in secrets {
        let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? secret
        #expect(
            !text.contains(secret) && !text.contains(encoded), "\(secret) shows: \(shown)",
            sourceLocation: sourceLocation)
    }
    if masked { #expect(text.contains(Secrets.mask), "no *** in \(shown)", sourceLocation: sourceLocation) }
}

extension NetworkNamespace {
    /// gstpipe inside the namespace with `environment` added (`GST_DEBUG`, a `GSTPIPE_*_TOKEN`); sent
    /// SIGINT after `interruptAfter` seconds if it still runs, killed after `timeout`.
    func gstpipe(
        _ arguments: [String], environment: [String: String] = [:], interruptAfter: TimeInterval? = nil,
        timeout: TimeInterval = 60
    ) async -> CLIResult {
        let settings = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let run = self.run("/usr/bin/env", settings + [CLI.binary.path] + arguments)
        if let interruptAfter {
            let deadline = Date().addingTimeInterval(interruptAfter)
            while run.process.isRunning && Date() < deadline { try? await Task.sleep(for: .milliseconds(50)) }
            if run.process.isRunning { run.signal(SIGINT) }
        }
        return await run.finish(timeout: timeout)
    }
}
