import GstPipeParsing

/// The stream outputs gstpipe knows, one `StreamOutput` conformer a scheme. Adding a scheme is adding
/// its conformer (a file in Streams/Schemes/) and its line here: the file job, the run and `--help`
/// ask this list.
enum StreamOutputs {
    /// Every scheme, in the order `--help` names them.
    static let all: [any StreamOutput.Type] = [
        RTSPOutput.self,
        SRTOutput.self,
        UDPOutput.self,
        RTPOutput.self,
        HLSOutput.self,
        WebRTCOutput.self,
        WHIPOutput.self,
        RTMPOutput.self
    ]

    /// The output `token` names, nil for anything else (a file name, an element, a URI of another
    /// scheme); throws for a stream address that cannot be used as written.
    static func output(named token: String) throws(FileJob.Failure) -> (any StreamOutput)? {
        guard let type = all.first(where: { $0.scheme.names(token) }) else { return nil }
        do {
            return try type.init(StreamAddress.parse(token, as: type.scheme))
        } catch {
            // A password or bearer token (`?token=`) never shows, in any scheme's words.
            throw error.redacted
        }
    }

    /// "rtsp://HOST:PORT/PATH (served to any number of viewers), … or DIR/NAME.m3u8 (HLS)", for `--help`.
    static var help: String { all.map { $0.scheme.help }.listed("or") }
}
