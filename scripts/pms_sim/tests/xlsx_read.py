"""Tiny stdlib .xlsx reader for the simulator tests (shared strings, numbers, inline strings)."""
import re
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
