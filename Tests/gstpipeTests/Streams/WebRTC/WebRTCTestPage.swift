/// The page the WebRTC tests open in headless Chromium, served from another origin than gstpipe's
/// (the test's page server on port 8000), so every WHEP request is cross-origin: the POST with its
/// application/sdp body is preflighted, and Location is read through Access-Control-Expose-Headers.
///
/// Query: `endpoint` (the WHEP URL), `viewers` (peer connections at once), `watch` (seconds each
/// watches), `ice` (an RTCConfiguration as JSON, such as TURN servers and iceTransportPolicy 'relay'),
/// `leave` (after watching, the first viewer leaves: `delete`, by WHEP DELETE, twice, or
/// `close`, closing its connection without a word), `after` (seconds the others watch after that),
/// `audio=1` (each viewer also offers to receive audio, before its video, as many WHEP players do,
/// and plays it unmuted; `audio=last`: after its video, as gstpipe's own page does), `tone=1` (the
/// received audio also goes through a WebAudio analyser, whose loudest frequency is reported as
/// `peakHz` and `peakDb`), `token` (sent as `Authorization: Bearer` with every request), `prefer`
/// (per viewer, separated by commas: a codec, such as `H264`, that viewer offers alone, set by
/// `RTCRtpTransceiver.setCodecPreferences`, with its RTX; empty for the browser's own offer).
/// With `embed=URL` it embeds gstpipe's own viewer page instead and reports the states that page
/// posts. It POSTs one JSON report to /result/report: per viewer, the answer's status, Location and
/// candidates, the time to its first frame (from its POST, and from its connection coming up), and
/// what it saw (frames, how far from gray the pixels were, how often the picture changed between
/// samples a quarter second apart, the codec it decoded, and with `audio=1` the answer's SDP and the
/// inbound audio's statistics at the start and end of the watch).
enum WebRTCTestPage {
    static let html = #"""
        <!doctype html>
        <html><head><meta charset="utf-8"><title>WHEP test viewer</title></head>
        <body>
        <script>
        'use strict';
        const query = new URLSearchParams(location.search);
        const endpoint = query.get('endpoint');
        const count = Number(query.get('viewers') || 1);
        const watchSeconds = Number(query.get('watch') || 4);
        const leave = query.get('leave');
        const afterSeconds = Number(query.get('after') || 0);
        const configuration = query.get('ice') ? JSON.parse(query.get('ice')) : {};
        const audio = query.get('audio') === '1' || query.get('audio') === 'last';
        const audioLast = query.get('audio') === 'last';
        const tone = query.get('tone') === '1';
        const authorization = query.get('token') ? { Authorization: 'Bearer ' + query.get('token') } : {};
        const prefer = (query.get('prefer') || '').split(',');
        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

        // Resolves at the end of the browser's gathering (the null candidate), or after two seconds:
        // the server takes no trickled candidates, and its own ICE finds the browser's anyway.
        function endOfCandidates(pc) {
          return new Promise((resolve) => {
            pc.onicecandidate = (event) => { if (!event.candidate) resolve(); };
            setTimeout(resolve, 2000);
          });
        }

