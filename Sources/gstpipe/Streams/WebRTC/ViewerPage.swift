/// The page a `webrtc://` output serves at its path: a `<video>` that watches the stream through the
/// server's WHEP endpoint (PATH/whep, next to the page), the connection's state below it, and a
/// DELETE of the session when the page goes away. Everything is here: no script or style from
/// elsewhere, so it works on a network with no way out.
enum ViewerPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>gstpipe live</title>
        <style>
          body { margin: 0; background: #111; color: #ccc; font: 15px system-ui, sans-serif; text-align: center; }
          video { display: block; margin: 1em auto .5em; max-width: 100vw; max-height: 85vh; background: #000; }
          #state.failed { color: #f66; }
        </style>
        </head>
        <body>
        <video id="video" autoplay muted playsinline controls></video>
        <div id="state">starting</div>
        <script>
        'use strict';
        // The WHEP endpoint is next to this page: /live serves the page, /live/whep takes offers.
        const endpoint = location.pathname.replace(/\/+$/, '') + '/whep';
        const video = document.getElementById('video');
        const stateLine = document.getElementById('state');
        let session = null;

        function show(text, failed) {
          stateLine.textContent = text;
          stateLine.className = failed ? 'failed' : '';
        }

        // The server takes no trickled candidates: the offer goes once the browser has gathered its own
        // (or after two seconds, with those it has).
        function gathered(pc) {
          if (pc.iceGatheringState === 'complete') return Promise.resolve();
          return new Promise((resolve) => {
            pc.addEventListener('icegatheringstatechange', () => {
              if (pc.iceGatheringState === 'complete') resolve();
            });
            setTimeout(resolve, 2000);
          });
        }

        async function watch() {
          const pc = new RTCPeerConnection();
          pc.addTransceiver('video', { direction: 'recvonly' });
          pc.ontrack = (event) => {
            video.srcObject = event.streams[0] || new MediaStream([event.track]);
          };
          pc.onconnectionstatechange = () => {
            const state = pc.connectionState;
            const failed = state === 'failed' || state === 'closed';
            show(failed ? state + ': reload the page to watch again' : state, failed);
          };
          show('connecting');
          await pc.setLocalDescription(await pc.createOffer());
          await gathered(pc);
          const response = await fetch(endpoint, {
            method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: pc.localDescription.sdp,
          });
          if (response.status !== 201) throw new Error(response.status + ' ' + (await response.text()));
          session = new URL(response.headers.get('Location'), location.href).href;
          await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
        }

        // Leaving ends the session at once, rather than when the server notices the silence.
        addEventListener('pagehide', () => {
          if (session) fetch(session, { method: 'DELETE', keepalive: true });
        });
        watch().catch((error) => show('cannot watch: ' + error.message, true));
        </script>
        </body>
        </html>
        """#
}
