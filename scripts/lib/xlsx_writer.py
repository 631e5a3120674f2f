"""Minimal streaming .xlsx writer, standard library only (zipfile + XML text).

Writes what OneSite-shaped fixtures need: shared strings (or inline strings),
numbers, text, booleans, dates (built-in format 14, or any custom date format),
merged ranges and several sheets.

Streaming: each worksheet part is written to the zip as its rows arrive, through
``ZipFile.open(name, "w")``, so a 500,000-row sheet never sits in memory. Only
one sheet can be open at a time (a zipfile limit). Shared strings are numbered
as they are first seen and the table is written when the workbook closes (the
zip entry order does not matter to readers), so memory holds one copy of each
distinct string, not the rows. ``shared_strings=False`` writes inline strings
(``t="inlineStr"``) instead and holds nothing.

    with XlsxWriter("out.xlsx") as book:
        with book.sheet("Report") as sheet:
            sheet.row(["Unit", "Market Rent", "Move-In"])
            sheet.row(["1203", 1450.0, datetime.date(2024, 12, 6)])
            sheet.merge("A1:C1")
"""

import datetime
import zipfile
from decimal import Decimal

__all__ = ["XlsxWriter", "Cell", "column_letters", "cell_ref"]

_NS_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_NS_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_NS_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_REL_BASE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"

# Built-in number format ids Excel knows without a <numFmt> entry.
_BUILTIN_FORMATS = {"General": 0, "0": 1, "0.00": 2, "#,##0": 3, "#,##0.00": 4, "0%": 9, "0.00%": 10,
                    "mm-dd-yy": 14, "m/d/yyyy": 14}

_EPOCH_1900 = datetime.datetime(1899, 12, 30)
_EPOCH_1904 = datetime.datetime(1904, 1, 1)


class Cell:
    """A value with an explicit number format, e.g. Cell(date, "mm/dd/yyyy hh:mm:ss AM/PM") or Cell(0.95, "0.00%")."""

    __slots__ = ("value", "num_format")

    def __init__(self, value, num_format=None):
        self.value = value
        self.num_format = num_format


