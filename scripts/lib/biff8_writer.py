"""A small BIFF8 (Excel 97-2003 .xls) writer inside an OLE2 compound file, standard library only.

Two layers:

* record-level helpers (``rec``, ``sst_string``, ``cell``, ``workbook_stream``, ``compound_file`` ...) that the
  reader fixtures of scripts/fixtures/make_xls_fixtures.py use to build edge cases on purpose (strings split across
  CONTINUE records, RK/MULRK cells, corrupt FAT chains, 4096-byte sectors);
* ``write_xls(sheets)``: a whole workbook from plain rows, as a Crystal Reports export writes one (shared strings,
  NUMBER cells, dates as serials under a date format, merged ranges, several sheets), which the PMS simulator
  (scripts/pms_sim) serves where OneSite sends a legacy .xls.
"""
import datetime
import struct
from decimal import Decimal

BOF, EOF, BOUNDSHEET, DATEMODE, CODEPAGE, FILEPASS = 0x0809, 0x000A, 0x0085, 0x0022, 0x0042, 0x002F
SST, CONTINUE, EXTSST, FORMAT, XF, FONT = 0x00FC, 0x003C, 0x00FF, 0x041E, 0x00E0, 0x0031
DIMENSIONS, LABELSST, LABEL, NUMBER, RK, MULRK = 0x0200, 0x00FD, 0x0204, 0x0203, 0x027E, 0x00BD
FORMULA, STRING, BOOLERR, BLANK, MULBLANK, MERGEDCELLS, SHRFMLA = 0x0006, 0x0207, 0x0205, 0x0201, 0x00BE, 0x00E5, 0x04BC
WINDOW1, WINDOW2 = 0x003D, 0x023E

# Cell XF indices of the hand-made workbooks (0-15 are the style XFs Excel requires).
XF_GENERAL, XF_DATE14, XF_DATETIME, XF_ELAPSED, XF_PERCENT, XF_QUOTED_D, XF_DATE22 = 16, 17, 18, 19, 20, 21, 22
CUSTOM_FORMATS = {164: "dd/mm/yyyy hh:mm", 165: "[h]:mm", 166: "0.00%", 167: '"day "0'}
CELL_XF_FORMATS = [0, 14, 164, 165, 166, 167, 22]


def rec(kind, body=b""):
    assert len(body) <= 8224, f"record {kind:#06x} is {len(body)} bytes"
    return struct.pack("<HH", kind, len(body)) + body


def is_wide(text):
    return any(ord(ch) > 0xFF for ch in text)


def chars(text, wide):
    return text.encode("utf-16-le") if wide else text.encode("latin-1")


def units(text):
    return len(text.encode("utf-16-le")) // 2


def xl_string(text, length_bytes=2, wide=None):
    """XLUnicodeString (2-byte count) or ShortXLUnicodeString (1-byte count): count, flags, characters."""
    wide = is_wide(text) if wide is None else wide
    count = struct.pack("<H" if length_bytes == 2 else "<B", units(text))
    return count + bytes([1 if wide else 0]) + chars(text, wide)


def bof(kind, version=0x0600):
    return rec(BOF, struct.pack("<HHHHII", version, kind, 0x0DBB, 0x07CC, 0, 0x06))


def font():
    return rec(FONT, struct.pack("<HHHHHBBBB", 200, 0, 0x7FFF, 400, 0, 0, 0, 0, 0) + xl_string("Arial", 1))


def xf(format_id, style=False):
    # ifnt, ifmt, then type/protection (fStyle, parent 0xFFF for styles) and formatting we leave at defaults.
    kind = 0xFFF5 if style else 0x0001
    return rec(XF, struct.pack("<HHH", 0, format_id, kind) + bytes([0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20, 0xC0]) + b"\x00")


def sst_body_start(total, unique):
    return struct.pack("<II", total, unique)


def sst_string(text, wide=None, runs=0, phonetic=b""):
    """XLUnicodeRichExtendedString: the header, characters, runs (4 bytes each) and the phonetic block."""
    wide = is_wide(text) if wide is None else wide
    flags = (1 if wide else 0) | (0x08 if runs else 0) | (0x04 if phonetic else 0)
    head = struct.pack("<HB", units(text), flags)
    if runs:
        head += struct.pack("<H", runs)
    if phonetic:
        head += struct.pack("<I", len(phonetic))
    tail = b"".join(struct.pack("<HH", i, 0) for i in range(runs)) + phonetic
    # A string that only a split can store (compressed then UTF-16) has no one-piece body.
    body = chars(text, wide) if wide or not is_wide(text) else None
    return head, body, tail