        async function join(index) {
          const pc = new RTCPeerConnection(configuration);
          if (audio && !audioLast) pc.addTransceiver('audio', { direction: 'recvonly' });
          const transceiver = pc.addTransceiver('video', { direction: 'recvonly' });
          if (prefer[index]) {
            const codecs = RTCRtpReceiver.getCapabilities('video').codecs;
            transceiver.setCodecPreferences(codecs.filter((codec) =>
              codec.mimeType === 'video/' + prefer[index] || codec.mimeType === 'video/rtx'));
          }
          if (audioLast) pc.addTransceiver('audio', { direction: 'recvonly' });
          const video = document.createElement('video');
          // Sound is played (the browser runs with no autoplay restriction), so that it is decoded.
          video.muted = !audio;
          video.autoplay = true;
          video.playsInline = true;
          document.body.appendChild(video);
          const viewer = { index, pc, video, frames: 0, firstFrameMs: null, tracks: [] };
          const stream = new MediaStream();
          pc.ontrack = (event) => {
            viewer.tracks.push(event.track.kind);
            if (tone && event.track.kind === 'audio') {
              // 8192 points at 48 kHz: bins 5.9 Hz apart.
              viewer.audioContext = new AudioContext();
              viewer.analyser = viewer.audioContext.createAnalyser();
              viewer.analyser.fftSize = 8192;
              viewer.audioContext.createMediaStreamSource(new MediaStream([event.track])).connect(viewer.analyser);
            }
            stream.addTrack(event.track);
            video.srcObject = stream;
          };
          const candidates = endOfCandidates(pc);
          await pc.setLocalDescription(await pc.createOffer());
          await candidates;
          const started = performance.now();
          const response = await fetch(endpoint, {
            method: 'POST', headers: { 'Content-Type': 'application/sdp', ...authorization },
            body: pc.localDescription.sdp,
          });
          viewer.status = response.status;
          viewer.location = response.headers.get('Location');
          const answer = await response.text();
          if (response.status !== 201) throw new Error('POST answered ' + response.status + ': ' + answer);
          viewer.candidates = answer.split('\n').filter((line) => line.startsWith('a=candidate:')).length;
          viewer.relayCandidates = answer.split('\n').filter((line) => / typ relay/.test(line)).length;
          if (audio) viewer.answer = answer;
          viewer.session = new URL(viewer.location, endpoint).href;
          pc.addEventListener('connectionstatechange', () => {
            if (pc.connectionState === 'connected' && viewer.connected === undefined) {
              viewer.connected = performance.now();
            }
          });
          await pc.setRemoteDescription({ type: 'answer', sdp: answer });
          const tick = () => {
            viewer.frames++;
            if (viewer.firstFrameMs === null) {
              const now = performance.now();
              viewer.firstFrameMs = Math.round(now - started);
              if (viewer.connected !== undefined) viewer.afterConnectedMs = Math.round(now - viewer.connected);
            }
            video.requestVideoFrameCallback(tick);
          };
          video.requestVideoFrameCallback(tick);
          return viewer;
        }

        // The picture as pixels, at its own size.
        function pixels(video) {
          const canvas = document.createElement('canvas');
          canvas.width = video.videoWidth;
          canvas.height = video.videoHeight;
          const context = canvas.getContext('2d', { willReadFrequently: true });
          context.drawImage(video, 0, 0);
          return context.getImageData(0, 0, canvas.width, canvas.height).data;
        }

        // Frames, gray (the largest and mean difference between a pixel's channels), and changes
        // (sample pairs whose mean absolute difference in luma is over 2).
        // The inbound audio's statistics: packets, samples played out, level, codec; and the NTP time
        // at which the audio and the video are played out (estimatedPlayoutTimestamp), to compare.
        async function audioStats(pc) {
          const stats = await pc.getStats();
          const seen = {};
          stats.forEach((entry) => {
            if (entry.type !== 'inbound-rtp') return;
            if (entry.kind === 'audio') {
              Object.assign(seen, {
                packetsReceived: entry.packetsReceived, totalSamplesReceived: entry.totalSamplesReceived,
                audioLevel: entry.audioLevel, playout: entry.estimatedPlayoutTimestamp,
                codec: stats.get(entry.codecId) && stats.get(entry.codecId).mimeType,
              });
            } else if (entry.kind === 'video') {
              seen.videoPlayout = entry.estimatedPlayoutTimestamp;
            }
          });
          return seen;
        }