def column_letters(index):
    """0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    number = index + 1
    while number:
        number, remainder = divmod(number - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters


def cell_ref(row, column):
    """Row 1-based, column 0-based -> 'A1'."""
    return f"{column_letters(column)}{row}"


def _parse_ref(ref):
    letters = "".join(ch for ch in ref if ch.isalpha())
    digits = "".join(ch for ch in ref if ch.isdigit())
    column = 0
    for ch in letters.upper():
        column = column * 26 + (ord(ch) - 64)
    return int(digits), column - 1


def _escape(text):
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    # XML 1.0 forbids most control characters; tabs and newlines stay.
    return "".join(ch for ch in text if ch in "\t\n\r" or ord(ch) >= 0x20)


def _escape_attr(text):
    return _escape(text).replace('"', "&quot;")


def _t_element(text):
    escaped = _escape(text)
    if text != text.strip() or "\n" in text:
        return f'<t xml:space="preserve">{escaped}</t>'
    return f"<t>{escaped}</t>"


def _number_text(value):
    if isinstance(value, bool):
        raise TypeError("bool is not a number")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return format(value.normalize(), "f")
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


class XlsxWriter:
    """A workbook written sheet by sheet to a path or a binary file object."""

    def __init__(self, dest, *, shared_strings=True, date1904=False, compression=zipfile.ZIP_DEFLATED):
        self._zip = zipfile.ZipFile(dest, "w", compression=compression, allowZip64=True)
        self._shared = shared_strings
        self._strings = {}
        self._string_list = []
        self._string_refs = 0
        self._date1904 = date1904
        self._sheets = []
        self._open_sheet = None
        # style index 0 = General; each distinct number format gets one cellXfs entry.
        self._formats = ["General"]
        self._format_index = {"General": 0}
        self._closed = False

    # -- context manager --------------------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    # -- sheets -----------------------------------------------------------------------
    def sheet(self, name):
        """Starts a new worksheet; the previous one is finished first."""
        if self._open_sheet is not None:
            self._open_sheet.close()
        if any(existing == name for existing in self._sheets):
            raise ValueError(f"duplicate sheet name {name!r}")
        self._sheets.append(name)
        part = f"xl/worksheets/sheet{len(self._sheets)}.xml"
        self._open_sheet = SheetWriter(self, self._zip.open(part, "w", force_zip64=True))
        return self._open_sheet

    def _sheet_closed(self, sheet):
        if self._open_sheet is sheet:
            self._open_sheet = None

    # -- values -----------------------------------------------------------------------
    def _style(self, num_format):
        if num_format is None:
            return 0
        index = self._format_index.get(num_format)
        if index is None:
            index = len(self._formats)
            self._formats.append(num_format)
            self._format_index[num_format] = index
        return index

    def _string_index(self, text):
        self._string_refs += 1
        index = self._strings.get(text)
        if index is None:
            index = len(self._string_list)
            self._strings[text] = index
            self._string_list.append(text)
        return index

    def _serial(self, value):
        epoch = _EPOCH_1904 if self._date1904 else _EPOCH_1900
        if isinstance(value, datetime.datetime):
            delta = value.replace(tzinfo=None) - epoch
        else:
            delta = datetime.datetime(value.year, value.month, value.day) - epoch
        return delta.days + delta.seconds / 86400

    def _cell_xml(self, ref, value):
        num_format = None
        if isinstance(value, Cell):
            value, num_format = value.value, value.num_format
        if value is None:
            return ""
        if isinstance(value, bool):
            style = self._style(num_format)
            s_attr = f' s="{style}"' if style else ""
            return f'<c r="{ref}" t="b"{s_attr}><v>{1 if value else 0}</v></c>'
        if isinstance(value, (datetime.date, datetime.datetime)):
            if num_format is None:
                num_format = "mm-dd-yy" if not isinstance(value, datetime.datetime) else "m/d/yyyy h:mm"
            style = self._style(num_format)
            return f'<c r="{ref}" s="{style}"><v>{_number_text(self._serial(value))}</v></c>'
        if isinstance(value, (int, float, Decimal)):
            style = self._style(num_format)
            s_attr = f' s="{style}"' if style else ""
            return f'<c r="{ref}"{s_attr}><v>{_number_text(value)}</v></c>'
        text = str(value)
        style = self._style(num_format)
        s_attr = f' s="{style}"' if style else ""
        if self._shared:
            return f'<c r="{ref}" t="s"{s_attr}><v>{self._string_index(text)}</v></c>'
        return f'<c r="{ref}" t="inlineStr"{s_attr}><is>{_t_element(text)}</is></c>'

    # -- package parts ----------------------------------------------------------------
    def _write_part(self, name, data):
        # A fixed timestamp (as the streamed parts get) so the same content always gives the same bytes.
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = self._zip.compression
        self._zip.writestr(info, data)

    def close(self):
        if self._closed:
            return
        if self._open_sheet is not None:
            self._open_sheet.close()
        if not self._sheets:
            raise ValueError("a workbook needs at least one sheet")
        self._closed = True
        write = self._write_part
        overrides = [
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>',
            '<Override PartName="/xl/styles.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>',
        ]
        for index in range(1, len(self._sheets) + 1):
            overrides.append(f'<Override PartName="/xl/worksheets/sheet{index}.xml" '
                             'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>')
        if self._shared:
            overrides.append('<Override PartName="/xl/sharedStrings.xml" '
                             'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>')
        write("[Content_Types].xml",
              '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
              '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
              '<Default Extension="xml" ContentType="application/xml"/>' + "".join(overrides) + "</Types>")
        write("_rels/.rels",
              '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              f'<Relationships xmlns="{_NS_PKG_REL}">'
              f'<Relationship Id="rId1" Type="{_REL_BASE}/officeDocument" Target="xl/workbook.xml"/>'
              "</Relationships>")
        sheets = "".join(f'<sheet name="{_escape_attr(name)}" sheetId="{i}" r:id="rId{i}"/>'
                         for i, name in enumerate(self._sheets, start=1))
        workbook_pr = '<workbookPr date1904="1"/>' if self._date1904 else "<workbookPr/>"
        write("xl/workbook.xml",
              '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              f'<workbook xmlns="{_NS_MAIN}" xmlns:r="{_NS_REL}">{workbook_pr}<sheets>{sheets}</sheets></workbook>')
        rels = [f'<Relationship Id="rId{i}" Type="{_REL_BASE}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                for i in range(1, len(self._sheets) + 1)]
        next_id = len(self._sheets) + 1
        rels.append(f'<Relationship Id="rId{next_id}" Type="{_REL_BASE}/styles" Target="styles.xml"/>')
        if self._shared:
            rels.append(f'<Relationship Id="rId{next_id + 1}" Type="{_REL_BASE}/sharedStrings" '
                        'Target="sharedStrings.xml"/>')
        write("xl/_rels/workbook.xml.rels",
              '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
              f'<Relationships xmlns="{_NS_PKG_REL}">' + "".join(rels) + "</Relationships>")
        write("xl/styles.xml", self._styles_xml())
        if self._shared:
            with self._zip.open("xl/sharedStrings.xml", "w", force_zip64=True) as part:
                part.write(('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                            f'<sst xmlns="{_NS_MAIN}" count="{self._string_refs}" '
                            f'uniqueCount="{len(self._string_list)}">').encode())
                chunk = []
                for text in self._string_list:
                    chunk.append(f"<si>{_t_element(text)}</si>")
                    if len(chunk) >= 4096:
                        part.write("".join(chunk).encode())
                        chunk = []
                part.write(("".join(chunk) + "</sst>").encode())
        self._zip.close()

    def _styles_xml(self):
        custom = []
        xfs = []
        next_custom = 164
        for fmt in self._formats:
            if fmt in _BUILTIN_FORMATS:
                fmt_id = _BUILTIN_FORMATS[fmt]
            else:
                fmt_id = next_custom
                next_custom += 1
                custom.append(f'<numFmt numFmtId="{fmt_id}" formatCode="{_escape_attr(fmt)}"/>')
            apply = ' applyNumberFormat="1"' if fmt_id else ""
            xfs.append(f'<xf numFmtId="{fmt_id}" fontId="0" fillId="0" borderId="0" xfId="0"{apply}/>')
        num_fmts = f'<numFmts count="{len(custom)}">{"".join(custom)}</numFmts>' if custom else ""
        return ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                f'<styleSheet xmlns="{_NS_MAIN}">{num_fmts}'
                '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
                '<fills count="2"><fill><patternFill patternType="none"/></fill>'
                '<fill><patternFill patternType="gray125"/></fill></fills>'
                '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
                '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
                f'<cellXfs count="{len(xfs)}">{"".join(xfs)}</cellXfs>'
                '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
                "</styleSheet>")


class SheetWriter:
    """Rows of one worksheet, written to the zip as they come."""

    def __init__(self, book, stream):
        self._book = book
        self._stream = stream
        self._buffer = []
        self._buffered = 0
        self._merges = []
        self._next_row = 1
        self._closed = False
        self._write(f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
                    f'<worksheet xmlns="{_NS_MAIN}" xmlns:r="{_NS_REL}"><sheetData>')

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc, tb):
        self.close()
        return False

    @property
    def next_row(self):
        """The 1-based number the next row() call writes to."""
        return self._next_row

    def _write(self, text):
        self._buffer.append(text)
        self._buffered += len(text)
        if self._buffered >= 1 << 16:
            self.flush()

    def flush(self):
        if self._buffer:
            self._stream.write("".join(self._buffer).encode("utf-8"))
            self._buffer = []
            self._buffered = 0

    def row(self, values, *, number=None, start_column=0):
        """Writes one row (None cells are left empty) and returns its 1-based number."""
        if self._closed:
            raise ValueError("sheet already closed")
        number = self._next_row if number is None else number
        if number < self._next_row:
            raise ValueError(f"row {number} written after row {self._next_row - 1}")
        cells = []
        for offset, value in enumerate(values):
            xml = self._book._cell_xml(cell_ref(number, start_column + offset), value)
            if xml:
                cells.append(xml)
        if cells:
            self._write(f'<row r="{number}">' + "".join(cells) + "</row>")
        self._next_row = number + 1
        return number

    def blank(self, count=1):
        """Skips rows, leaving them absent from the sheet as Excel does."""
        self._next_row += count

    def merge(self, first, first_column=None, last_row=None, last_column=None):
        """merge("A1:C1") or merge(first_row, first_column, last_row, last_column) with 0-based columns."""
        if isinstance(first, str):
            start, _, end = first.partition(":")
            (first_row, first_col), (end_row, end_col) = _parse_ref(start), _parse_ref(end or start)
        else:
            first_row, first_col, end_row, end_col = first, first_column, last_row, last_column
        self._merges.append(f"{cell_ref(first_row, first_col)}:{cell_ref(end_row, end_col)}")

    def close(self):
        if self._closed:
            return
        self._closed = True
        self._write("</sheetData>")
        if self._merges:
            self._write(f'<mergeCells count="{len(self._merges)}">'
                        + "".join(f'<mergeCell ref="{ref}"/>' for ref in self._merges) + "</mergeCells>")
        self._write("</worksheet>")
        self.flush()
        self._stream.close()
        self._book._sheet_closed(self)
