import GStreamer
import MediaIO
import Testing

@Suite("A plane's rows", .bounded)
struct PlaneRowTests {
    @Test("row(_:) gives each row's pixels without its padding, from a GStreamer buffer", .timeLimit(.minutes(1)))
    func rowsSkipPadding() async throws {
        // 322 GRAY8 pixels a row: GStreamer pads each row to 324 bytes.
        let pipeline = try Pipeline(
            launch: "videotestsrc num-buffers=1 pattern=gradient ! video/x-raw,format=GRAY8,width=322,height=6 "
                + "! appsink name=out")
        defer { pipeline.stop() }
        let frames = try pipeline.frames(fromAppSink: "out")
        try pipeline.play()
        var checked = 0
        for try await frame in frames {
            try frame.withPlanes { planes in
                let luma = planes[0]
                #expect(luma.bytesPerRow == 324 && luma.pixelBytesPerRow == 322 && luma.rows == 6)
                for y in 0..<luma.rows {
                    let row = luma.row(y)
                    let expected = Array(luma.bytes[y * luma.bytesPerRow..<y * luma.bytesPerRow + 322])
                    #expect(row.count == 322 && Array(row) == expected, "row \(y)")
                }
                // The gradient's rows differ, so a row read from the wrong offset would not match.
                #expect(Array(luma.row(0)) != Array(luma.row(5)))
                var sum = 0
                for y in 0..<luma.rows { for value in luma.row(y) { sum &+= Int(value) } }
                #expect(sum == (0..<6).reduce(0) { total, y in total + luma.row(y).reduce(0) { $0 + Int($1) } })
            }
            checked += 1
        }
        #expect(checked == 1)
    }

    @Test("A writable row writes that row of that plane only")
    func mutableRows() throws {
        let frame = try VideoFrame(format: .i420, width: 6, height: 4, timestamp: 0)
        try frame.withMutablePlanes { planes in
            // Chroma planes are 3x2: write the second row of U.
            let row = planes[1].row(1)
            #expect(row.count == 3)
            for x in row.indices { row[x] = UInt8(10 + x) }
            // The read-only view of a writable plane is the same plane: what was just written reads back.
            let view = planes[1].readOnly
            #expect(view.bytes.baseAddress == UnsafeRawPointer(planes[1].bytes.baseAddress))
            #expect((view.bytesPerRow, view.pixelBytesPerRow, view.rows) == (3, 3, 2))
            #expect(Array(view.row(1)) == [10, 11, 12] && Array(view.row(0)) == [0, 0, 0])
        }
        try frame.withPlanes { planes in
            #expect(Array(planes[1].bytes) == [0, 0, 0, 10, 11, 12])
            #expect(planes[0].bytes.allSatisfy { $0 == 0 } && planes[2].bytes.allSatisfy { $0 == 0 })
        }
    }
}
