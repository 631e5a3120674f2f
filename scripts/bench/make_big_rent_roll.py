#!/usr/bin/env python3
"""Writes a large OneSite-shaped Rent Roll .xlsx for the reader/loader benchmark.

Usage: make_big_rent_roll.py OUT.xlsx ROWS [--seed N]

Shape: a title block (product line, company - property, title, As of), one header row
of 14 columns, then ROWS unit rows: text columns as shared strings (unit numbers,
floorplans, statuses and resident names repeat as they do in a real portfolio export),
dates as date-formatted serials, money as numbers with a currency format, plus a
`Balance` column written as text money ("$1,234.50", "(125.00)") in one row out of
ten, the way Crystal exports mix them. Streams the sheet XML, so memory stays small.
Python standard library only.
"""
import random
import sys
import zipfile
from xml.sax.saxutils import escape

HEADER = ["Unit", "Bldg", "Floor Plan", "SQFT", "Resh ID", "Name", "Unit/Lease Status",
          "Market Rent", "Lease Rent", "Move-In", "Lease Start", "Lease End", "Move-Out", "Balance"]
FLOORPLANS = [("A1", 610), ("A2", 702), ("B1", 1015), ("B2", 1120), ("S1", 480), ("C1", 1390)]
STATUSES = ["Occupied no NTV"] * 14 + ["Occupied NTV", "Occupied NTV Leased", "Vacant", "Vacant Leased"]
FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
         "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson"]


def col(i):
    name = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        name = chr(65 + r) + name
    return name


COLS = [col(i) for i in range(len(HEADER))]


def main():
    out, rows = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 7
    rnd = random.Random(seed)
    strings, index = [], {}

    def sst(text):
        i = index.get(text)
        if i is None:
            i = index[text] = len(strings)
            strings.append(text)
        return i

    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.writestr("[Content_Types].xml",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/>'
                   '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                   '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                   '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
                   '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
                   '</Types>')
        z.writestr("_rels/.rels",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
                   '</Relationships>')
        z.writestr("xl/workbook.xml",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
                   'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
                   '<sheets><sheet name="Rent Roll" sheetId="1" r:id="rId1"/></sheets></workbook>')
        z.writestr("xl/_rels/workbook.xml.rels",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
                   '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
                   '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
                   '</Relationships>')
        # Style 1: date (numFmt 14); style 2: money (custom currency format 164).
        z.writestr("xl/styles.xml",
                   '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                   '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                   '<numFmts count="1"><numFmt numFmtId="164" formatCode="&quot;$&quot;#,##0.00"/></numFmts>'
                   '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
                   '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
                   '<borders count="1"><border/></borders>'
                   '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
                   '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
                   '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
                   '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
                   '</styleSheet>')
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            buf = []
            write = buf.append

            def flush():
                sheet.write("".join(buf).encode("utf-8"))
                buf.clear()

            write('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>')
            title = ["OneSite Rents v3.0", "Kairoi Residential - Nexus East", "RENT ROLL DETAIL", "As of 11/20/2026"]
            for r, text in enumerate(title, start=1):
                write(f'<row r="{r}"><c r="A{r}" t="s"><v>{sst(text)}</v></c></row>')
            r = len(title) + 2
            write(f'<row r="{r}">' + "".join(f'<c r="{COLS[i]}{r}" t="s"><v>{sst(h)}</v></c>' for i, h in enumerate(HEADER)) + "</row>")
            for n in range(rows):
                r += 1
                fp, sqft = FLOORPLANS[n % len(FLOORPLANS)]
                status = STATUSES[rnd.randrange(len(STATUSES))]
                vacant = status.startswith("Vacant")
                market = 1100 + 150 * (n % len(FLOORPLANS)) + rnd.randrange(0, 200)
                move_in = 43000 + rnd.randrange(0, 3000)
                cells = [
                    f'<c r="A{r}" t="s"><v>{sst(f"{n // 40 + 1:04d}-{n % 40 + 100}")}</v></c>',
                    f'<c r="B{r}" t="s"><v>{sst(str(n // 40 + 1))}</v></c>',
                    f'<c r="C{r}" t="s"><v>{sst(fp)}</v></c>',
                    f'<c r="D{r}"><v>{sqft}</v></c>',
                ]
                if not vacant:
                    name = f"{LAST[rnd.randrange(len(LAST))]}, {FIRST[rnd.randrange(len(FIRST))]}"
                    cells += [
                        f'<c r="E{r}"><v>{100000 + n}</v></c>',
                        f'<c r="F{r}" t="s"><v>{sst(name)}</v></c>',
                    ]
                cells.append(f'<c r="G{r}" t="s"><v>{sst(status)}</v></c>')
                cells.append(f'<c r="H{r}" s="2"><v>{market}</v></c>')
                if not vacant:
                    rent = market - rnd.randrange(0, 120) + rnd.randrange(0, 100) / 100
                    balance = rnd.choice([0, 0, 0, 0, 0, 0, 35.5, 125, rent, -50])
                    cells += [
                        f'<c r="I{r}" s="2"><v>{rent:.2f}</v></c>',
                        f'<c r="J{r}" s="1"><v>{move_in}</v></c>',
                        f'<c r="K{r}" s="1"><v>{move_in}</v></c>',
                        f'<c r="L{r}" s="1"><v>{move_in + 365}</v></c>',
                    ]
                    if n % 10 == 3:
                        text = f"(${-balance:,.2f})" if balance < 0 else f"${balance:,.2f}"
                        cells.append(f'<c r="N{r}" t="inlineStr"><is><t>{escape(text)}</t></is></c>')
                    else:
                        cells.append(f'<c r="N{r}" s="2"><v>{balance:.2f}</v></c>')
                write(f'<row r="{r}">' + "".join(cells) + "</row>")
                if len(buf) >= 2000:
                    flush()
            write("</sheetData></worksheet>")
            flush()
        with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as out_sst:
            out_sst.write(('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                           f'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{len(strings)}" uniqueCount="{len(strings)}">').encode())
            chunk = []
            for s in strings:
                chunk.append(f"<si><t>{escape(s)}</t></si>")
                if len(chunk) >= 5000:
                    out_sst.write("".join(chunk).encode("utf-8"))
                    chunk.clear()
            out_sst.write(("".join(chunk) + "</sst>").encode("utf-8"))


if __name__ == "__main__":
    main()