def cell(kind, row, column, xf_index, payload):
    return rec(kind, struct.pack("<HHH", row, column, xf_index) + payload)


def rk_int(value, times100=False):
    return ((value << 2) | 2 | (1 if times100 else 0)) & 0xFFFFFFFF


def rk_float(value, times100=False):
    high = struct.unpack("<Q", struct.pack("<d", value))[0] >> 32
    assert struct.unpack("<Q", struct.pack("<d", value))[0] & 0xFFFFFFFF == 0 and high & 3 == 0, value
    return high | (1 if times100 else 0)


def formula(row, column, xf_index, result, tokens=b"\x1e\x01\x00"):
    """A FORMULA record: result is a float, True/False, ('error', code), 'string' (a STRING record follows) or ''."""
    if isinstance(result, bool):
        cached = struct.pack("<BBBBBBH", 1, 0, 1 if result else 0, 0, 0, 0, 0xFFFF)
    elif isinstance(result, tuple):
        cached = struct.pack("<BBBBBBH", 2, 0, result[1], 0, 0, 0, 0xFFFF)
    elif result == "string":
        cached = struct.pack("<BBBBBBH", 0, 0, 0, 0, 0, 0, 0xFFFF)
    elif result == "":
        cached = struct.pack("<BBBBBBH", 3, 0, 0, 0, 0, 0, 0xFFFF)
    else:
        cached = struct.pack("<d", result)
    return cell(FORMULA, row, column, xf_index, cached + struct.pack("<HIH", 0, 0, len(tokens)) + tokens)


def window2():
    return rec(WINDOW2, struct.pack("<HHHHHHHI", 0x06B6, 0, 0, 0x40, 0, 0, 0, 0))


def code_page_string(text, code_page, length_bytes=2):
    """A compressed string (flags 0) whose bytes are `text` in a Windows code page, as non-Excel writers store them."""
    data = text.encode(f"cp{code_page}")
    return struct.pack("<H" if length_bytes == 2 else "<B", len(data)) + b"\x00" + data


def workbook_stream(sheets, sst=b"", date1904=False, version=0x0600, globals_extra=b"", code_page=1200,
                    formats=None, cell_xf_formats=None):
    """Globals then one substream per sheet; sheets are (name, dt, body) with dt 0 worksheet, 2 chart.
    With a code page other than 1200, sheet names are compressed strings in that code page. `formats` (id -> code)
    and `cell_xf_formats` (the format id of each cell XF from 16 on) default to the fixtures' own."""
    formats = CUSTOM_FORMATS if formats is None else formats
    cell_xf_formats = CELL_XF_FORMATS if cell_xf_formats is None else cell_xf_formats
    head = bof(0x0005, version) + globals_extra + rec(CODEPAGE, struct.pack("<H", code_page))
    head += rec(WINDOW1, struct.pack("<HHHHHHHHH", 0, 0, 0x4000, 0x2000, 0x38, 0, 0, 1, 0x258))
    head += rec(DATEMODE, struct.pack("<H", 1 if date1904 else 0))
    head += b"".join(font() for _ in range(5))
    head += b"".join(rec(FORMAT, struct.pack("<H", fid) + xl_string(code)) for fid, code in formats.items())
    head += b"".join(xf(0, style=True) for _ in range(16)) + b"".join(xf(fid) for fid in cell_xf_formats)
    substreams = []
    for name, dt, body in sheets:
        substreams.append(bof(0x0020 if dt == 2 else 0x0010, version) + body + (window2() if dt == 0 else b"") + rec(EOF))
    def sheet_name(name):
        return xl_string(name, 1) if code_page == 1200 else code_page_string(name, code_page, 1)
    bound_sizes = sum(len(rec(BOUNDSHEET, b"\0" * (6 + len(sheet_name(name))))) for name, _, _ in sheets)
    offset = len(head) + bound_sizes + len(sst) + len(rec(EOF))
    bounds = b""
    for (name, dt, _), sub in zip(sheets, substreams):
        bounds += rec(BOUNDSHEET, struct.pack("<IBB", offset, 1 if name.startswith("Hidden") else 0, dt) + sheet_name(name))
        offset += len(sub)
    return head + bounds + sst + rec(EOF) + b"".join(substreams)


def sheet_body(cells, merges=(), dimensions=(0, 0, 0, 0)):
    body = rec(DIMENSIONS, struct.pack("<IIHHH", dimensions[0], dimensions[1], dimensions[2], dimensions[3], 0))
    body += b"".join(cells)
    for group in [merges[i:i + 1000] for i in range(0, len(merges), 1000)]:
        body += rec(MERGEDCELLS, struct.pack("<H", len(group)) + b"".join(struct.pack("<HHHH", *m) for m in group))
    return body