        async function watch(viewer, seconds) {
          const startFrames = viewer.frames;
          const audioBefore = audio ? await audioStats(viewer.pc) : null;
          const seen = { samples: 0, maxSpread: 0, meanSpread: 0, changes: 0, width: 0, height: 0 };
          let previous = null;
          let spreadSum = 0, spreadCount = 0;
          for (let elapsed = 0; elapsed < seconds * 1000; elapsed += 250) {
            await sleep(250);
            const video = viewer.video;
            if (video.videoWidth === 0) continue;
            const data = pixels(video);
            seen.width = video.videoWidth;
            seen.height = video.videoHeight;
            seen.samples++;
            let difference = 0;
            for (let i = 0; i < data.length; i += 4) {
              const r = data[i], g = data[i + 1], b = data[i + 2];
              const spread = Math.max(Math.abs(r - g), Math.abs(g - b), Math.abs(r - b));
              if (spread > seen.maxSpread) seen.maxSpread = spread;
              spreadSum += spread;
              spreadCount++;
              if (previous) difference += Math.abs(g - previous[i + 1]);
            }
            if (previous && difference / (data.length / 4) > 2) seen.changes++;
            previous = data;
          }
          seen.meanSpread = spreadCount ? spreadSum / spreadCount : null;
          const stats = await viewer.pc.getStats();
          stats.forEach((entry) => {
            if (entry.type === 'inbound-rtp' && entry.kind === 'video' && stats.get(entry.codecId)) {
              seen.codec = stats.get(entry.codecId).mimeType;
              seen.sdpFmtpLine = stats.get(entry.codecId).sdpFmtpLine;
              seen.framesDecoded = entry.framesDecoded;
              // What the browser adds to the latency: its jitter buffer and its decoder, per frame.
              seen.jitterBufferMs = 1000 * entry.jitterBufferDelay / Math.max(1, entry.jitterBufferEmittedCount);
              seen.decodeMs = 1000 * entry.totalDecodeTime / Math.max(1, entry.framesDecoded);
            }
            // The kind of this browser's end of the pair in use: 'relay' when a TURN server carries it.
            if (entry.type === 'transport' && entry.selectedCandidatePairId) {
              const pair = stats.get(entry.selectedCandidatePairId);
              const local = pair && stats.get(pair.localCandidateId);
              if (local) seen.localCandidateType = local.candidateType;
            }
          });
          seen.frames = viewer.frames - startFrames;
          if (audio) {
            seen.audioBefore = audioBefore;
            seen.audio = await audioStats(viewer.pc);
            seen.tracks = viewer.tracks;
          }
          if (viewer.analyser) {
            const bins = new Float32Array(viewer.analyser.frequencyBinCount);
            viewer.analyser.getFloatFrequencyData(bins);
            let peak = 1;
            for (let i = 2; i < bins.length; i++) if (bins[i] > bins[peak]) peak = i;
            seen.peakHz = peak * viewer.audioContext.sampleRate / viewer.analyser.fftSize;
            seen.peakDb = Number.isFinite(bins[peak]) ? bins[peak] : null;
            seen.audioContextState = viewer.audioContext.state;
          }
          seen.connection = viewer.pc.connectionState;
          return seen;
        }

        async function main() {
          const report = { viewers: [] };
          const viewers = [];
          for (let i = 0; i < count; i++) viewers.push(await join(i));
          const first = await Promise.all(viewers.map((viewer) => watch(viewer, watchSeconds)));
          viewers.forEach((viewer, i) => report.viewers.push({
            status: viewer.status, location: viewer.location, candidates: viewer.candidates, answer: viewer.answer,
            relayCandidates: viewer.relayCandidates,
            firstFrameMs: viewer.firstFrameMs, afterConnectedMs: viewer.afterConnectedMs, watched: first[i],
          }));
          if (leave === 'delete') {
            report.deletes = [];
            for (let i = 0; i < 2; i++) {
              const response = await fetch(viewers[0].session, { method: 'DELETE', headers: authorization });
              report.deletes.push(response.status);
            }
            viewers[0].pc.close();
          } else if (leave === 'close') {
            viewers[0].pc.close();
          }
          if (afterSeconds > 0) {
            const after = await Promise.all(viewers.slice(leave ? 1 : 0).map((viewer) => watch(viewer, afterSeconds)));
            after.forEach((seen, i) => { report.viewers[i + (leave ? 1 : 0)].after = seen; });
          }
          return report;
        }

        // `embed=URL`: gstpipe's own viewer page in an iframe, followed by the states it posts.
        function embedded(url) {
          return new Promise((resolve) => {
            const states = [];
            addEventListener('message', (event) => {
              if (!event.data || event.data.gstpipe !== 'viewer') return;
              states.push(event.data.state);
              if (event.data.state === 'playing') {
                resolve({ states, width: event.data.width, height: event.data.height, origin: event.origin });
              }
            });
            const frame = document.createElement('iframe');
            frame.src = url;
            document.body.appendChild(frame);
            setTimeout(() => resolve({ states }), 20000);
          });
        }

        (query.get('embed') ? embedded(query.get('embed')).then((embed) => ({ embed })) : main())
          .catch((error) => ({ error: String(error && error.message || error) }))
          .then((report) => fetch('/result/report', { method: 'POST', body: JSON.stringify(report) }));
        </script>
        </body></html>
        """#
}
