/// The dashboard's inline stylesheet and its one script (table sorting), kept out of the page builder so each
/// reads on its own. Neither names a URL: no fonts, images or scripts are fetched, the page works offline.
enum DashboardStyle {
    /// Screen layout (1280 px desktop down to 390 px phones) and print rules.
    /// Must not contain `<` or `&`: the page is also parsed as XML by the tests.
    static let css = """
        :root { --ink: #1F2933; --muted: #52606D; --line: #D9DEE3; --panel: #FFFFFF; --page: #F4F6F8;
                --accent: #0072B2; --nodata: #7B8794; }
        * { box-sizing: border-box; }
        html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
        body { margin: 0; background: var(--page); color: var(--ink);
               font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
        .wrap { max-width: 1240px; margin: 0 auto; padding: 0 20px; }
        header.page { background: var(--ink); color: #FFFFFF; padding: 18px 0 16px; }
        header.page h1 { margin: 0; font-size: 26px; font-weight: 650; letter-spacing: -0.01em; }
        header.page .subtitle { margin: 4px 0 0; color: #CBD2D9; font-size: 14px; }
        header.page .subtitle span + span::before { content: "\\00B7"; margin: 0 8px; color: #9AA5B1; }
        main.wrap { margin-top: 20px; margin-bottom: 32px; }
        h2 { font-size: 20px; margin: 0 0 4px; }
        h3 { font-size: 15px; margin: 0 0 8px; }
        .hint { color: var(--muted); font-size: 13px; margin: 0 0 10px; }
        .panel { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 16px; }
        .table-scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; }
        table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
        th, td { padding: 7px 9px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
        th:first-child, td:first-child { text-align: left; }
        thead th { font-size: 12px; text-transform: uppercase; letter-spacing: 0.03em; color: var(--muted);
                   vertical-align: bottom; border-bottom: 2px solid var(--ink); white-space: normal; }
        #portfolio-table tbody th { white-space: normal; min-width: 11em; max-width: 18em; }
        tbody tr:hover { background: #EEF4FA; }
        tfoot th, tfoot td { font-weight: 700; border-top: 2px solid var(--ink); border-bottom: 0; }
        #portfolio-table tbody th, #portfolio-table tfoot th { position: sticky; left: 0; background: var(--panel);
                   font-weight: 600; z-index: 1; }
        #portfolio-table thead th:first-child { position: sticky; left: 0; background: var(--panel); z-index: 2; }
        #portfolio-table tbody tr:hover th { background: #EEF4FA; }
        th .pms { display: block; font-size: 11px; font-weight: 400; color: var(--muted); }
        th button { font: inherit; color: inherit; text-transform: inherit; letter-spacing: inherit; background: none;
                    border: 0; padding: 2px 0; cursor: pointer; text-align: inherit; }
        th button::after { content: "\\2195"; color: #9AA5B1; margin-left: 4px; font-size: 11px; }
        th[aria-sort="ascending"] button::after { content: "\\25B2"; color: var(--accent); }
        th[aria-sort="descending"] button::after { content: "\\25BC"; color: var(--accent); }
        th button:focus-visible, a:focus-visible { outline: 3px solid #E69F00; outline-offset: 2px; }
        a { color: var(--accent); }
        .nodata { color: var(--nodata); font-style: italic; }
        td.nodata { font-size: 13px; }
        section.property { margin-top: 28px; scroll-margin-top: 12px; }
        section.property > header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; margin-bottom: 10px; }
        section.property > header .pms { color: var(--muted); font-size: 13px; }
        section.property > p.ledger { margin: 4px 0 10px; font-size: 13px; color: var(--muted); }
        dl.kpis { display: flex; flex-wrap: wrap; gap: 8px; margin: 0 0 12px; }
        dl.kpis div { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px;
                      min-width: 104px; }
        dl.kpis dt { font-size: 11px; text-transform: uppercase; letter-spacing: 0.03em; color: var(--muted); }
        dl.kpis dd { margin: 0; font-size: 18px; font-weight: 650; font-variant-numeric: tabular-nums; }
        .charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px; margin-bottom: 12px; }
        figure { margin: 0; }
        figure.panel { display: flex; flex-direction: column; }
        figcaption { font-weight: 650; margin-bottom: 6px; }
        figcaption .range { font-weight: 400; color: var(--muted); font-size: 13px; }
        .note { color: var(--muted); font-size: 13px; margin: 6px 0 0; }
        .checks .banner { color: #9b1c1c; font-weight: 600; font-size: 13px; margin: 6px 0 0; }
        .check-failed th, .check-failed td { color: #9b1c1c; }
        .check-skipped th, .check-skipped td { color: var(--muted); }
        svg.chart { display: block; width: 100%; height: auto; overflow: visible; }
        svg.chart text { font-size: 12px; fill: var(--ink); }
        svg.chart text.axis { fill: var(--muted); font-size: 11px; }
        svg.chart text.value { font-weight: 650; }
        svg.chart text.leased { fill: #8A5A00; font-weight: 650; }
        svg.chart text.occupancy { fill: #005A8C; font-weight: 650; }
        svg.chart line.grid { stroke: #E4E7EB; stroke-width: 1; }
        svg.chart line.tick, svg.chart line.baseline { stroke: #9AA5B1; stroke-width: 1; }
        svg.chart line.divider { stroke: #CBD2D9; stroke-width: 1; stroke-dasharray: 3 3; }
        div.nodata { flex: 1; min-height: 150px; display: flex; align-items: center; justify-content: center;
                     border: 1px dashed var(--line); border-radius: 6px; background: #FAFBFC; }
        .pricing table { font-size: 14px; }
        .nodata-property { color: var(--muted); padding: 12px 16px; }
        .back { margin: 8px 0 0; font-size: 13px; }
        footer.page { color: var(--muted); font-size: 12px; padding-bottom: 32px; }
        footer.page p { margin: 4px 0; }
        .narrow-only { display: none; }
        body > #serve-bar { margin: 0; }
        .freshness { margin: 0 0 12px; color: var(--muted); font-size: 13px; }
        form.filters { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: flex-end; margin: 8px 0 12px; }
        form.filters label { display: flex; flex-direction: column; gap: 2px; font-size: 12px; color: var(--muted);
                             max-width: 100%; }
        form.filters input, form.filters select, form.filters button { font: inherit; font-size: 14px; padding: 5px 8px;
                             border: 1px solid #BCCCDC; border-radius: 6px; background: #FFFFFF; color: var(--ink);
                             max-width: 100%; }
        form.filters input[type="search"] { width: 16em; }
        form.filters button { background: var(--accent); border-color: var(--accent); color: #FFFFFF; cursor: pointer; }
        form.filters a.clear { font-size: 14px; padding: 6px 0; }
        th a.sort { color: inherit; text-decoration: none; }
        th a.sort::after { content: "\\2195"; color: #9AA5B1; margin-left: 4px; font-size: 11px; }
        th[aria-sort="ascending"] a.sort::after { content: "\\25B2"; color: var(--accent); }
        th[aria-sort="descending"] a.sort::after { content: "\\25BC"; color: var(--accent); }
        nav.pager { display: flex; flex-wrap: wrap; gap: 6px 16px; align-items: center; margin-top: 12px; font-size: 14px; }
        nav.pager span { color: var(--muted); }
        header.page .crumbs { margin: 0 0 2px; font-size: 13px; }
        header.page .crumbs a { color: #CBD2D9; }
        .checks td.detail { white-space: normal; min-width: 16em; text-align: left; }
        .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
                           white-space: nowrap; }
        @media (max-width: 640px) {
            .wrap { padding: 0 12px; }
            header.page h1 { font-size: 22px; }
            header.page .subtitle span { display: block; }
            header.page .subtitle span + span::before { content: none; }
            .panel { padding: 12px; }
            th, td { padding: 6px 8px; }
            .charts { grid-template-columns: 1fr; }
            dl.kpis div { min-width: 0; flex: 1 1 30%; }
            #portfolio-table tbody th { min-width: 8em; }
            .narrow-only { display: inline; }
        }
        @media print {
            @page { margin: 12mm; }
            body { background: #FFFFFF; font-size: 10pt; }
            * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
            header.page { background: none; color: var(--ink); border-bottom: 2px solid var(--ink); }
            header.page .subtitle { color: var(--muted); }
            .wrap { max-width: none; padding: 0; }
            .panel, dl.kpis div { border-color: #BCCCDC; }
            .table-scroll { overflow: visible; }
            th button::after, th a.sort::after, .hint, .back, form.filters, nav.pager { display: none; }
            th button { padding: 0; }
            a { color: inherit; text-decoration: none; }
            tbody tr:hover, #portfolio-table tbody tr:hover th { background: none; }
            #portfolio-table th { position: static; }
            section.property { break-before: page; }
            figure, .pricing, tr { break-inside: avoid; }
            /* An A4 or Letter page is about 700 CSS px wide: tables shrink to fit it, charts go two abreast. */
            table, .pricing table, td.nodata { font-size: 8pt; }
            th, td { padding: 3px 4px; }
            thead th { font-size: 7pt; letter-spacing: 0; }
            .charts { grid-template-columns: repeat(2, 1fr); }
        }
        """

