import Events
import Fences

/// The report page's style and script, inline (docs/report.md: no network access of any kind). The
/// script is plain ES5 so that old phone browsers run it too; without it the page still shows
/// everything but the details panel.
extension ReportHTML {
    /// The layout, then a colour per event kind (`eventColors`, later in the sheet, so that it wins
    /// over the grey of `.marker circle` and `.chip`).
    static let css: String = [layout, eventColors].joined(separator: "\n")

    /// Each kind's markers and table chips, from `GeofenceEvent.Kind.reportColor`.
    static let eventColors: String = GeofenceEvent.Kind.allCases.map { kind in
        let color = kind.reportColor
        return ".\(kind.reportClass) circle,.chip.\(kind.reportClass){fill:\(color);background:\(color)}"
    }.joined(separator: "\n")

    static let layout: String = """
        :root{--fg:#1d2329;--muted:#5b6670;--line:#d5dbe0;--bg:#fff;--panel:#f4f6f8}
        *{box-sizing:border-box}
        body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
        header,main{max-width:1100px;margin:0 auto;padding:0 12px}
        header{padding-top:12px}
        h1{font-size:1.5rem;margin:.2em 0}
        h2{font-size:1.15rem;margin:1.2em 0 .4em;border-bottom:1px solid var(--line)}
        .sub{color:var(--muted);margin:0;word-break:break-all}
        svg{width:100%;height:auto;display:block;background:var(--panel);border-radius:6px}
        #map .bg{fill:#eef2ee}
        .fence{fill:rgba(60,90,200,.15);stroke:#3c5ac8;stroke-width:1.5}
        .fence-label{font-size:13px;fill:#2b3f8c;text-anchor:middle}
        .track polyline{fill:none;stroke-width:3;stroke-linejoin:round;stroke-linecap:round}
        .acc0{stroke:#1a9850;fill:#1a9850}.acc1{stroke:#b8a000;fill:#b8a000}
        .acc2{stroke:#f46d43;fill:#f46d43}.acc3{stroke:#d73027;fill:#d73027}
        .ends rect{fill:#fff;stroke:#1d2329;stroke-width:2}.ends rect.end{fill:#1d2329}
        .marker{cursor:pointer;outline:none}
        .marker circle{stroke:#fff;stroke-width:2;fill:#555}
        .marker:hover circle,.marker:focus circle,.marker.on circle{stroke:#000;stroke-width:3;r:10}
        .chip{display:inline-block;width:.7em;height:.7em;border-radius:50%;margin-right:.35em;background:#555}
        .scale path{fill:none;stroke:#1d2329;stroke-width:2}.scale text,.axis{font-size:12px;fill:var(--muted)}
        .axis.end{text-anchor:end}
        .series{fill:none;stroke:#37474f;stroke-width:1.5}.base{stroke:var(--line)}
        .tick{stroke:#ef6c00;stroke-opacity:.45;stroke-width:1.5}.tick.on{stroke-opacity:1;stroke-width:3}
        .legend{font-size:.85rem;color:var(--muted);margin:.4em 0}
        .k{display:inline-block;width:1.4em;height:.35em;vertical-align:middle;margin:0 .3em 0 .6em}
        .k.acc0{background:#1a9850}.k.acc1{background:#b8a000}.k.acc2{background:#f46d43}.k.acc3{background:#d73027}
        #details{background:var(--panel);border-radius:6px;padding:.6em .8em;min-height:3em;font-size:.9rem;white-space:pre-wrap;word-break:break-word}
        .scroll{overflow-x:auto}
        table{border-collapse:collapse;width:100%;font-size:.9rem}
        th,td{text-align:left;padding:.35em .5em;border-bottom:1px solid var(--line);vertical-align:top}
        tr[data-row-for]{cursor:pointer}tr.on{background:#fff3cd}
        dl.stats{display:grid;grid-template-columns:max-content 1fr;gap:.2em 1em}
        dl.stats dt{color:var(--muted)}dl.stats dd{margin:0}
        @media (max-width:600px){body{font-size:15px}td:nth-child(4){min-width:14em}#timeline{min-width:640px}.marker circle{r:9}}
        """

    static let script = """
        (function () {
          var data = JSON.parse(document.getElementById('report-data').textContent);
          var panel = document.getElementById('details');
          function each(selector, body) { Array.prototype.forEach.call(document.querySelectorAll(selector), body); }
          function show(id) {
            var event = data[id];
            if (!event) { return; }
            each('.on', function (element) { element.classList.remove('on'); });
            each('[data-event-id="' + id + '"],[data-row-for="' + id + '"],[data-tick-for="' + id + '"]', function (element) {
              element.classList.add('on');
            });
            var pretty = event.json;
            try { pretty = JSON.stringify(JSON.parse(event.json), null, 1); } catch (ignored) {}
            panel.textContent = event.type + (event.fence ? ' · ' + event.fence : '') + ' · ' + event.time + '\\n' + pretty;
          }
          each('[data-event-id]', function (marker) {
            var id = marker.getAttribute('data-event-id');
            marker.addEventListener('mouseenter', function () { show(id); });
            marker.addEventListener('click', function () { show(id); });
            marker.addEventListener('focus', function () { show(id); });
          });
          each('tr[data-row-for]', function (row) {
            var id = row.getAttribute('data-row-for');
            row.addEventListener('click', function () {
              show(id);
              document.getElementById('map').scrollIntoView({ behavior: 'smooth', block: 'center' });
            });
          });
          each('[data-tick-for]', function (tick) {
            tick.addEventListener('click', function () { show(tick.getAttribute('data-tick-for')); });
          });
          // Tests (and curious people) can see that the script ran to its end.
          document.documentElement.setAttribute('data-ready', 'yes');
        })();
        """
}
