import Foundation

/// The package's folder, found from this file's place in it (Tests/gstpipeTests/Support/), for the tests
/// that read or run what the repository holds (scripts, pipelines, articles, the built binaries).
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `relative` (`scripts/slow-requests.py`) inside the package's folder.
    static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }
}
