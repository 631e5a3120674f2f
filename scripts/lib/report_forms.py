"""The other forms OneSite sends a report in, made from the .xlsx a scripts/lib/onesite_reports.py writer wrote.

RealPage's report server answers "Excel" with whatever the report's export produces (docs/onesite-reports.md,
"File forms"): a Crystal Reports BIFF8 .xls, an .xlsx (sometimes named .xls), an HTML page named .xlsx or .xls, CSV,
or a PDF. The PMS simulator (scripts/pms_sim) lays a report out once, with the shared writers, and converts it here,
so every form carries exactly the same cells:

    book = read_xlsx(xlsx_bytes)         # [Sheet(name, rows {row: {column: value}}, merges)]
    to_xls(book)      -> bytes           # BIFF8 in OLE2 (scripts/lib/biff8_writer.py)
    to_html(book)     -> bytes           # OneSite's HTML export: page-header table, then the report table
    to_csv(book)      -> bytes           # the first sheet, comma-separated
    to_pdf(book)      -> bytes           # a one-page PDF of the title lines (what OwnerDash must refuse)

Standard library only. Values read back: str, int/float (no format), datetime.date / datetime.datetime (numbers
under a date format).
"""

import csv
import datetime
import html
import io
import os
import sys
import zipfile
from xml.etree import ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import biff8_writer  # noqa: E402

__all__ = ["Sheet", "read_xlsx", "to_xls", "to_html", "to_csv", "to_pdf", "cell_text"]

_NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_DATE_FORMAT_IDS = set(range(14, 23)) | set(range(45, 48))
_EPOCH = datetime.datetime(1899, 12, 30)


class Sheet:
    """One worksheet: rows {0-based row: {0-based column: value}} and merges [(first_row, last_row, first_col,
    last_col)]."""

    def __init__(self, name, rows, merges):
        self.name = name
        self.rows = rows
        self.merges = merges

    def ordered(self):
        """[(row, [(column, value)])] in order."""
        return [(r, sorted(self.rows[r].items())) for r in sorted(self.rows)]

    @property
    def width(self):
        return max((max(cells) + 1 for cells in self.rows.values() if cells), default=0)


def _ref(ref):
    letters = "".join(ch for ch in ref if ch.isalpha())
    digits = "".join(ch for ch in ref if ch.isdigit())
    column = 0
    for ch in letters:
        column = column * 26 + ord(ch) - 64
    return int(digits) - 1, column - 1


def _is_date_format(code):
    lowered = code.lower()
    in_quotes = False
    for ch in lowered:
        if ch == '"':
            in_quotes = not in_quotes
        elif not in_quotes and ch in "dmy":
            return True
    return False


def _number(text):
    value = float(text)
    return int(value) if value.is_integer() and "." not in text and "E" not in text.upper() else value


