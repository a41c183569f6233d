/// The page a `webrtc://` input serves at its path: it asks for the camera and microphone
/// (getUserMedia), shows the camera, and publishes both through the server's WHIP endpoint
/// (PATH/whip, next to the page), with the connection's state below and a Stop button that ends
/// the session (DELETE), which ends gstpipe's recording. Everything is here: no script or style
/// from elsewhere. Embedded in another page, it tells that page its state with postMessage
/// (`{gstpipe: 'publisher', state}`). It sends the token of its own URL with its requests (`BearerToken`),
/// and opens a data channel to the server (`window.gstpipe`, `DataChannelScript`).
package enum PublisherPage {
    /// The page, with `configuration` (an `RTCConfiguration` as JSON: the server's STUN and TURN
    /// servers, `ICESettings.pageConfiguration`) for its peer connection.
    package static func html(configuration: String) -> String {
        ICEServerScript.page(template, configuration: configuration)
    }

    private static let template = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>gstpipe: publish your camera</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
          html { background: #181818; color: #ddd; font: 15px system-ui, sans-serif; }
          main { display: flex; flex-direction: column; align-items: center; gap: .6em; padding: 1em; }
          #camera { width: min(100%, 960px); max-height: 75vh; background: #000; }
          .failed { color: #f77; }
        </style>
        </head>
        <body>
        <main>
          <video id="camera" autoplay muted playsinline></video>
          <p id="state">starting</p>
          <button id="stop" disabled>Stop</button>
        </main>
        <script>
        'use strict';
        // This page is PATH, the WHIP endpoint PATH/whip.
        const whip = location.pathname.replace(/\/+$/, '') + '/whip';
        // The token of this page's own URL, sent with every request when gstpipe was given one
        // (pageToken, in the shared script below).
        const token = pageToken();
        const authorization = token ? { Authorization: 'Bearer ' + token } : {};
        const $ = (id) => document.getElementById(id);
        let resource = null, peer = null, stream = null;
        const configuration = /*CONFIGURATION*/{};
        /*ICE-SERVERS*/
        /*DATA-CHANNEL*/

        function say(state, failed) {
          if ($('state').textContent === state) return;
          $('state').textContent = state;
          $('state').className = failed ? 'failed' : '';
          if (parent !== window) parent.postMessage({ gstpipe: 'publisher', state }, '*');
        }

        // Camera and microphone; the camera alone when there is no microphone.
        const capture = () => navigator.mediaDevices.getUserMedia({ video: true, audio: true })
          .catch(() => navigator.mediaDevices.getUserMedia({ video: true }));

        async function start() {
          say('asking for the camera');
          stream = await capture();
          $('camera').srcObject = stream;
          peer = new RTCPeerConnection(await withServerICE(configuration, whip));
          for (const track of stream.getTracks()) {
            peer.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
          }
          openChannel(peer, 'publisher');
          peer.addEventListener('connectionstatechange', () => {
            const state = peer.connectionState;
            if (state === 'failed') say('failed: reload the page to publish again', true);
            else say(state === 'connected' ? 'publishing' : state, false);
          });
          say('connecting');
          // The offer goes at once; the candidates follow by PATCH.
          const sendCandidates = trickle(peer);
          await peer.setLocalDescription(await peer.createOffer());
          const reply = await fetch(whip, {
            method: 'POST', headers: { 'Content-Type': 'application/sdp', ...authorization },
            body: peer.localDescription.sdp,
          });
          const text = await reply.text();
          if (reply.status !== 201) throw new Error(`${reply.status} ${text}`);
          resource = new URL(reply.headers.get('Location'), location.href).href;
          sendCandidates(resource);
          await peer.setRemoteDescription({ type: 'answer', sdp: text });
          $('stop').disabled = false;
        }

        // Stop, or leaving the page, DELETEs the session: gstpipe finishes its recording.
        function stop() {
          if (resource) fetch(resource, { method: 'DELETE', headers: authorization, keepalive: true });
          resource = null;
          peer?.close();
          stream?.getTracks().forEach((track) => track.stop());
          $('stop').disabled = true;
          say('stopped', false);
        }
        $('stop').addEventListener('click', stop);
        addEventListener('pagehide', () => { if (resource) stop(); });
        start().catch((error) => say('cannot publish: ' + error.message, true));
        </script>
        </body>
        </html>
        """#
}
