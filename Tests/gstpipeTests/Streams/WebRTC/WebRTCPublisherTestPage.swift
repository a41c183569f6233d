/// The page the WebRTC input tests open in headless Chromium, served from another origin than
/// gstpipe's (the test's page server on port 8000): it publishes Chromium's fake camera and beeping
/// microphone to a WHIP endpoint, as any WHIP client would, then leaves.
///
/// Query: `endpoint` (the WHIP URL), `publish` (seconds to publish before leaving). Once connected,
/// a second publisher (an offer of its own) tries the same endpoint, which must refuse it while the
/// first is live. It POSTs one JSON report to /result/report: the first POST's status, Location and
/// the answer's candidates, whether the connection came up and the bytes it sent, the second
/// POST's status and body, and the DELETE's status; `error` if something failed.
enum WebRTCPublisherTestPage {
    static let html = #"""
        <!doctype html>
        <meta charset="utf-8"><title>WHIP test publisher</title>
        <script>
        'use strict';
        const { endpoint, publish } = Object.fromEntries(new URLSearchParams(location.search));
        const publishSeconds = Number(publish || 4);
        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        const report = {};

        // The browser's last candidate (the null one), or two seconds: the server takes no trickle.
        const endOfCandidates = (pc) => Promise.race([
          new Promise((resolve) => pc.addEventListener('icecandidate', (event) => event.candidate || resolve())),
          sleep(2000),
        ]);

        // A peer connection sending `media`'s tracks, its offer POSTed: the response.
        async function offer(media) {
          const pc = new RTCPeerConnection();
          for (const track of media.getTracks()) pc.addTransceiver(track, { direction: 'sendonly' });
          const candidates = endOfCandidates(pc);
          await pc.setLocalDescription(await pc.createOffer());
          await candidates;
          const response = await fetch(endpoint, {
            method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: pc.localDescription.sdp,
          });
          return { pc, response, body: await response.text() };
        }

        function connected(pc, seconds) {
          return new Promise((resolve) => {
            if (pc.connectionState === 'connected') resolve(true);
            pc.addEventListener('connectionstatechange', () => {
              if (pc.connectionState === 'connected') resolve(true);
            });
            setTimeout(() => resolve(false), seconds * 1000);
          });
        }

        async function run() {
          const media = await navigator.mediaDevices.getUserMedia({ video: { width: 320, height: 240 }, audio: true });
          report.tracks = media.getTracks().map((track) => track.kind);
          const first = await offer(media);
          report.status = first.response.status;
          report.location = first.response.headers.get('Location');
          if (report.status !== 201) throw new Error('POST answered ' + report.status + ': ' + first.body);
          report.candidates = first.body.split('\n').filter((line) => line.startsWith('a=candidate:')).length;
          await first.pc.setRemoteDescription({ type: 'answer', sdp: first.body });
          report.connected = await connected(first.pc, 30);
          const second = await offer(media);
          report.secondStatus = second.response.status;
          report.secondBody = second.body;
          second.pc.close();
          await sleep(publishSeconds * 1000);
          report.bytesSent = {};
          (await first.pc.getStats()).forEach((entry) => {
            if (entry.type === 'outbound-rtp') report.bytesSent[entry.kind] = entry.bytesSent;
          });
          const gone = await fetch(new URL(report.location, endpoint).href, { method: 'DELETE' });
          report.deleteStatus = gone.status;
          first.pc.close();
        }

        run()
          .catch((error) => { report.error = String(error && error.message || error); })
          .finally(() => fetch('/result/report', { method: 'POST', body: JSON.stringify(report) }));
        </script>
        """#
}
