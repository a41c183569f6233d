import Foundation
import Testing

/// In name order, one at a time: 4-file-to-gray-file reads what 2-noise-to-file wrote.
@Suite("pipelines/ descriptions run", .serialized)
struct PipelineFileTests {
    static var files: [URL] {
        let directory = Repository.url("pipelines")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".pipeline") }.sorted().map { directory.appendingPathComponent($0) }
    }

    @Test("Each pipelines/*.pipeline file runs to end of stream", arguments: files)
    func runs(file: URL) throws {
        let result = try CLI.run(["-f", file.path], timeout: 120)
        #expect(result.status == 0, "\(file.lastPathComponent): \(result.stderr)")
    }
}