def read_xlsx(data):
    """The cells of an .xlsx (bytes) as written by scripts/lib/xlsx_writer.py: [Sheet]."""
    z = zipfile.ZipFile(io.BytesIO(data))
    names = set(z.namelist())
    strings = []
    if "xl/sharedStrings.xml" in names:
        for si in ET.fromstring(z.read("xl/sharedStrings.xml")).iter(_NS + "si"):
            strings.append("".join(t.text or "" for t in si.iter(_NS + "t")))
    date_styles = set()
    if "xl/styles.xml" in names:
        styles = ET.fromstring(z.read("xl/styles.xml"))
        custom = {int(f.get("numFmtId")): f.get("formatCode") for f in styles.iter(_NS + "numFmt")}
        xfs = styles.find(_NS + "cellXfs")
        for index, xf in enumerate(xfs if xfs is not None else []):
            fid = int(xf.get("numFmtId", "0"))
            if fid in _DATE_FORMAT_IDS or (fid in custom and _is_date_format(custom[fid])):
                date_styles.add(index)
    workbook = ET.fromstring(z.read("xl/workbook.xml"))
    rels = {r.get("Id"): r.get("Target") for r in
            ET.fromstring(z.read("xl/_rels/workbook.xml.rels")).iter(
                "{http://schemas.openxmlformats.org/package/2006/relationships}Relationship")}
    sheets = []
    for entry in workbook.iter(_NS + "sheet"):
        part = "xl/" + rels[entry.get(_REL + "id")].lstrip("/").removeprefix("xl/")
        root = ET.fromstring(z.read(part))
        rows = {}
        for c in root.iter(_NS + "c"):
            r, col = _ref(c.get("r"))
            kind = c.get("t")
            v = c.find(_NS + "v")
            if kind == "inlineStr":
                value = "".join(t.text or "" for t in c.iter(_NS + "t"))
            elif v is None:
                continue
            elif kind == "s":
                value = strings[int(v.text)]
            elif kind == "b":
                value = v.text == "1"
            elif kind in ("str", "e"):
                value = v.text or ""
            else:
                value = _number(v.text)
                if int(c.get("s", "0")) in date_styles:
                    moment = _EPOCH + datetime.timedelta(days=float(value))
                    value = moment.date() if float(value).is_integer() else moment.replace(microsecond=0)
            rows.setdefault(r, {})[col] = value
        merges = []
        for m in root.iter(_NS + "mergeCell"):
            first, _, last = m.get("ref").partition(":")
            (r0, c0), (r1, c1) = _ref(first), _ref(last or first)
            merges.append((r0, r1, c0, c1))
        sheets.append(Sheet(entry.get("name"), rows, merges))
    return sheets


# ------------------------------------------------------------------------------ BIFF8

def to_xls(book):
    """The workbook as a legacy .xls (BIFF8 in an OLE2 compound file)."""
    return biff8_writer.write_xls([(s.name, s.ordered(), s.merges) for s in book])


# ------------------------------------------------------------------------------ text of a cell

def _clock(moment):
    hour = moment.hour % 12 or 12
    return "%02d:%02d:%02d %s" % (hour, moment.minute, moment.second, "AM" if moment.hour < 12 else "PM")


def cell_text(value, style="csv"):
    """A cell as a text export shows it. Dates MM/DD/YYYY (then the time when there is one). Numbers: style "csv"
    plain (`-1250.5`); style "html" as OneSite's HTML export prints amounts, with thousands separators, two decimals
    and negatives in parentheses (`(1,951.50)`), for a number the workbook held with cents; whole numbers (counts,
    whole-dollar amounts) stay as they are (`1450`, `-7`)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, datetime.datetime):
        return "%02d/%02d/%04d %s" % (value.month, value.day, value.year, _clock(value))
    if isinstance(value, datetime.date):
        return "%02d/%02d/%04d" % (value.month, value.day, value.year)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if style == "html":
            magnitude = "{:,.2f}".format(abs(value))
            return "(%s)" % magnitude if value < 0 else magnitude
        text = repr(value)
        return text[:-2] if text.endswith(".0") else text
    return str(value)


# ------------------------------------------------------------------------------ HTML

_STYLE = """    <STYLE type="text/css">
      @media screen, print
      {
      BODY { font: 9pt arial; }
      TABLE { font: 9pt arial; }
      THEAD { display: table-header-group; }
      .Container { width: 100%; text-align: center; border: 0px; margin: 0px; padding: 0px; }
      .PageHeader { width: 100%; border: 0px; margin: 0px; padding: 5px; }
      .ReportTable { table-layout: fixed; border-collapse: collapse; padding: 0px; margin: 0px; width: 100% }
      }
    </STYLE>"""


def _title_rows(sheet):
    """How many leading rows are the Crystal title block: the rows before the first gap, when the sheet starts with
    OneSite's product line (a data-only sheet has none)."""
    ordered = sorted(sheet.rows)
    if not ordered or ordered[0] != 0:
        return 0
    first = sheet.rows[0].get(0)
    if not (isinstance(first, str) and first.startswith("OneSite")):
        return 0
    count = 0
    while count in sheet.rows and count < 12:
        count += 1
    return count


