"""Tiny stdlib readers for the simulator tests: .xlsx (shared strings, numbers, inline strings) and, sniffed from
the first bytes as OwnerDash does, the other forms the simulator serves (BIFF8 .xls, HTML, CSV), all as the same
rows of cells: text, int or float, '' for an empty cell."""
import csv
import html.parser
import re
import struct
import zipfile
import io
import xml.etree.ElementTree as ET

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def col_index(ref):
    letters = re.match(r"[A-Z]+", ref).group(0)
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def read_rows(data, sheet=1):
    """The rows of `sheet` (1-based), whatever the form of `data`."""
    head = data[:8]
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        return read_xls_rows(data, sheet)
    if head.startswith(b"PK"):
        return read_xlsx_rows(data, sheet)
    text = data.decode("utf-8")
    if text.lstrip().lower().startswith("<"):
        return read_html_rows(text)
    return [[_typed(v) for v in row] for row in csv.reader(io.StringIO(text))]


def _typed(text):
    """A text cell as the tests compare it: whole numbers int, decimals float, else the text."""
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+", text):
        return float(text)
    return text


def _grid(cells):
    rows = []
    for (r, c), value in sorted(cells.items()):
        while len(rows) <= r:
            rows.append([])
        row = rows[r]
        while len(row) < c:
            row.append("")
        row.append(value)
    return rows


def read_xls_rows(data, sheet=1):
    """BIFF8 in OLE2 as scripts/lib/biff8_writer.write_xls writes it: SST (+CONTINUE, cut between strings),
    LABELSST, NUMBER (dates as their serials), BOOLERR."""
    size = 1 << struct.unpack_from("<H", data, 30)[0]
    mini_size = 1 << struct.unpack_from("<H", data, 32)[0]
    fat_count, dir_start = struct.unpack_from("<II", data, 44)[0], struct.unpack_from("<I", data, 48)[0]
    mini_cutoff, mini_fat_start = struct.unpack_from("<II", data, 56)
    difat = struct.unpack_from("<109I", data, 76)[:fat_count]

    def sector(n):
        return data[512 + n * size: 512 + (n + 1) * size] if size == 512 else data[(n + 1) * size:(n + 2) * size]
    fat = []
    for n in difat:
        fat += struct.unpack("<%dI" % (size // 4), sector(n))

    def chain(start):
        out = b""
        while start < 0xFFFFFFFA:
            out += sector(start)
            start = fat[start]
        return out
    directory = chain(dir_start)
    entries = {}
    for k in range(len(directory) // 128):
        e = directory[k * 128:(k + 1) * 128]
        n = struct.unpack_from("<H", e, 64)[0]
        name = e[:max(0, n - 2)].decode("utf-16-le")
        entries[name] = struct.unpack_from("<IQ", e, 116)
    root_start, _ = entries["Root Entry"]
    start, length = entries["Workbook"]
    if length < mini_cutoff:
        mini_fat = struct.unpack("<%dI" % (len(chain(mini_fat_start)) // 4), chain(mini_fat_start))
        mini = chain(root_start)
        stream, n = b"", start
        while n < 0xFFFFFFFA:
            stream += mini[n * mini_size:(n + 1) * mini_size]
            n = mini_fat[n]
    else:
        stream = chain(start)
    stream = stream[:length]
    strings, sheets, pos, current = [], [], 0, None
    sst_parts = []
    while pos + 4 <= len(stream):
        kind, n = struct.unpack_from("<HH", stream, pos)
        body = stream[pos + 4:pos + 4 + n]
        pos += 4 + n
        if kind == 0x00FC:
            sst_parts = [body[8:]]
        elif kind == 0x003C and sst_parts:
            sst_parts.append(body)
        elif kind == 0x0809:
            if sst_parts and not strings:
                blob, at = b"".join(sst_parts), 0
                while at < len(blob):
                    count, flags = struct.unpack_from("<HB", blob, at)
                    at += 3
                    width = 2 if flags & 1 else 1
                    strings.append(blob[at:at + count * width].decode("utf-16-le" if width == 2 else "latin-1"))
                    at += count * width
            if struct.unpack_from("<H", body, 2)[0] == 0x0010:
                current = {}
                sheets.append(current)
        elif current is not None and kind == 0x00FD:
            r, c, _, i = struct.unpack_from("<HHHI", body)
            current[(r, c)] = strings[i]
        elif current is not None and kind == 0x0203:
            r, c, _, v = struct.unpack_from("<HHHd", body)
            current[(r, c)] = int(v) if v.is_integer() else v
        elif current is not None and kind == 0x0205:
            r, c, _, v, _ = struct.unpack_from("<HHHBB", body)
            current[(r, c)] = bool(v)
    return _grid(sheets[sheet - 1])


class _Tables(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.row, self.cell = [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
        elif tag == "br" and self.cell is not None:
            self.cell += "\n"

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            text = self.cell.replace("\xa0", " ").strip(" ")
            self.row.append(_typed(text))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            self.rows.append(self.row)
            self.row = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def read_html_rows(text):
    """Every table row of the page in order (colspans not expanded: the simulator's HTML merges title cells only)."""
    parser = _Tables()
    parser.feed(text)
    return [[v if v != "" else "" for v in row] if any(v != "" for v in row) else [] for row in parser.rows]


def read_xlsx_rows(data, sheet=1):
    z = zipfile.ZipFile(io.BytesIO(data))
    sst = []
    if "xl/sharedStrings.xml" in z.namelist():
        root = ET.fromstring(z.read("xl/sharedStrings.xml"))
        for si in root.iter(NS + "si"):
            sst.append("".join(t.text or "" for t in si.iter(NS + "t")))
    root = ET.fromstring(z.read("xl/worksheets/sheet%d.xml" % sheet))
    rows = []
    for row in root.iter(NS + "row"):
        r = int(row.get("r"))
        while len(rows) < r - 1:
            rows.append([])
        cells = []
        for c in row.iter(NS + "c"):
            ci = col_index(c.get("r"))
            while len(cells) < ci:
                cells.append("")
            t = c.get("t")
            v = c.find(NS + "v")
            if t == "s":
                cells.append(sst[int(v.text)])
            elif t == "inlineStr":
                cells.append("".join(x.text or "" for x in c.iter(NS + "t")))
            elif v is not None:
                x = v.text
                cells.append(int(x) if re.fullmatch(r"-?\d+", x) else float(x))
            else:
                cells.append("")
        rows.append(cells)
    return rows


def money(s):
    """'$1,234.50' / '(125.00)' / '-5,675.60' / '*$1.00' -> float"""
    if isinstance(s, (int, float)):
        return float(s)
    s = s.strip().lstrip("*")
    neg = s.startswith("(") and s.endswith(")") or s.startswith("-")
    s = s.strip("()-").replace("$", "").replace(",", "")
    return -float(s) if neg else float(s)
