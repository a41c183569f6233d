import Foundation
import Testing

/// The data channel of `BrowserViewers` and `BrowserPublisher` with their served pages: the helper
/// `BrowserViewersTone` serves viewers on one port and takes a publisher on another (each answering
/// what a page sends: `echo`), and headless Chromium opens both served pages in iframes of a page of
/// another origin, which talks to each page's channel through `postMessage` (the hook
/// `DataChannelScript` documents): a text and a binary message in, three messages back.
@Suite(
    "WebRTCDataChannelTests", .serialized,
    .enabled(if: NetworkNamespace.isAvailable, "cannot make a network namespace here (unshare -n needs root)"),
    .enabled(if: Browser.isInstalled, "Chromium is not installed (/usr/bin/chromium): apt-get install chromium"))
struct WebRTCDataChannelTests {
    @Test("text and bytes go both ways between Swift and the viewer page, and the publisher page")
    func messagesBothWays() async throws {
        let executable = BrowserViewersAudioTests.executable
        try #require(FileManager.default.isExecutableFile(atPath: executable), "build: swift build --build-tests")
        let namespace = try await NetworkNamespace()
        let viewers = namespace.run(executable, ["--port", "8890"])
        let publisher = namespace.run(executable, ["--port", "8891", "--publisher"])
        let listening = await namespace.waitForListener(8890)
        let listeningToo = await namespace.waitForListener(8891)
        let frames = "http://127.0.0.1:8890/live,http://127.0.0.1:8891/in"
        var report: [String: Any]?
        if listening && listeningToo {
            let session = try await BrowserSession(in: namespace, query: "frames=\(frames)", page: Self.page)
            report = await session.result(named: "report", timeout: 90)
            await session.close()
        }
        viewers.signal(SIGINT)
        publisher.signal(SIGINT)
        let viewersRun = await viewers.finish(timeout: 20)
        let publisherRun = await publisher.finish(timeout: 20)
        let comment = Comment(
            rawValue: "report: \(report.map { "\($0)" } ?? "none")\nviewers: \(viewersRun.stdout) \(viewersRun.stderr)"
                + "\npublisher: \(publisherRun.stdout) \(publisherRun.stderr)")
        let pages = report?["frames"] as? [[String: Any]] ?? []
        try #require(pages.count == 2, comment)
        for (index, (role, run)) in [("viewer", viewersRun), ("publisher", publisherRun)].enumerated() {
            // What the page got, in order: the echo to it alone, the message to every page, the bytes reversed.
            let got = pages[index]["messages"] as? [Any] ?? []
            #expect(got.count == 3, comment)
            #expect(got.first as? String == "echo: hello from the \(role) page", comment)
            #expect(got.dropFirst().first as? String == "to every page", comment)
            #expect(got.dropFirst(2).first as? [Int] == [250, 3, 2, 1, 0], comment)
            #expect(pages[index]["binaryType"] as? String == "ArrayBuffer", comment)
            #expect(pages[index]["role"] as? String == role, comment)
            // What Swift got, named by the page's session (a UUID): the same session for both.
            let text = run.stdout.firstMatch(of: #/text from ([0-9a-f-]{36}): (.*)\n/#)
            let bytes = run.stdout.firstMatch(of: #/bytes from ([0-9a-f-]{36}): (.*)\n/#)
            #expect(text.map { String($0.output.2) } == "hello from the \(role) page", comment)
            #expect(bytes.map { String($0.output.2) } == "0 1 2 3 250", comment)
            #expect(text != nil && text?.output.1 == bytes?.output.1, comment)
            #expect(run.stdout.contains("answered 1 page, then 1 pages"), comment)
            // close() ends the sequence of messages.
            #expect(run.stdout.contains("the messages ended"), comment)
            #expect(run.status == 0, comment)
        }
    }

    /// Embeds each page of `frames` (comma-separated) and, once its data channel is open, sends it
    /// "hello from the ROLE page" and the bytes 0 1 2 3 250; POSTs what each page passes back
    /// (strings, and byte arrays for ArrayBuffers) once three messages came, or after 40 s.
    static let page = #"""
        <!doctype html>
        <meta charset="utf-8"><title>data channel test</title>
        <body>
        <script>
        'use strict';
        const urls = new URLSearchParams(location.search).get('frames').split(',');
        function talk(url) {
          return new Promise((resolve) => {
            const frame = document.createElement('iframe');
            frame.allow = 'camera; microphone; autoplay';
            const seen = { url, messages: [], states: [] };
            addEventListener('message', (event) => {
              if (event.source !== frame.contentWindow || !event.data || !event.data.gstpipe) return;
              const data = event.data;
              if (data.gstpipe === 'viewer' || data.gstpipe === 'publisher') seen.states.push(data.state);
              if (data.gstpipe === 'channel' && data.state === 'open') {
                seen.role = data.from;
                const send = (data) => frame.contentWindow.postMessage({ gstpipe: 'send', data }, '*');
                send(`hello from the ${data.from} page`);
                send(new Uint8Array([0, 1, 2, 3, 250]).buffer);
              }
              if (data.gstpipe === 'message') {
                if (data.data instanceof ArrayBuffer) {
                  seen.binaryType = 'ArrayBuffer';
                  seen.messages.push(Array.from(new Uint8Array(data.data)));
                } else {
                  seen.messages.push(data.data);
                }
                if (seen.messages.length === 3) resolve(seen);
              }
            });
            frame.src = url;
            document.body.appendChild(frame);
            setTimeout(() => resolve(seen), 40000);
          });
        }
        Promise.all(urls.map(talk))
          .then((frames) => ({ frames }), (error) => ({ error: String(error) }))
          .then((report) => fetch('/result/report', { method: 'POST', body: JSON.stringify(report) }));
        </script>
        """#
}