def _html_rows(sheet, rows, width, cell_class, first=None):
    spans = {}
    covered = set()
    for r0, r1, c0, c1 in sheet.merges:
        spans[(r0, c0)] = (r1 - r0 + 1, c1 - c0 + 1)
        for r in range(r0, r1 + 1):
            for c in range(c0, c1 + 1):
                if (r, c) != (r0, c0):
                    covered.add((r, c))
    out = []
    previous = (rows[0] if first is None else first) - 1 if rows else 0
    for r in rows:
        # A row Excel leaves absent is an empty row of the page.
        for _ in range(r - previous - 1):
            out.append("<tr>" + "<td>&nbsp;</td>" * width + "</tr>")
        previous = r
        cells = []
        for c in range(width):
            if (r, c) in covered:
                continue
            value = sheet.rows.get(r, {}).get(c)
            text = html.escape(cell_text(value, "html")).replace("\n", "<br>") or "&nbsp;"
            align = "right" if isinstance(value, (int, float)) and not isinstance(value, bool) else "left"
            span = ""
            if (r, c) in spans:
                rs, cs = spans[(r, c)]
                span = (' rowspan="%d"' % rs if rs > 1 else "") + (' colspan="%d"' % cs if cs > 1 else "")
            cells.append("<td%s style='text-align:%s;'class='%s'>%s</td>" % (span, align, cell_class, text))
        out.append("<tr>" + "".join(cells) + "</tr>")
    return out


def to_html(book, title=None):
    """The first sheet as OneSite's HTML export lays a report out: a Container table whose header holds the
    PageHeader table (the title block, one row per line), then the report's own table of rows."""
    sheet = book[0]
    width = max(sheet.width, 1)
    head_count = _title_rows(sheet)
    ordered = sorted(sheet.rows)
    head = [r for r in ordered if r < head_count]
    body = [r for r in ordered if r >= head_count]
    title = title or sheet.name
    page = ["<html>", "  <head>", '    <META http-equiv="Content-Type" content="text/html; charset=utf-8">',
            "    <title>%s</title>" % html.escape(title), _STYLE, "  </head>", "  <body>",
            '    <table class="Container">']
    if head:
        page += ["      <thead>", "        <tr>", "          <th>", '            <table class="PageHeader">']
        page += ["              " + line for line in _html_rows(sheet, head, width, "PH_left")]
        page += ["            </table>", "          </th>", "        </tr>", "      </thead>"]
    page += ["      <tr>", "        <td>", "          <table class='ReportTable'>"]
    page += ["            " + line for line in _html_rows(sheet, body, width, "RowCell", first=head_count)]
    page += ["          </table>", "        </td>", "      </tr>", "    </table>", "  </body>", "</html>", ""]
    return "\n".join(page).encode("utf-8")


# ------------------------------------------------------------------------------ CSV

def to_csv(book):
    """The first sheet as comma-separated text (CRLF line ends, as OneSite's CSV export), empty rows kept."""
    sheet = book[0]
    width = sheet.width
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    last = max(sheet.rows, default=-1)
    for r in range(last + 1):
        cells = sheet.rows.get(r, {})
        writer.writerow([cell_text(cells.get(c)) for c in range(width)])
    return out.getvalue().encode("utf-8")


# ------------------------------------------------------------------------------ PDF

def _pdf_text(text):
    text = text.encode("latin-1", "replace").decode("latin-1")
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def to_pdf(book, lines=None):
    """A one-page PDF 1.4 printing the title block lines (or `lines`): a real, minimal PDF of the report's
    heading, as the PDF export of a report begins."""
    sheet = book[0]
    if lines is None:
        lines = []
        for r in sorted(sheet.rows)[:12]:
            text = "  ".join(cell_text(v) for _, v in sorted(sheet.rows[r].items()) if cell_text(v))
            if text:
                lines.append(text.replace("\n", " "))
    stream = ["BT", "/F1 9 Tf", "11 TL", "36 756 Td"]
    for line in lines:
        stream.append("(%s) Tj T*" % _pdf_text(line))
    stream.append("ET")
    content = "\n".join(stream).encode("latin-1")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)