# MARK: - A small compound-file (OLE2) writer

FREESECT, ENDOFCHAIN, FATSECT, DIFSECT, NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFC, 0xFFFFFFFF


def compound_file(streams, sector_size=512, min_fat_sectors=0):
    """An OLE2 file holding `streams` [(name, bytes)]: streams under 4096 bytes go to the mini stream.
    Layout: FAT, DIFAT, directory, mini FAT, mini stream, then the big streams in order (the last stream ends the file).
    Returns (bytes, {name: [sectors]}) so callers can corrupt chains."""
    S = sector_size
    per = S // 4

    def count(data):
        return (len(data) + S - 1) // S

    mini_data, mini_fat, mini_start = b"", [], {}
    for name, data in streams:
        if len(data) < 4096 and data:
            n = (len(data) + 63) // 64
            mini_start[name] = len(mini_fat)
            mini_fat += [len(mini_fat) + i + 1 for i in range(n - 1)] + [ENDOFCHAIN]
            mini_data += data + b"\0" * (n * 64 - len(data))
    big = [(name, data) for name, data in streams if len(data) >= 4096]
    entries = 1 + len(streams)
    dir_sectors = (entries * 128 + S - 1) // S
    mini_fat_bytes = b"".join(struct.pack("<I", v) for v in mini_fat)
    payload = dir_sectors + count(mini_fat_bytes) + count(mini_data) + sum(count(d) for _, d in big)
    fat_n, difat_n = 1, 0
    while True:
        difat_n = max(0, (fat_n - 109 + per - 2) // (per - 1))
        if fat_n * per >= payload + fat_n + difat_n and fat_n >= min_fat_sectors:
            break
        fat_n += 1
    fat = [FATSECT] * fat_n + [DIFSECT] * difat_n
    sectors = [None] * (fat_n + difat_n)
    chains = {}

    def place(label, data):
        if not data:
            return ENDOFCHAIN
        start = len(sectors)
        n = count(data)
        for i in range(n):
            sectors.append(data[i * S:(i + 1) * S].ljust(S, b"\0"))
            fat.append(start + i + 1 if i < n - 1 else ENDOFCHAIN)
        chains[label] = list(range(start, start + n))
        return start

    # Directory: root, then the streams as a right-leaning chain sorted the way OLE2 compares names.
    order = sorted(range(len(streams)), key=lambda i: (len(streams[i][0]), streams[i][0].upper()))
    right = {order[k]: order[k + 1] + 1 for k in range(len(order) - 1)}
    directory_start = len(sectors)
    placeholder = b"\0" * (dir_sectors * S)
    place("directory", placeholder)
    mini_fat_start = place("mini FAT", mini_fat_bytes)
    mini_stream_start = place("mini stream", mini_data)
    big_start = {name: place(name, data) for name, data in big}

    def entry(name, kind, start, size, child=NOSTREAM, right_sibling=NOSTREAM):
        encoded = (name.encode("utf-16-le") + b"\0\0").ljust(64, b"\0")
        return (encoded + struct.pack("<HBB", (len(name) + 1) * 2, kind, 1)
                + struct.pack("<III", NOSTREAM, right_sibling, child) + b"\0" * 16 + b"\0" * 4 + b"\0" * 16
                + struct.pack("<IQ", start, size))

    directory = entry("Root Entry", 5, mini_stream_start if mini_data else ENDOFCHAIN, len(mini_data),
                      child=order[0] + 1 if order else NOSTREAM)
    for i, (name, data) in enumerate(streams):
        start = big_start[name] if len(data) >= 4096 else (mini_start[name] if data else ENDOFCHAIN)
        directory += entry(name, 2, start, len(data), right_sibling=right.get(i, NOSTREAM))
    empty = b"\0" * 64 + struct.pack("<HBB", 0, 0, 0) + struct.pack("<III", NOSTREAM, NOSTREAM, NOSTREAM) + b"\0" * 48
    directory += empty * ((dir_sectors * S - len(directory)) // 128)
    for i in range(dir_sectors):
        sectors[directory_start + i] = directory[i * S:(i + 1) * S]

    fat += [FREESECT] * (fat_n * per - len(fat))
    fat_bytes = b"".join(struct.pack("<I", v) for v in fat)
    for i in range(fat_n):
        sectors[i] = fat_bytes[i * S:(i + 1) * S]
    difat_ids = list(range(fat_n))
    for d in range(difat_n):
        ids = difat_ids[109 + d * (per - 1):109 + (d + 1) * (per - 1)]
        ids += [FREESECT] * (per - 1 - len(ids))
        nxt = fat_n + d + 1 if d < difat_n - 1 else ENDOFCHAIN
        sectors[fat_n + d] = b"".join(struct.pack("<I", v) for v in ids + [nxt])
    header_difat = (difat_ids[:109] + [FREESECT] * 109)[:109]
    header = (bytes([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) + b"\0" * 16
              + struct.pack("<HHHHH", 0x3E, 3 if S == 512 else 4, 0xFFFE, 9 if S == 512 else 12, 6) + b"\0" * 6
              + struct.pack("<IIIIIIIII", 0 if S == 512 else dir_sectors, fat_n, directory_start, 0, 4096,
                            mini_fat_start, count(mini_fat_bytes), fat_n if difat_n else ENDOFCHAIN, difat_n)
              + b"".join(struct.pack("<I", v) for v in header_difat))
    data = header.ljust(S, b"\0") + b"".join(sectors)
    return data, chains


def patch_fat(data, sector, value, sector_size=512):
    """Sets FAT entry `sector` (the FAT is the file's first sectors) to `value`."""
    data = bytearray(data)
    struct.pack_into("<I", data, sector_size + 4 * sector, value)
    return bytes(data)


# MARK: - A whole workbook from plain rows

# The cell XFs write_xls uses: General, a date (m/d/yyyy), a date and time as OneSite prints it.
_XLS_FORMATS = {164: "mm/dd/yyyy hh:mm:ss AM/PM"}
_XLS_CELL_XFS = [0, 14, 164]
_XLS_GENERAL, _XLS_DATE, _XLS_DATETIME = 16, 17, 18
_EPOCH = datetime.datetime(1899, 12, 30)
# SST and CONTINUE bodies stay under this many bytes (the BIFF8 record limit is 8224).
_SST_LIMIT = 8224


def _serial(value):
    if isinstance(value, datetime.datetime):
        delta = value.replace(tzinfo=None) - _EPOCH
        return delta.days + delta.seconds / 86400
    return (datetime.datetime(value.year, value.month, value.day) - _EPOCH).days


def _shared_string_table(strings):
    """SST + CONTINUE records; a record is only ever cut between two strings (each string fits in one record)."""
    records, current = [], sst_body_start(len(strings), len(strings))
    for text in strings:
        head, body, tail = sst_string(text)
        piece = head + body + tail
        if len(current) + len(piece) > _SST_LIMIT:
            records.append(current)
            current = b""
        current += piece
    records.append(current)
    return rec(SST, records[0]) + b"".join(rec(CONTINUE, r) for r in records[1:])


def write_xls(sheets):
    """A BIFF8 workbook in an OLE2 compound file, as bytes.

    sheets: [(name, rows, merges)] with rows [(row_index, [(column_index, value)])] (0-based; values str, int,
    float, Decimal, bool, datetime.date or datetime.datetime; None is skipped) and merges
    [(first_row, last_row, first_column, last_column)]. Text goes to the shared-string table (LABELSST), numbers to
    NUMBER records, dates to NUMBER under a date format, as Excel's and Crystal's exporters write them."""
    strings, index = [], {}
    bodies = []
    for name, rows, merges in sheets:
        cells, last_row, last_col = [], 0, 0
        for r, values in rows:
            for c, value in values:
                if value is None or value == "":
                    continue
                last_row, last_col = max(last_row, r + 1), max(last_col, c + 1)
                if isinstance(value, bool):
                    cells.append(cell(BOOLERR, r, c, _XLS_GENERAL, bytes([1 if value else 0, 0])))
                elif isinstance(value, datetime.datetime):
                    cells.append(cell(NUMBER, r, c, _XLS_DATETIME, struct.pack("<d", _serial(value))))
                elif isinstance(value, datetime.date):
                    cells.append(cell(NUMBER, r, c, _XLS_DATE, struct.pack("<d", float(_serial(value)))))
                elif isinstance(value, (int, float, Decimal)):
                    cells.append(cell(NUMBER, r, c, _XLS_GENERAL, struct.pack("<d", float(value))))
                else:
                    text = str(value)[:4000]
                    if text not in index:
                        index[text] = len(strings)
                        strings.append(text)
                    cells.append(cell(LABELSST, r, c, _XLS_GENERAL, struct.pack("<I", index[text])))
        bodies.append((name[:31], 0, sheet_body(cells, merges=[(m[0], m[1], m[2], m[3]) for m in merges],
                                                dimensions=(0, last_row, 0, last_col))))
    sst = _shared_string_table(strings) if strings else b""
    stream = workbook_stream(bodies, sst=sst, formats=_XLS_FORMATS, cell_xf_formats=_XLS_CELL_XFS)
    return compound_file([("Workbook", stream)])[0]
