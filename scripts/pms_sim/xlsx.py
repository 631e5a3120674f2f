"""Minimal .xlsx writer (stdlib zipfile): shared strings, numbers, merged cells, column widths.

Used only when scripts/lib/xlsx_writer.py / onesite_reports.py are not available."""

import io
import zipfile
from xml.sax.saxutils import escape


def col_name(i):
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s


def _esc(s):
    # XML 1.0 forbids most control characters; keep tab/newline
    s = "".join(ch for ch in s if ch >= " " or ch in "\t\n\r")
    return escape(s)


class Sheet:
    def __init__(self, name):
        self.name = name[:31]
        self.rows = []
        self.merges = []
        self.widths = {}

    def append(self, row):
        self.rows.append(list(row))
        return len(self.rows)  # 1-based row number

    def blank(self):
        self.rows.append([])

    def merge(self, r1, c1, r2, c2):
        self.merges.append("%s%d:%s%d" % (col_name(c1), r1, col_name(c2), r2))


class Workbook:
    def __init__(self):
        self.sheets = []

    def add_sheet(self, name):
        s = Sheet(name)
        self.sheets.append(s)
        return s

    def to_bytes(self):
        sst, sst_index = [], {}

        def si(v):
            k = sst_index.get(v)
            if k is None:
                k = sst_index[v] = len(sst)
                sst.append(v)
            return k

        sheet_xml = []
        for sh in self.sheets:
            out = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                   'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">']
            ncols = max((len(r) for r in sh.rows), default=1)
            out.append('<dimension ref="A1:%s%d"/>' % (col_name(max(ncols, 1) - 1), max(len(sh.rows), 1)))
            if sh.widths:
                out.append("<cols>")
                for c in sorted(sh.widths):
                    out.append('<col min="%d" max="%d" width="%s" customWidth="1"/>' % (c + 1, c + 1, sh.widths[c]))
                out.append("</cols>")
            out.append("<sheetData>")
            for ri, row in enumerate(sh.rows, 1):
                cells = []
                for ci, v in enumerate(row):
                    if v is None or v == "":
                        continue
                    ref = "%s%d" % (col_name(ci), ri)
                    if isinstance(v, bool):
                        cells.append('<c r="%s" t="b"><v>%d</v></c>' % (ref, 1 if v else 0))
                    elif isinstance(v, int):
                        cells.append('<c r="%s"><v>%d</v></c>' % (ref, v))
                    elif isinstance(v, float):
                        cells.append('<c r="%s"><v>%s</v></c>' % (ref, repr(round(v, 6))))
                    else:
                        cells.append('<c r="%s" t="s"><v>%d</v></c>' % (ref, si(str(v))))
                if cells:
                    out.append('<row r="%d">%s</row>' % (ri, "".join(cells)))
            out.append("</sheetData>")
            if sh.merges:
                out.append('<mergeCells count="%d">%s</mergeCells>' % (
                    len(sh.merges), "".join('<mergeCell ref="%s"/>' % m for m in sh.merges)))
            out.append("</worksheet>")
            sheet_xml.append("".join(out))

        sst_xml = ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">'
                   % (len(sst), len(sst))]
        for s in sst:
            sp = ' xml:space="preserve"' if (s != s.strip() or "\n" in s) else ""
            sst_xml.append("<si><t%s>%s</t></si>" % (sp, _esc(s)))
        sst_xml.append("</sst>")

        n = len(self.sheets)
        ct = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
              '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
              '<Default Extension="xml" ContentType="application/xml"/>'
              '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
              + "".join('<Override PartName="/xl/worksheets/sheet%d.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' % (i + 1) for i in range(n))
              + '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
              '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
              '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>'
              '</Types>')
        rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
                '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>'
                '</Relationships>')
        app = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
               '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
               '<Application>pms_sim (OneSite-shaped)</Application></Properties>')
        wb = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
              'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>'
              + "".join('<sheet name="%s" sheetId="%d" r:id="rId%d"/>' % (_esc(s.name), i + 1, i + 1)
                        for i, s in enumerate(self.sheets))
              + "</sheets></workbook>")
        wb_rels = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   + "".join('<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet%d.xml"/>' % (i + 1, i + 1) for i in range(n))
                   + '<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>' % (n + 1)
                   + '<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>' % (n + 2)
                   + "</Relationships>")
        styles = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                  '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                  '<fonts count="1"><font><sz val="10"/><name val="Arial"/></font></fonts>'
                  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
                  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
                  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
                  '<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>'
                  '</styleSheet>')
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("[Content_Types].xml", ct)
            z.writestr("_rels/.rels", rels)
            z.writestr("docProps/app.xml", app)
            z.writestr("xl/workbook.xml", wb)
            z.writestr("xl/_rels/workbook.xml.rels", wb_rels)
            z.writestr("xl/styles.xml", styles)
            z.writestr("xl/sharedStrings.xml", "".join(sst_xml))
            for i, x in enumerate(sheet_xml):
                z.writestr("xl/worksheets/sheet%d.xml" % (i + 1), x)
        return buf.getvalue()
