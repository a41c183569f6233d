/// The one page of the call: the camera beside what Swift made of it. It publishes the camera and
/// microphone to the WHIP endpoint (`BrowserPublisher`, on the port after the page's), watches the
/// processed stream from the WHEP endpoint (`BrowserViewers`, two ports after), and checks twice a
/// second that what comes back shows the processing: the picture gray (R = G = B) but for a red box.
/// Each connection opens a data channel too: once both are open, the page says "hello from the camera"
/// on the publisher's (each half second until answered), Swift answers on the viewers'
/// (`BrowserPublisher.messages`, `BrowserViewers.send`), and the page keeps what comes back (`chat`).
/// After five such checks and the answer it POSTs `{processed: true, chat, ...}` to /result, which the
/// example's self-check waits for (a person watching sees the same on the page).
enum CallPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>gstpipe BrowserCall</title>
        <style>
          body { margin: 0; background: #111; color: #ccc; font: 15px system-ui, sans-serif; text-align: center; }
          video { width: 45vw; max-width: 640px; margin: 1em .5em; background: #000; }
        </style>
        </head>
        <body>
        <video id="local" autoplay muted playsinline></video>
        <video id="remote" autoplay muted playsinline></video>
        <div id="state">starting</div>
        <script>
        'use strict';
        const port = Number(location.port || 80);
        const whip = `http://${location.hostname}:${port + 1}/in/whip`;
        const whep = `http://${location.hostname}:${port + 2}/out/whep`;
        const stateLine = document.getElementById('state');
        const show = (text) => { stateLine.textContent = text; };
        const chat = [];

        // Offers go once the browser has gathered its candidates (the servers take no trickle).
        const gathered = (pc) => Promise.race([
          new Promise((resolve) => setTimeout(resolve, 2000)),
          new Promise((resolve) => {
            const check = () => { if (pc.iceGatheringState === 'complete') resolve(); };
            pc.addEventListener('icegatheringstatechange', check);
            check();
          }),
        ]);

        async function negotiate(pc, url) {
          await pc.setLocalDescription(await pc.createOffer());
          await gathered(pc);
          const response = await fetch(url, {
            method: 'POST', headers: { 'Content-Type': 'application/sdp' }, body: pc.localDescription.sdp,
          });
          if (response.status !== 201) throw new Error(url + ': ' + response.status + ' ' + (await response.text()));
          await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
        }

        async function publish() {
          const camera = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio: true });
          document.getElementById('local').srcObject = camera;
          const pc = new RTCPeerConnection();
          for (const track of camera.getTracks()) pc.addTransceiver(track, { direction: 'sendonly' });
          // The data channel to BrowserPublisher (its `messages`), opened before the offer.
          const channel = pc.createDataChannel('chat');
          await negotiate(pc, whip);
          return channel;
        }

        async function watch() {
          const pc = new RTCPeerConnection();
          pc.addTransceiver('video', { direction: 'recvonly' });
          const remote = document.getElementById('remote');
          pc.ontrack = (event) => { remote.srcObject = new MediaStream([event.track]); };
          // What BrowserViewers.send says comes here.
          const channel = pc.createDataChannel('chat');
          channel.onmessage = (event) => { chat.push(event.data); };
          const opened = new Promise((resolve) => { channel.onopen = resolve; });
          await negotiate(pc, whep);
          return { remote, opened };
        }

        // Gray but for a red box: samples on an 8x8 grid of the picture.
        function check(video, canvas) {
          const width = video.videoWidth, height = video.videoHeight;
          if (!width || !height) return null;
          canvas.width = width; canvas.height = height;
          const context = canvas.getContext('2d', { willReadFrequently: true });
          context.drawImage(video, 0, 0);
          let gray = 0, red = 0, total = 0;
          for (let gy = 0; gy < 8; gy++) {
            for (let gx = 0; gx < 8; gx++) {
              const [r, g, b] = context.getImageData(((gx + 0.5) * width) / 8, ((gy + 0.5) * height) / 8, 1, 1).data;
              total++;
              if (Math.abs(r - g) < 16 && Math.abs(g - b) < 16) gray++;
              if (r > 150 && g < 110 && b < 110) red++;
            }
          }
          return { gray: gray / total, red, width, height };
        }

        async function call() {
          show('publishing the camera');
          const toSwift = await publish();
          show('watching what Swift makes of it');
          const { remote, opened } = await watch();
          // Both channels open: a word to Swift through the publisher's, which Swift passes on to
          // every viewer (this page's second connection). Said again each half second until the answer
          // comes: the browser counts a channel open before the server has taken it.
          opened.then(() => {
            const say = setInterval(() => {
              if (chat.length) clearInterval(say);
              else toSwift.send('hello from the camera');
            }, 500);
          });
          const canvas = document.createElement('canvas');
          let passed = 0, checks = 0, last = null;
          const timer = setInterval(async () => {
            checks++;
            last = check(remote, canvas);
            if (last && last.gray > 0.6 && last.red > 0) passed++;
            const size = last ? ` (${last.width}x${last.height})` : '';
            show(`processed frames: ${passed} checks passed of ${checks}` + size);
            if ((passed >= 5 && chat.length) || checks >= 120) {
              clearInterval(timer);
              const result = Object.assign({ processed: passed >= 5, passed, checks, chat: chat[0] }, last);
              await fetch('/result', { method: 'POST', body: JSON.stringify(result) });
            }
          }, 500);
        }
        call().catch(async (error) => {
          show('cannot call: ' + error.message);
          await fetch('/result', { method: 'POST', body: JSON.stringify({ processed: false, error: error.message }) });
        });
        </script>
        </body>
        </html>
        """#
}
