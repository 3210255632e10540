import ArgumentParser
import Delivery
import Foundation
import Jobs
import LiveLoop
import NMEA
import Platform
import Presentation
import Tools
import Views

struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "The field report of a drive: one self-contained HTML page, GeoJSON and GPX.",
        discussion: """
            From captures (through the same engine and settings as 'replay') or from the track and \
            event log of a state file. The page needs no network: map in a local projection with \
            a scale bar, the fences, the track coloured by accuracy with gaps, a marker per event, \
            a timeline, the event table, a summary per fence and the receiver's statistics \
            (docs/report.md).

            Examples:
              gpsfence report captures/bridge/capture.nmea \\
                --fences captures/bridge/fences.geojson --output bridge.html
              gpsfence report --state ~/.local/state/gpsfence/state.sqlite --since 2h
            """
    )

    @Argument(help: ArgumentHelp("NMEA captures ('-' for standard input).", valueName: "capture"))
    var captures: [String] = []

    @Option(
        help: ArgumentHelp("Report from this state file's track and event log instead of captures.", valueName: "path"))
    var state: String?

    @Option(
        help: ArgumentHelp(
            "With --state: from this long ago (90s, 30m, 2h, 7d) or this time (2026-02-03T10:00:00Z).",
            valueName: "time"))
    var since: String?

    @Option(
        help: ArgumentHelp(
            "Fence file: GeoJSON, or CSV 'id,name,lat,lon,radius_m' (with --state: default the one the state file records).",
            valueName: "file"))
    var fences: String?

    @Option(help: ArgumentHelp("The HTML report.", valueName: "file.html"))
    var output = "report.html"

    @Option(
        help: ArgumentHelp(
            "Also write the track, events and fences as one GeoJSON FeatureCollection.", valueName: "file"))
    var geojson: String?

    @Option(help: ArgumentHelp("Also write the track and the events (as waypoints) as GPX.", valueName: "file"))
    var gpx: String?

    @OptionGroup var semantics: SemanticsOptions
    @OptionGroup var format: HumanFormatOptions

    func validate() throws {
        if captures.isEmpty == (state == nil) { throw ValidationError(.missing(.capturesOrState)) }
        if since != nil, state == nil {
            throw ValidationError(.companionMissing(.option("--since", goesWith: "--state")))
        }
        if fences == nil, state == nil { throw ValidationError(.companionMissing(.capturesNeedFences)) }
        _ = try sinceTime()
    }

    func sinceTime() throws -> Int64? {
        guard let since else { return nil }
        let now = currentUTCTime().millisecondsSinceEpoch
        guard let time = ReportJob.since(since, now: now) else {
            throw ValidationError(.malformed(option: "--since", value: since, wanted: .durationOrTime))
        }
        return time
    }

    func run() throws {
        let input: ReportJob.Input =
            if let state {
                .state(path: state, since: try sinceTime())
            } else {
                .captures(captures.map(CaptureInput.init(path:)))
            }
        var job = ReportJob(input: input, fencesPath: fences)
        job.settings = semantics.settings
        job.settings.localZone = format.zone.calendar.zone
        var report = try job.gather()
        report.format = format.format
        try write(ReportHTML.render(report), to: output)
        if let geojson { try write(ReportExports.geoJSON(report), to: geojson) }
        if let gpx { try write(ReportExports.gpx(report), to: gpx) }
        OutputWriter.standardError.write(
            line:
                "gpsfence: report of \(report.points.count) fixes and \(report.events.count) events written to \(output)"
        )
    }

    func write(_ text: String, to path: String) throws {
        do {
            try writeWholeFile(path, Array(text.utf8))
        } catch {
            throw RuntimeFailure.unwritable(path: path, cause: .call(error))
        }
    }
}
