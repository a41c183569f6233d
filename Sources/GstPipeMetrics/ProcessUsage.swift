import Foundation

/// What the process uses, read from Linux's /proc as Prometheus' own process collector reads it, under
/// the same names (`process_resident_memory_bytes`, `process_cpu_seconds_total`, ...), so dashboards
/// made for any Prometheus client work unchanged. Nil where /proc is not there (macOS).
struct ProcessUsage {
    var residentBytes: Double
    var virtualBytes: Double
    var cpuSeconds: Double
    var startTime: Double
    var openFiles: Double

    static func now() -> ProcessUsage? {
        // Fields after the command's closing parenthesis, which may itself hold spaces and parentheses.
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // From field 3 (state) on: utime is field 14, stime 15, starttime 22, vsize 23, rss 24 (pages).
        func field(_ number: Int) -> Double { fields.count > number - 3 ? Double(fields[number - 3]) ?? 0 : 0 }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        let openFiles = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return ProcessUsage(
            residentBytes: field(24) * pageSize, virtualBytes: field(23),
            cpuSeconds: (field(14) + field(15)) / ticks, startTime: bootTime() + field(22) / ticks,
            openFiles: Double(openFiles))
    }

    /// Seconds since 1970 at which the machine booted (`btime` in /proc/stat).
    private static func bootTime() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return 0 }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}
