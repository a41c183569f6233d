import Foundation

/// Deletes the recorded files that `--record-keep` and `--record-max-size` no longer keep: those whose
/// last write is older than the age kept, then the oldest while all of them take more than the size
/// allowed. Only whole files the pattern names are counted and deleted (`RecordPattern.matches`): never
/// the file being written (still under its `.partial` name), nor anything else in the folders. A
/// folder that deleting empties (yesterday's rec/2026-11-27) goes too, up to the pattern's root.
struct RecordingRetention: Sendable {
    let settings: RecordSettings

    /// A recorded file on disk.
    struct Kept {
        let path: String
        let modified: Date
        let bytes: Int64
    }

    /// The whole files of the pattern under its root, oldest first (by last write, then name).
    func files() -> [Kept] {
        let root = settings.pattern.root
        guard
            let walker = FileManager.default.enumerator(
                at: root, includingPropertiesForKeys: [.isRegularFileKey, .contentModificationDateKey, .fileSizeKey])
        else { return [] }
        var kept: [Kept] = []
        for case let url as URL in walker {
            let path = url.standardizedFileURL.path
            guard settings.pattern.matches(path),
                let values = try? url.resourceValues(forKeys: [
                    .isRegularFileKey, .contentModificationDateKey, .fileSizeKey
                ]),
                values.isRegularFile == true
            else { continue }
            kept.append(
                Kept(
                    path: path, modified: values.contentModificationDate ?? .distantPast,
                    bytes: Int64(values.fileSize ?? 0)))
        }
        return kept.sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }
    }

    /// Deletes what is no longer kept at `now`; returns the paths deleted, oldest first.
    func apply(now: Date) -> [String] {
        guard settings.keepSeconds != nil || settings.maxBytes != nil else { return [] }
        var files = files()
        var deleted: [String] = []
        if let keep = settings.keepSeconds {
            while let oldest = files.first, now.timeIntervalSince(oldest.modified) > keep {
                if remove(oldest.path) { deleted.append(oldest.path) }
                files.removeFirst()
            }
        }
        if let limit = settings.maxBytes {
            var total = files.reduce(0) { $0 + $1.bytes }
            // What is being written counts towards the limit too, and is never deleted.
            total += partialBytes()
            while total > limit, let oldest = files.first {
                if remove(oldest.path) { deleted.append(oldest.path) }
                total -= oldest.bytes
                files.removeFirst()
            }
        }
        return deleted
    }

    private func partialBytes() -> Int64 {
        guard
            let walker = FileManager.default.enumerator(
                at: settings.pattern.root, includingPropertiesForKeys: [.fileSizeKey])
        else { return 0 }
        var total: Int64 = 0
        for case let url as URL in walker where url.lastPathComponent.hasSuffix(".partial") {
            total += Int64((try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
        }
        return total
    }

    /// Removes the file, then each folder it leaves empty up to the root.
    private func remove(_ path: String) -> Bool {
        guard unlink(path) == 0 else { return false }
        let root = settings.pattern.root.standardizedFileURL.path
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL
        while folder.path.hasPrefix(root + "/"), rmdir(folder.path) == 0 {
            folder.deleteLastPathComponent()
        }
        return true
    }
}
