/// Registers MediaIO sources, sinks and filters as GStreamer element factories, so that launch
/// descriptions (`noise ! gray ! autovideosink`) and applications can use them like any element.
///
/// One function a kind: the video ones in `Video/MediaIOElements+Video.swift`, the audio ones in
/// `Audio/MediaIOElements+Audio.swift`.
public enum MediaIOElements {}
