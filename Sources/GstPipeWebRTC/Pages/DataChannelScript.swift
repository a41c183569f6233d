/// The script both pages share for their data channel to gstpipe: `openChannel(pc, role)` opens it on
/// the peer connection before the offer (so the offer has an `m=application` section, which webrtcbin
/// answers), and `window.gstpipe` is the page's hook to it, for whatever a user adds to the page (an
/// overlay, a remote control, a chat):
///
/// - `gstpipe.send(message)` sends a string, an `ArrayBuffer`, a typed array or a `Blob` (false, with
///   nothing sent, while the channel is not open);
/// - `gstpipe.onmessage = (data) => ...` gets each message Swift sends: a string, or an `ArrayBuffer`;
/// - `gstpipe.onopen = () => ...` is called when the channel opens; `gstpipe.open` says whether it is.
///
/// A page that embeds the served page (an iframe) reaches the channel by `postMessage`: it gets
/// `{gstpipe: 'channel', from: ROLE, state: 'open'}` once open and `{gstpipe: 'message', from: ROLE, data}`
/// for each message (ROLE is `viewer` or `publisher`; apart from the page's `{gstpipe: ROLE, state}`,
/// which always has a state), and sends with `frame.contentWindow.postMessage({gstpipe: 'send', data},
/// '*')`. Put in place of `/*DATA-CHANNEL*/`.
enum DataChannelScript {
    /// Where a page's template takes the script.
    static let placeholder = "/*DATA-CHANNEL*/"

    static let source = #"""
        // The data channel to gstpipe (BrowserViewers.messages and send, BrowserPublisher's alike).
        let channel = null;
        window.gstpipe = {
          onmessage: null,
          onopen: null,
          get open() { return channel !== null && channel.readyState === 'open'; },
          send(message) {
            if (!this.open) return false;
            channel.send(message);
            return true;
          },
        };

        // Opened before the offer, so that the offer has a section for it.
        function openChannel(pc, role) {
          channel = pc.createDataChannel('gstpipe');
          channel.binaryType = 'arraybuffer';
          const framed = parent !== window;
          channel.onopen = () => {
            if (gstpipe.onopen) gstpipe.onopen();
            if (framed) parent.postMessage({ gstpipe: 'channel', from: role, state: 'open' }, '*');
          };
          channel.onmessage = (event) => {
            if (gstpipe.onmessage) gstpipe.onmessage(event.data);
            if (framed) parent.postMessage({ gstpipe: 'message', from: role, data: event.data }, '*');
          };
          // The page around this one sends through it.
          addEventListener('message', (event) => {
            if (framed && event.source === parent && event.data && event.data.gstpipe === 'send') {
              gstpipe.send(event.data.data);
            }
          });
        }
        """#
}
