/// The script both pages share: `pageToken()`, the token of the page's own URL; `trickle(pc)`, which
/// sends the browser's candidates after its offer by PATCH (RFC 9725); and their ICE servers when the
/// server has a token: then the page holds no TURN credentials (anyone may load
/// it), and asks the endpoint for its STUN and TURN servers with an `OPTIONS` that bears the token;
/// `SignallingGatekeeper` answers a request it admits with them as `Link` headers
/// (`rel="ice-server"`, as `SessionCreated` writes them, after RFC 9725).
/// Put in place of `/*ICE-SERVERS*/` in a page that has `token` and `authorization`.
enum ICEServerScript {
    /// Where a page's template takes the script.
    static let placeholder = "/*ICE-SERVERS*/"

    /// `template` with `configuration` (an `RTCConfiguration` as JSON), this script and the data
    /// channel's (`DataChannelScript`) in place.
    static func page(_ template: String, configuration: String) -> String {
        template.replacingOccurrences(of: "/*CONFIGURATION*/{}", with: configuration)
            .replacingOccurrences(of: placeholder, with: source)
            .replacingOccurrences(of: DataChannelScript.placeholder, with: DataChannelScript.source)
    }

    static let source = #"""
        // The token of this page's own URL (#token=, which reaches no server's log, or ?token=),
        // percent-decoded as gstpipe decodes its own ?token=, a + kept as a + (not a form's space).
        function pageToken() {
          for (const part of [location.hash.slice(1), location.search.slice(1)]) {
            for (const pair of part.split('&')) {
              if (!pair.startsWith('token=') || pair.length === 6) continue;
              try { return decodeURIComponent(pair.slice(6)); } catch (error) { return pair.slice(6); }
            }
          }
          return null;
        }

        // Without a token the configuration above is whole. With one, its TURN servers (and their
        // passwords) come from the endpoint, to a request bearing the token.
        async function withServerICE(configuration, url) {
          if (!token) return configuration;
          const response = await fetch(url, { method: 'OPTIONS', headers: authorization });
          const servers = [];
          const links = response.headers.get('Link') || '';
          for (const link of links.matchAll(/<([^>]*)>;\s*rel="ice-server"((?:;\s*[a-z-]+="(?:[^"\\]|\\.)*")*)/g)) {
            const server = { urls: link[1] };
            for (const [, name, value] of link[2].matchAll(/;\s*([a-z-]+)="((?:[^"\\]|\\.)*)"/g)) {
              const unquoted = value.replace(/\\(.)/g, '$1');
              if (name === 'username') server.username = unquoted;
              if (name === 'credential') server.credential = unquoted;
            }
            servers.push(server);
          }
          return servers.length ? Object.assign({}, configuration, { iceServers: servers }) : configuration;
        }

        // Trickle ICE (RFC 9725): the offer goes at once, and the candidates the browser gathers follow
        // by PATCH to the session, as application/trickle-ice-sdpfrag, once its URL is known (call the
        // function returned with it). Call before setLocalDescription.
        function trickle(pc) {
          const pending = [];
          let resource = null, sending = Promise.resolve();
          const flush = () => {
            if (!resource || !pending.length) return;
            const sdp = pc.localDescription.sdp;
            const value = (name) => (sdp.match(new RegExp('a=' + name + ':(.*)')) || [])[1].trim();
            const byMid = new Map();
            for (const candidate of pending.splice(0)) {
              if (!byMid.has(candidate.sdpMid)) byMid.set(candidate.sdpMid, []);
              byMid.get(candidate.sdpMid).push(candidate.candidate);
            }
            let body = `a=ice-ufrag:${value('ice-ufrag')}\r\na=ice-pwd:${value('ice-pwd')}\r\n`;
            for (const [mid, lines] of byMid) {
              body += `m=audio 9 RTP/AVP 0\r\na=mid:${mid}\r\n` + lines.map((line) => `a=${line}\r\n`).join('');
            }
            const headers = { 'Content-Type': 'application/trickle-ice-sdpfrag', ...authorization };
            // One at a time, in order; a lost one costs nothing but that candidate.
            sending = sending.then(() => fetch(resource, { method: 'PATCH', headers, body })).catch(() => {});
          };
          pc.addEventListener('icecandidate', (event) => {
            if (event.candidate && event.candidate.candidate) pending.push(event.candidate);
            flush();
          });
          return (url) => { resource = url; flush(); };
        }
        """#
}
