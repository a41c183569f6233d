import GStreamer

/// The GStreamerError `body` throws; nil when it throws none (or another error).
func thrown(_ body: () throws -> Void) -> GStreamerError? {
    do {
        try body()
        return nil
    } catch let error as GStreamerError {
        return error
    } catch {
        return nil
    }
}
