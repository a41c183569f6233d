/// The page `WebRTCBadLinkTests` opens in headless Chromium: one WHEP viewer of `endpoint` that watches
/// for `seconds` and, once a second, keeps what `getStats()` says of its inbound video (frames decoded,
/// frames per second, frame height, freezes and their total time, packets lost, NACKs sent, bytes), with
/// the wall-clock time (`Date.now()`, milliseconds) to set against the moments the test limited the
/// link. It POSTs `{samples: [...]}` (or `{error}`) to /result/report.
enum WebRTCBadLinkPage {
    static let html = #"""
        <!doctype html>
        <html><head><meta charset="utf-8"><title>WHEP viewer on a bad link</title></head>
        <body>
        <script>
        'use strict';
        const query = new URLSearchParams(location.search);
        const endpoint = query.get('endpoint');
        const seconds = Number(query.get('seconds') || 30);
        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

        (async () => {
          const report = { samples: [] };
          try {
            const pc = new RTCPeerConnection();
            pc.addTransceiver('video', { direction: 'recvonly' });
            const video = document.createElement('video');
            video.muted = true;
            video.autoplay = true;
            video.playsInline = true;
            document.body.appendChild(video);
            pc.ontrack = (event) => { video.srcObject = new MediaStream([event.track]); };
            await pc.setLocalDescription(await pc.createOffer());
            await new Promise((resolve) => {
              pc.onicecandidate = (event) => { if (!event.candidate) resolve(); };
              setTimeout(resolve, 2000);
            });
            const response = await fetch(endpoint, {
              method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: pc.localDescription.sdp,
            });
            const answer = await response.text();
            if (response.status !== 201) throw new Error('POST answered ' + response.status + ': ' + answer);
            await pc.setRemoteDescription({ type: 'answer', sdp: answer });
            const start = Date.now();
            while (Date.now() - start < seconds * 1000) {
              await sleep(1000);
              const stats = await pc.getStats();
              stats.forEach((entry) => {
                if (entry.type !== 'inbound-rtp' || entry.kind !== 'video') return;
                report.samples.push({
                  at: Date.now(), frames: entry.framesDecoded || 0, fps: entry.framesPerSecond || 0,
                  height: entry.frameHeight || 0, freezes: entry.freezeCount || 0,
                  freezeTime: entry.totalFreezesDuration || 0, lost: entry.packetsLost || 0,
                  nacks: entry.nackCount || 0, bytes: entry.bytesReceived || 0,
                });
              });
            }
            pc.close();
          } catch (error) {
            report.error = String(error);
          }
          await fetch('/result/report', { method: 'POST', body: JSON.stringify(report) });
        })();
        </script>
        </body></html>
        """#
}
