/// The page a `webrtc://` input serves at its path: it asks for the camera and microphone
/// (getUserMedia), shows the camera, and publishes both through the server's WHIP endpoint
/// (PATH/whip, next to the page), with the connection's state below and a Stop button that ends
/// the session (DELETE), which ends gstpipe's recording. Everything is here: no script or style
/// from elsewhere. Embedded in another page, it tells that page its state with postMessage
/// (`{gstpipe: 'publisher', state}`).
enum PublisherPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>gstpipe publish</title>
        <style>
          body { margin: 0; background: #111; color: #ccc; font: 15px system-ui, sans-serif; text-align: center; }
          video { display: block; margin: 1em auto .5em; max-width: 100vw; max-height: 80vh; background: #000; }
          #state.failed { color: #f66; }
          button { margin: .5em; font: inherit; padding: .3em 1.2em; }
        </style>
        </head>
        <body>
        <video id="camera" autoplay muted playsinline></video>
        <div id="state">starting</div>
        <button id="stop" disabled>Stop</button>
        <script>
        'use strict';
        // The WHIP endpoint is next to this page: /in serves the page, /in/whip takes the offer.
        const endpoint = location.pathname.replace(/\/+$/, '') + '/whip';
        const camera = document.getElementById('camera');
        const stateLine = document.getElementById('state');
        const stopButton = document.getElementById('stop');
        let session = null;
        let pc = null;
        let media = null;

        function show(text, failed) {
          if (stateLine.textContent === text) return;
          stateLine.textContent = text;
          stateLine.className = failed ? 'failed' : '';
          if (parent !== window) parent.postMessage({ gstpipe: 'publisher', state: text }, '*');
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

        // Camera and microphone; the camera alone when there is no microphone.
        async function capture() {
          try {
            return await navigator.mediaDevices.getUserMedia({ video: true, audio: true });
          } catch (error) {
            return await navigator.mediaDevices.getUserMedia({ video: true });
          }
        }

        async function publish() {
          show('asking for the camera');
          media = await capture();
          camera.srcObject = media;
          pc = new RTCPeerConnection();
          for (const track of media.getTracks()) pc.addTransceiver(track, { direction: 'sendonly', streams: [media] });
          pc.onconnectionstatechange = () => {
            const state = pc.connectionState;
            const failed = state === 'failed';
            const shown = state === 'connected' ? 'publishing' : state;
            show(failed ? 'failed: reload the page to publish again' : shown, failed);
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
          stopButton.disabled = false;
        }

        // Stop (or leaving the page) ends the session at once: gstpipe finishes its recording.
        function stop() {
          if (session) fetch(session, { method: 'DELETE', keepalive: true });
          session = null;
          if (pc) pc.close();
          if (media) media.getTracks().forEach((track) => track.stop());
          stopButton.disabled = true;
          show('stopped');
        }
        stopButton.addEventListener('click', stop);
        addEventListener('pagehide', () => { if (session) stop(); });
        publish().catch((error) => show('cannot publish: ' + error.message, true));
        </script>
        </body>
        </html>
        """#
}
