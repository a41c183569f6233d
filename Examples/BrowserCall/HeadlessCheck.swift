import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The example's self-check: headless Chromium with a fake camera opening the call page, as the
/// WebRTC tests run it (loopback candidates allowed, no mDNS hiding of local addresses, no prompt).
enum HeadlessCheck {
    /// Chromium's path, nil when it is not installed.
    static func chromium() -> String? {
        ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Starts Chromium at `url` with a profile of its own.
    static func launch(_ executable: String, url: String) throws -> Process {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("browsercall-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--headless=new", "--no-sandbox", "--allow-loopback-in-peer-connection",
            "--disable-features=WebRtcHideLocalIpsWithMdns", "--use-fake-ui-for-media-stream",
            "--use-fake-device-for-media-stream", "--autoplay-policy=no-user-gesture-required", "--no-first-run",
            "--disable-gpu", "--user-data-dir=\(profile.path)", url
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// True when every URL answers 200.
    static func answers(_ urls: [String]) async -> Bool {
        for url in urls {
            guard let url = URL(string: url),
                let (_, response) = try? await URLSession.shared.data(from: url),
                (response as? HTTPURLResponse)?.statusCode == 200
            else { return false }
        }
        return true
    }
}
