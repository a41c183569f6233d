/// The page a `webrtc://` output serves at its path: a `<video>` that watches the stream through the
/// server's WHEP endpoint (PATH/whep, next to the page), the connection's state below it, and a
/// DELETE of the session when the page goes away. It offers to receive sound too; browsers play a
/// page's sound unasked only once the user has interacted with it, so the video starts muted and a
/// "Sound on" button shows when the stream has sound. Everything is here: no script or style from
/// elsewhere, so it works on a network with no way out. Embedded in another page (an iframe), it
/// tells that page its state with postMessage (`{gstpipe: 'viewer', state}`; 'playing' with the
/// picture's size once the first frame shows), so the page around it can follow the player. Its
/// peer connection uses the server's STUN and TURN servers (`configuration`, `ICESettings`). It sends
/// the token of its own URL with its requests (`BearerToken`), and opens a data channel to the server
/// (`window.gstpipe`, `DataChannelScript`).
package enum ViewerPage {
    /// The page, with `configuration` (an `RTCConfiguration` as JSON) for its peer connection.
    package static func html(configuration: String) -> String {
        ICEServerScript.page(template, configuration: configuration)
    }

    private static let template = #"""
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
          #sound { font: inherit; margin-bottom: .5em; }
        </style>
        </head>
        <body>
        <video id="video" autoplay muted playsinline controls></video>
        <button id="sound" hidden>Sound on</button>
        <div id="state">starting</div>
        <script>
        'use strict';
        // The WHEP endpoint is next to this page: /live serves the page, /live/whep takes offers.
        const endpoint = location.pathname.replace(/\/+$/, '') + '/whep';
        // The token of this page's own URL, sent with every request when gstpipe was given one
        // (pageToken, in the shared script below).
        const token = pageToken();
        const authorization = token ? { Authorization: 'Bearer ' + token } : {};
        const video = document.getElementById('video');
        const stateLine = document.getElementById('state');
        // Video and sound in one stream, played by the one element.
        const stream = new MediaStream();
        const sound = document.getElementById('sound');
        sound.onclick = () => { video.muted = false; };
        video.onvolumechange = () => { sound.hidden = !video.muted || !stream.getAudioTracks().length; };
        let session = null;
        // The server's STUN and TURN servers (--stun, --turn), so that this browser gathers the same kinds.
        const configuration = /*CONFIGURATION*/{};
        /*ICE-SERVERS*/
        /*DATA-CHANNEL*/

        function show(text, failed, details) {
          if (stateLine.textContent === text) return;
          stateLine.textContent = text;
          stateLine.className = failed ? 'failed' : '';
          if (parent !== window) parent.postMessage(Object.assign({ gstpipe: 'viewer', state: text }, details), '*');
        }

        async function watch() {
          const pc = new RTCPeerConnection(await withServerICE(configuration, endpoint));
          pc.addTransceiver('video', { direction: 'recvonly' });
          pc.addTransceiver('audio', { direction: 'recvonly' });
          openChannel(pc, 'viewer');
          pc.ontrack = (event) => {
            stream.addTrack(event.track);
            if (video.srcObject !== stream) video.srcObject = stream;
            if (event.track.kind === 'audio') {
              sound.hidden = !video.muted;
              return;
            }
            video.requestVideoFrameCallback((now, frame) => {
              show('playing', false, { width: frame.width, height: frame.height });
            });
          };
          // Sound alone: playing once the element plays, with no picture to wait for.
          video.addEventListener('playing', () => {
            if (!stream.getVideoTracks().length) show('playing', false, { width: 0, height: 0 });
          });
          pc.onconnectionstatechange = () => {
            const state = pc.connectionState;
            const failed = state === 'failed' || state === 'closed';
            // 'connected' comes before the first frame; 'playing' says more once it has come.
            if (state === 'connected' && stateLine.textContent === 'playing') return;
            show(failed ? state + ': reload the page to watch again' : state, failed);
          };
          show('connecting');
          // The offer goes at once; the candidates follow by PATCH.
          const sendCandidates = trickle(pc);
          await pc.setLocalDescription(await pc.createOffer());
          const response = await fetch(endpoint, {
            method: 'POST', headers: { 'Content-Type': 'application/sdp', ...authorization },
            body: pc.localDescription.sdp,
          });
          if (response.status !== 201) throw new Error(response.status + ' ' + (await response.text()));
          session = new URL(response.headers.get('Location'), location.href).href;
          sendCandidates(session);
          await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
        }

        // Leaving ends the session at once, rather than when the server notices the silence.
        addEventListener('pagehide', () => {
          if (session) fetch(session, { method: 'DELETE', headers: authorization, keepalive: true });
        });
        watch().catch((error) => show('cannot watch: ' + error.message, true));
        </script>
        </body>
        </html>
        """#
}