    /// The served portfolio page's form, made quicker: a filter's select applies itself when changed, and empty
    /// fields are left out of the URL. Without it the form works as is (a Show button, empty fields ignored).
    static let filterScript = """
        /*<![CDATA[*/
        (function () {
          "use strict";
          var form = document.getElementById("portfolio-filter");
          if (!form) { return; }
          function enable() {
            Array.prototype.forEach.call(form.elements, function (field) { field.disabled = false; });
          }
          form.addEventListener("submit", function () {
            Array.prototype.forEach.call(form.elements, function (field) {
              if (field.name && field.value === "") { field.disabled = true; }
            });
          });
          window.addEventListener("pageshow", enable);
          Array.prototype.forEach.call(form.querySelectorAll("select"), function (select) {
            select.addEventListener("change", function () {
              if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
            });
          });
        })();
        /*]]>*/
        """

    /// Sorts the portfolio table when a column heading's button is pressed (click, Enter or Space): numbers by
    /// their `data-value`, "no data" always last, ties in registry order; `aria-sort` carries the direction.
    /// Wrapped in a commented CDATA section so the page stays well-formed XML (the script compares with `<`).
    static let script = """
        /*<![CDATA[*/
        (function () {
          "use strict";
          var table = document.getElementById("portfolio-table");
          if (!table || !table.tHead || table.tBodies.length === 0) { return; }
          var body = table.tBodies[0];
          var status = document.getElementById("sort-status");
          var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
          Array.prototype.forEach.call(body.rows, function (row, index) { row.setAttribute("data-index", String(index)); });
          function key(row, column, numeric) {
            var value = row.cells[column].getAttribute("data-value");
            if (value === null || value === "") { return null; }
            return numeric ? parseFloat(value) : value.toLowerCase();
          }
          function sortBy(column, direction) {
            var numeric = headers[column].getAttribute("data-type") === "number";
            var sign = direction === "ascending" ? 1 : -1;
            var rows = Array.prototype.slice.call(body.rows);
            rows.sort(function (a, b) {
              var x = key(a, column, numeric), y = key(b, column, numeric);
              if (x === null || y === null) {
                if (x !== y) { return x === null ? 1 : -1; }
              } else if (x !== y) {
                if (numeric) { return sign * (x - y); }
                return sign * (x < y ? -1 : 1);
              }
              return Number(a.getAttribute("data-index")) - Number(b.getAttribute("data-index"));
            });
            rows.forEach(function (row) { body.appendChild(row); });
            headers.forEach(function (th, index) {
              if (index === column) { th.setAttribute("aria-sort", direction); } else { th.removeAttribute("aria-sort"); }
            });
            if (status) { status.textContent = "Sorted by " + headers[column].textContent + ", " + direction + "."; }
          }
          headers.forEach(function (th, column) {
            var button = th.querySelector("button");
            if (!button) { return; }
            button.addEventListener("click", function () {
              var current = th.getAttribute("aria-sort");
              var next = current === "ascending" ? "descending"
                : current === "descending" ? "ascending"
                : (th.getAttribute("data-first") || "ascending");
              sortBy(column, next);
            });
          });
        })();
        /*]]>*/
        """
}
