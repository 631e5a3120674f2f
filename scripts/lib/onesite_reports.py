"""OneSite-shaped report workbooks from plain Python data (standard library only).

Each ``write_*`` function lays out one RealPage OneSite report the way its
Crystal "page-image" Excel export looks (or, where the real report is a data-only
"- Excel" export, CSV or HTML, the way that looks) (docs/onesite-reports.md):
a title block (``OneSite Rents v3.0``, ``<Company> - <Property>``, ``Page 1 of N``,
a run timestamp, the UPPERCASE title, the report code, ``As of MM/DD/YYYY``, a
``Parameters:`` cell with newlines), a 2-row header with embedded newlines and
hyphenation and merged group headers, group rows, subtotal/total rows, the header
repeated at page breaks, money as text (``$1,234.50``, ``(125.00)``) in some
columns and numbers in others, dates as text and as Excel serials.

Used by scripts/fixtures/make_report_fixtures.py and by the PMS simulator
(scripts/pms_sim). The API below is stable: add keyword arguments, do not change
or remove existing ones.

Common arguments of every writer
--------------------------------
dest           path (str / PathLike) or a writable binary file object
property_name  e.g. "Nexus East"; printed as "<company> - <property_name>"
as_of          datetime.date or "YYYY-MM-DD" text
company        management company, default "Kairoi Residential"
run_at         datetime of the run timestamp (default: as_of at 06:58:21 AM)
page_size      data rows per page: the title lines and header repeat after each
               page (default: no page breaks)
shared_strings True (default) for a shared-string table, False for inline strings

Money values are int/float/Decimal dollars (or None for blank); dates are
datetime.date/datetime or "YYYY-MM-DD" text (or None).

write_box_score(dest, property_name, as_of, floorplans, *, start_date=None, property_totals=None, ...)
    floorplans: list of dicts, in print order, grouped by "group" (a group's rows
    should be adjacent):
      group              floor plan group label, e.g. "1x1" (optional)
      floorplan          floor plan code, e.g. "A1"                       (required)
      units              total units                                     (required)
      vacant_not_leased, vacant_leased, model, down                       counts (default 0)
      occupied_no_ntv, ntv_not_leased, ntv_leased                         counts (default 0)
      avg_sqft, avg_market_rent, avg_leased_rent                          optional numbers
    Total Vacant / Total Occupied / percents are computed. property_totals: dict of
    column overrides for the "Property Totals" row (keys as above plus
    total_vacant, total_occupied), to build a file whose totals do not add up.

write_rent_roll(dest, property_name, as_of, units, ...)
    units: iterable of dicts (may be a generator: rows stream to the file):
      unit (required), floorplan, sqft, status (e.g. "Occupied no NTV", "Vacant"),
      name, resident_id, move_in, move_out, lease_start, lease_end,
      market_rent, balance, dep_on_hand,
      lease_rent         rent of the current lease; printed on the unit row with code RENT
                         when "charges" is absent
      charges            list of {"code", "lease_rent", "other"}: one Trans Code row each,
                         the first printed on the unit row; the unit's actual rent is the
                         sum of their lease_rent
      others             list of dicts for applicants / former residents of the unit
                         (name, status, move_in, move_out, lease_start, lease_end,
                         lease_rent, balance, charges): printed under the unit with
                         "*"-marked amounts, excluded from totals
    A "Totals:" row, then the "Rent Analysis by Floor Plan" and "Occupancy and
    Rents Summary" sections follow the detail.

write_rent_roll_charge_columns(dest, property_name, as_of, units, *, codes=None, display="Market + Addl.", ...)
    The Rent Roll Detail as sites save it to CSV: one row per unit, one column per charge code
    (units: unit, floorplan, designation, sqft, status, name, phone, email, move_in, notice_for,
    move_out, lease_start, lease_end, market_rent, dep_on_hand, balance, charges {code: amount}),
    a TOTAL row, and the title block repeated in the last column.

write_delinquent_prepaid(dest, property_name, as_of, accounts, *, fiscal_period=None, ...)
    accounts: iterable of dicts:
      unit, name, phone, email, resident_id, status ("Current resident", "Former resident", ...),
      move_in, move_out, deposits_held, outstanding_deposit, late_nsf ("0/1"),
      codes: list of {"code", "description", "prepaid", "delinquent", "current",
                      "days_30", "days_60", "days_90_plus"}  (amounts in dollars,
                      prepaid positive; printed negative as OneSite does)
      subtotals: optional dict overriding the printed "Subtotals:" amounts
    fiscal_period: "MMYYYY" (default from as_of).

write_delinquency(dest, property_name, as_of, residents, ...)
    The simple one-row-per-resident layout. residents: iterable of dicts:
      unit, resident_id, name, status, balance, b0_30, b31_60, b61_90, over_90, prepaid

write_activity(dest, property_name, start_date, end_date, activities, ...)
    activities: iterable of dicts, grouped by "agent" in print order:
      date (date or datetime), type, unit, name, source, agent, notes
    as_of is end_date (the title prints the date range).

write_monthly_activity_summary(dest, property_name, start_date, as_of, floorplans, events, ...)
    floorplans: list of dicts: floorplan, units, market_rent (total), base_rent, sqft,
      occupied_no_ntv, vacant_not_leased, vacant_leased, ntv_not_leased, ntv_leased,
      vacant_admin, vacant_down, move_ins, move_outs, cancellations, renewals, leases,
      rent_charged, other_charges, payments, other_credits, deposits_in, deposits_out
    events: list of dicts: unit, status, name, action, date. action is one of
      ACTIONS ("Lease approved", "Moved In", "Moved Out", "Move Out Notice",
      "Transfer Notice", "Renewed Lease", "Transferred to New Unit"); printed grouped
      by action, each group ending "Total <action>: N".

write_lease_expiration(dest, property_name, as_of, leases, *, with_decision=False, ...)
    leases: iterable of dicts:
      unit, floorplan, sqft, name, phone, email, term (months or "MTM"), lease_end,
      move_in, expected_move_out, do_not_renew (bool), late_nsf, last_rent_change,
      market_rent, lease_rent, other_charges, balance, decision (with_decision=True)
    Grouped: MTM leases (term "MTM") first, then by lease_end month, each group
    ending "Total leases expiring in <Month YYYY>: N"; last row "Total leases: N".

The rest of the catalogue (each writer's docstring has its arguments):

write_income_statement(dest, property_name, as_of, sections, *, fiscal_period=None, total_overrides=None, ...)
write_income_statement_worksheet(dest, property_name, as_of, lines, *, fiscal_period=None, ...)
write_income_statement_worksheet_html(dest, property_name, as_of, lines, *, fiscal_period=None, ...)
write_make_ready_summary(dest, property_name, as_of, units, *, total_units=None, ...)
write_closed_make_ready(dest, property_name, start_date, end_date, units, *, total_overrides=None, ...)
write_monthly_transaction_summary(dest, property_name, as_of, categories, *, fiscal_period=None,
                                  total_overrides=None, ...)
write_renewal_detail(dest, property_name, as_of, leases, *, total_overrides=None, ...)
write_lease_expiration_renewal_excel(dest, property_name, start_date, end_date, leases, ...)   data-only, 6 sheets
write_projected_occupancy(dest, property_name, as_of, total_units, occupied, weeks, ...)
write_lost_rent_summary(dest, property_name, as_of, units, *, fiscal_period=None, ...)          data-only
write_lost_rent_by_floorplan(dest, property_name, as_of, floorplans, *, total_overrides=None, ...)
write_primary_advertising_source(dest, property_name, start_date, end_date, sources, *, total_overrides=None, ...)
write_reasons_for_move_out(dest, property_name, start_date, end_date, categories, *, residents=(), ...)
write_lease_details(dest, leases, *, columns=None, ...)                                        data-only
write_lease_details_report(dest, property_name, as_of, leases, *, total_overrides=None, ...)
write_leasing_activity_detail(dest, property_name, start_date, end_date, contacts, *, data_only=False, ...)
"""

import datetime
import os
import sys
from decimal import Decimal, ROUND_HALF_UP

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xlsx_writer import XlsxWriter  # noqa: E402

__all__ = [
    "ACTIONS", "write_box_score", "write_rent_roll", "write_delinquent_prepaid", "write_delinquency",
    "write_activity", "write_monthly_activity_summary", "write_lease_expiration", "money_text", "date_text",
    "write_income_statement", "write_income_statement_worksheet", "write_income_statement_worksheet_html",
    "write_make_ready_summary", "write_closed_make_ready", "write_monthly_transaction_summary", "write_renewal_detail",
    "write_lease_expiration_renewal_excel", "write_projected_occupancy", "write_lost_rent_summary",
    "write_lost_rent_by_floorplan", "write_primary_advertising_source", "write_reasons_for_move_out",
    "write_lease_details", "write_lease_details_report", "write_leasing_activity_detail",
    "write_rent_roll_charge_columns", "rent_roll_code_order",
]

ACTIONS = ["Lease approved", "Moved In", "Moved Out", "Move Out Notice", "Transfer Notice", "Renewed Lease",
           "Transferred to New Unit"]

DEFAULT_COMPANY = "Kairoi Residential"
PRODUCT_LINE = "OneSite Rents v3.0"


# ----------------------------------------------------------------------------------------
# Value formatting
# ----------------------------------------------------------------------------------------

def _date(value):
    if value is None or value == "":
        return None
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value
    return datetime.date.fromisoformat(str(value)[:10])


def date_text(value):
    """MM/DD/YYYY, the way OneSite prints dates as text."""
    value = _date(value)
    return None if value is None else f"{value.month:02d}/{value.day:02d}/{value.year:04d}"


def date_in(value, style="text"):
    """A date as a report prints it: style "text" MM/DD/YYYY; "dmy" dd/mm/yyyy (a property with a non-US locale);
    "serial" the bare Excel serial number (no date format), as some exports store dates."""
    value = _date(value)
    if value is None:
        return None
    if style == "dmy":
        return f"{value.day:02d}/{value.month:02d}/{value.year:04d}"
    if style == "serial":
        return _serial(value)
    return date_text(value)


def _serial(value):
    """Excel 1900-system serial of a date, as a bare number (no date format), as some OneSite exports store it."""
    value = _date(value)
    if value is None:
        return None
    return (datetime.date(value.year, value.month, value.day) - datetime.date(1899, 12, 30)).days


def _cents(value):
    return Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def money_text(value, style="text"):
    """Money as OneSite prints it as text.

    style "text": 1,234.50 / (125.00); "dollar": $1,234.50 / ($125.00); "minus": -5,675.60;
    "trailing": 125.00-; "number": the plain number (not text).
    """
    if value is None:
        return None
    amount = _cents(value)
    if style == "number":
        return float(amount)
    magnitude = f"{abs(amount):,.2f}"
    negative = amount < 0
    if style == "text":
        return f"({magnitude})" if negative else magnitude
    if style == "dollar":
        return f"(${magnitude})" if negative else f"${magnitude}"
    if style == "minus":
        return f"-{magnitude}" if negative else magnitude
    if style == "trailing":
        return f"{magnitude}-" if negative else magnitude
    raise ValueError(f"unknown money style {style!r}")


def _sum(values):
    return sum((_cents(v) for v in values if v is not None), Decimal("0.00"))


# ----------------------------------------------------------------------------------------
# Title block and page structure
# ----------------------------------------------------------------------------------------

class _Page:
    """Writes the title block and header, and repeats them every page_size data rows."""

    def __init__(self, sheet, *, company, property_name, title, code, as_of_line, parameters, run_at, width,
                 header_rows, merges, page_size, pages, extra_title_lines=(), day_first=False):
        self.sheet = sheet
        self.company_line = f"{company} - {property_name}"
        self.title = title
        self.code = code
        self.as_of_line = as_of_line
        self.parameters = parameters
        self.run_at = run_at
        self.width = width
        self.header_rows = header_rows
        self.merges = merges
        self.page_size = page_size
        self.pages = pages
        self.extra_title_lines = list(extra_title_lines)
        self.day_first = day_first
        self.page = 0
        self.rows_on_page = 0

    def _stamp(self):
        stamp = self.run_at
        hour = stamp.hour % 12 or 12
        suffix = "AM" if stamp.hour < 12 else "PM"
        first, second = (stamp.day, stamp.month) if self.day_first else (stamp.month, stamp.day)
        return f"{first:02d}/{second:02d}/{stamp.year} {hour:02d}:{stamp.minute:02d}:{stamp.second:02d}{suffix}"

    def _right(self, text):
        row = [None] * self.width
        row[-1] = text
        return row

    def start(self):
        self.page += 1
        self.rows_on_page = 0
        sheet = self.sheet
        page_text = f"Page {self.page} of {self.pages}"
        first = [PRODUCT_LINE] + [None] * (self.width - 1)
        first[-1] = page_text
        sheet.row(first)
        second = [self.company_line] + [None] * (self.width - 1)
        second[-1] = self._stamp()
        sheet.row(second)
        sheet.row([self.title])
        if self.page == 1:
            if self.code:
                sheet.row([self.code])
            if self.as_of_line:
                sheet.row([self.as_of_line])
            for line in self.extra_title_lines:
                sheet.row(line if isinstance(line, list) else [line])
            if self.parameters:
                sheet.row(["Parameters:\n" + "\n".join(self.parameters)])
        sheet.blank()
        first_header = sheet.next_row
        for values in self.header_rows:
            sheet.row(values)
        for (row_offset, first_col, last_offset, last_col) in self.merges:
            sheet.merge(first_header + row_offset, first_col, first_header + last_offset, last_col)

    def data_row(self, values):
        """Writes a data row, breaking the page first when it is full."""
        if self.page_size and self.rows_on_page >= self.page_size:
            self.sheet.blank()
            self.start()
        self.rows_on_page += 1
        return self.sheet.row(values)


def _pages_for(count, page_size):
    if not page_size or count is None:
        return 1
    return max(1, -(-count // page_size))


def _run_at(as_of, run_at):
    if run_at is not None:
        return run_at
    day = _date(as_of)
    return datetime.datetime(day.year, day.month, day.day, 6, 58, 21)


def _count(items):
    try:
        return len(items)
    except TypeError:
        return None


# ----------------------------------------------------------------------------------------
# Box Score
# ----------------------------------------------------------------------------------------

BOX_SCORE_HEADER = [
    [None, None, None, "Vacant", None, None, None, None, "Occupied", None, None, None, None, None, None, None, None],
    ["Floor Plan\nGroup", "Floor Plan", "Units", "Total\nVacant", "Not\nLeased", "Leased", "Model/\nAdmin", "Down",
     "Total\nOccupied", "No NTV", "NTV-NL", "NTV-L", "Occupancy\nPercent", "Avg Market\nRent", "Avg Leased\nRent",
     "Net Leased\nPercent", "Avg\nSqFt"],
]


def _box_counts(fp):
    vacant = [fp.get("vacant_not_leased", 0), fp.get("vacant_leased", 0), fp.get("model", 0), fp.get("down", 0)]
    occupied = [fp.get("occupied_no_ntv", 0), fp.get("ntv_not_leased", 0), fp.get("ntv_leased", 0)]
    return vacant, occupied


def _box_row(label_group, label_fp, units, vacant, occupied, total_vacant, total_occupied, sqft=None,
             market=None, leased=None):
    occupancy = f"{(Decimal(total_occupied) * 100 / units):.2f}" if units else "0.00"
    net_leased = (vacant[1] + occupied[0] + occupied[2])
    net_leased_pct = f"{(Decimal(net_leased) * 100 / units):.2f}%" if units else "0.00%"
    return [label_group, label_fp, units, total_vacant, vacant[0], vacant[1], vacant[2], vacant[3],
            total_occupied, occupied[0], occupied[1], occupied[2], occupancy,
            money_text(market, "number") if market is not None else None,
            money_text(leased, "dollar") if leased is not None else None,
            net_leased_pct, sqft]


def write_box_score_error(dest, property_name, property_date, start_date, end_date, message, *,
                          company=DEFAULT_COMPANY, run_at=None, shared_strings=True):
    """The "error-as-report" Box Score: a normal file holding only the title block and RealPage's message
    (e.g. the end date is after the property date)."""
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Report") as sheet:
        page = _Page(sheet, company=company, property_name=property_name, title="BOXSCORE", code="120.080.305",
                     as_of_line=f"Start Date: {date_text(start_date) or ''}   End Date: {date_text(end_date) or ''}",
                     parameters=[], run_at=_run_at(property_date, run_at), width=1, header_rows=[], merges=[],
                     page_size=None, pages=1)
        page.start()
        sheet.row([message])


def write_box_score(dest, property_name, as_of, floorplans, *, start_date=None, property_totals=None,
                    company=DEFAULT_COMPANY, run_at=None, page_size=None, shared_strings=True):
    """Box Score (4238): Unit Status section by floor plan group, then the Availability section."""
    floorplans = list(floorplans)
    as_of_d = _date(as_of)
    start = _date(start_date) or as_of_d.replace(day=1)
    width = len(BOX_SCORE_HEADER[1])
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Report") as sheet:
        page = _Page(sheet, company=company, property_name=property_name, title="BOXSCORE", code="120.080.305",
                     as_of_line=f"{date_text(start)} - {date_text(as_of_d)}",
                     parameters=["SubProperty: ALL", "ShowUnitDesignations: Yes"],
                     run_at=_run_at(as_of, run_at), width=width, header_rows=BOX_SCORE_HEADER,
                     merges=[(0, 3, 0, 7), (0, 8, 0, 11)], page_size=page_size,
                     pages=_pages_for(len(floorplans) + 8, page_size), extra_title_lines=["Unit Status"])
        page.start()
        all_units = 0
        all_vacant = [0, 0, 0, 0]
        all_occupied = [0, 0, 0]
        group, started = None, False
        group_units, group_vacant, group_occupied = 0, [0, 0, 0, 0], [0, 0, 0]

        def group_total():
            page.data_row(_box_row("Total", None, group_units, group_vacant, group_occupied, sum(group_vacant),
                                   sum(group_occupied)))

        for fp in floorplans:
            if not started or fp.get("group") != group:
                if started and group is not None:
                    group_total()
                group, started = fp.get("group"), True
                group_units, group_vacant, group_occupied = 0, [0, 0, 0, 0], [0, 0, 0]
                if group is not None:
                    page.data_row([group])
            vacant, occupied = _box_counts(fp)
            page.data_row(_box_row(None, fp["floorplan"], fp["units"], vacant, occupied, sum(vacant), sum(occupied),
                                   fp.get("avg_sqft"), fp.get("avg_market_rent"), fp.get("avg_leased_rent")))
            group_units += fp["units"]
            all_units += fp["units"]
            for i in range(4):
                group_vacant[i] += vacant[i]
                all_vacant[i] += vacant[i]
            for i in range(3):
                group_occupied[i] += occupied[i]
                all_occupied[i] += occupied[i]
        if started and group is not None:
            group_total()
        totals = _box_row("Property Totals", None, all_units, all_vacant, all_occupied, sum(all_vacant),
                          sum(all_occupied))
        overrides = {"units": 2, "total_vacant": 3, "vacant_not_leased": 4, "vacant_leased": 5, "model": 6,
                     "down": 7, "total_occupied": 8, "occupied_no_ntv": 9, "ntv_not_leased": 10, "ntv_leased": 11}
        for key, value in (property_totals or {}).items():
            totals[overrides[key]] = value
        page.data_row(totals)
        # The next section: the parser must stop before it.
        sheet.blank()
        sheet.row(["Availability/Exposure"])
        sheet.row([None, "Number", "%"])
        total_vacant = sum(all_vacant)
        pct = (lambda n: f"{(Decimal(n) * 100 / all_units):.2f}" if all_units else "0.00")
        sheet.row(["Total Vacant Units", total_vacant, pct(total_vacant)])
        sheet.row(["Vacant Units Leased", all_vacant[1], pct(all_vacant[1])])
        sheet.row(["Occupied On-Notice", all_occupied[1] + all_occupied[2], pct(all_occupied[1] + all_occupied[2])])


# ----------------------------------------------------------------------------------------
# Rent Roll
# ----------------------------------------------------------------------------------------

RENT_ROLL_HEADER = [
    [None, "Floor", None, "Unit/Lease", None, "Move-In/", "Lease", "Lease", "Market", "Trans", "Lease",
     "Other Charges/", "Total", "Dep on", None],
    ["Unit", "Plan", "SQFT", "Status", "Name", "Move-Out", "Start", "End", "+ Addl.", "Code", "Rent", "Credits",
     "Billing", "Hand", "Balance"],
]


def _charges_of(entry):
    charges = entry.get("charges")
    if charges:
        return list(charges)
    if entry.get("lease_rent") is not None:
        return [{"code": "RENT", "lease_rent": entry["lease_rent"]}]
    return []


def _move_text(move_in, move_out):
    if move_in is None and move_out is None:
        return None
    if move_out is None:
        return date_text(move_in)
    return f"{date_text(move_in) or ''}\n{date_text(move_out)}"


def _marked(text):
    return None if text is None else f"*{text}"


def _page_image(values, row_index, layout, markers=None):
    """A logical row as the sheet holds it. layout "dense": one sheet column per header (markers, which need a cell
    of their own, are not printed); "spaced": the page-image spacing (column k at DRIFT_SPACING*k+1); "drift": that
    spacing with every value moved by the drift cycle, differently from row to row. `markers` {k: text} puts a
    marker in the cell right after value k (the cell of its own OneSite prints it in)."""
    if layout == "dense":
        return list(values)
    out = list(_drifted(values, row_index, "values" if layout == "drift" else "header"))
    for k, marker in sorted((markers or {}).items()):
        if values[k] is None:
            continue
        shift = DRIFT_CYCLE[(row_index * 3 + k) % len(DRIFT_CYCLE)] if layout == "drift" else 0
        if k == 0:
            shift = max(shift, 0)
        position = DRIFT_SPACING * k + 1 + shift + 1
        while len(out) <= position:
            out.append(None)
        if out[position] is None:
            out[position] = marker
    return out


def _layout_width(logical_width, layout):
    return logical_width if layout == "dense" else DRIFT_SPACING * logical_width + 2


def write_rent_roll(dest, property_name, as_of, units, *, company=DEFAULT_COMPANY, run_at=None, page_size=None,
                    shared_strings=True, drift=False, date_style="text", hide_names=False):
    """Rent Roll Detail (4043): unit rows, Trans Code rows, applicant/former rows, totals, summary sections.

    drift=True writes the page-image layout with values moved -1..+2 columns from their headers from row to row;
    date_style "dmy" prints dates dd/mm/yyyy, "serial" stores Lease Start / Lease End (and a lone Move-In) as bare
    Excel serial numbers; hide_names=True blanks the Name column (the HidePIIData option)."""
    count = _count(units)
    layout = "drift" if drift else "dense"
    logical_width = len(RENT_ROLL_HEADER[1])
    width = _layout_width(logical_width, layout)
    header = [_page_image(row, 0, "spaced") for row in RENT_ROLL_HEADER] if drift else RENT_ROLL_HEADER
    row_index = [0]

    def dated(value):
        return date_in(value, date_style)

    def moved(move_in, move_out):
        if date_style == "serial" and move_out is None and move_in is not None:
            return _serial(move_in)
        if move_in is None and move_out is None:
            return None
        style = "dmy" if date_style == "dmy" else "text"
        if move_out is None:
            return date_in(move_in, style)
        return f"{date_in(move_in, style) or ''}\n{date_in(move_out, style)}"

    class _Rows:
        def __init__(self, page):
            self.page = page

        def data_row(self, values):
            row_index[0] += 1
            return self.page.data_row(_page_image(values, row_index[0], layout))

    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Report") as sheet:
        page = _Page(sheet, company=company, property_name=property_name, title="RENT ROLL DETAIL", code=None,
                     as_of_line=f"As of {date_in(as_of, 'dmy' if date_style == 'dmy' else 'text')}",
                     parameters=["Report Type: Details + Summary", "Market Rent Type: Market + Addl.",
                                 "Exclude Formers: No"] + (["HideAllPIIData: Yes"] if hide_names else []),
                     run_at=_run_at(as_of, run_at), width=width, header_rows=header, merges=[],
                     page_size=page_size, pages=_pages_for(count, page_size), day_first=date_style == "dmy")
        page.start()
        page = _Rows(page)
        market_total = rent_total = balance_total = Decimal("0.00")
        by_plan = {}
        for unit in units:
            charges = _charges_of(unit)
            first = charges[0] if charges else {}
            row = [unit["unit"], unit.get("floorplan"), unit.get("sqft"), unit.get("status"),
                   None if hide_names else unit.get("name"),
                   moved(_date(unit.get("move_in")), _date(unit.get("move_out"))),
                   dated(unit.get("lease_start")), dated(unit.get("lease_end")),
                   money_text(unit.get("market_rent"), "number"), first.get("code"),
                   money_text(first.get("lease_rent"), "text"), money_text(first.get("other"), "text"),
                   money_text(_sum([first.get("lease_rent"), first.get("other")]), "text") if first else None,
                   money_text(unit.get("dep_on_hand"), "number"), money_text(unit.get("balance"), "dollar")]
            page.data_row(row)
            for charge in charges[1:]:
                page.data_row([None] * 9 + [charge.get("code"), money_text(charge.get("lease_rent"), "text"),
                                            money_text(charge.get("other"), "text"),
                                            money_text(_sum([charge.get("lease_rent"), charge.get("other")]), "text")])
            rent = _sum(c.get("lease_rent") for c in charges)
            market_total += _sum([unit.get("market_rent")])
            rent_total += rent
            balance_total += _sum([unit.get("balance")])
            plan = by_plan.setdefault(unit.get("floorplan") or "", {"units": 0, "market": Decimal(0), "occupied": 0})
            plan["units"] += 1
            plan["market"] += _sum([unit.get("market_rent")])
            if (unit.get("status") or "").lower().startswith("occupied"):
                plan["occupied"] += 1
            for other in unit.get("others", []):
                other_charges = _charges_of(other)
                head = other_charges[0] if other_charges else {}
                page.data_row([None, None, None, other.get("status"), None if hide_names else other.get("name"),
                               moved(_date(other.get("move_in")), _date(other.get("move_out"))),
                               dated(other.get("lease_start")), dated(other.get("lease_end")),
                               None, head.get("code"), _marked(money_text(head.get("lease_rent"), "text")),
                               _marked(money_text(head.get("other"), "text")), None, None,
                               _marked(money_text(other.get("balance"), "text"))])
                for charge in other_charges[1:]:
                    page.data_row([None] * 9 + [charge.get("code"), _marked(money_text(charge.get("lease_rent"))),
                                                _marked(money_text(charge.get("other")))])
        totals = ["Totals:", None, None, None, None, None, None, None, float(market_total), None,
                  money_text(rent_total, "text"), None, None, None, money_text(balance_total, "dollar")]
        sheet.row(_page_image(totals, 0, "spaced") if drift else totals)
        sheet.blank()
        sheet.row(["Rent Analysis by Floor Plan"])
        sheet.row(["Floor Plan", "# Units", "Average Market + Addl.", "Units Occupied", "Occupancy %"])
        for plan, numbers in by_plan.items():
            avg = numbers["market"] / numbers["units"] if numbers["units"] else Decimal(0)
            pct = Decimal(numbers["occupied"]) * 100 / numbers["units"] if numbers["units"] else Decimal(0)
            sheet.row([plan, numbers["units"], money_text(avg, "text"), numbers["occupied"], f"{pct:.2f}"])
        sheet.blank()
        sheet.row(["Occupancy and Rents Summary"])
        sheet.row(["Unit Status", "# Units", "Market + Addl."])
        sheet.row(["All units", sum(p["units"] for p in by_plan.values()), money_text(market_total, "dollar")])


# The Rent Roll Detail as sites save it to CSV: the charge codes as columns (docs/onesite-reports.md, "Rent Roll
# Detail (4043)", "Charge codes as columns").
RENT_ROLL_CODES_HEAD = ["Unit", "Floor Plan", "Unit Designation", "SQFT", "Unit/Lease Status", "Name", "Phone Number",
                        "Email", "Move-In", "Notice For Date", "Move-Out", "Lease Start", "Lease End"]
RENT_ROLL_CODES_MONEY = ["Dep On Hand", "Balance", "Total Charges"]


def _plain_amount(value, numbers):
    """A unit row's amount: two decimals, a leading minus (text), or the number itself."""
    if value is None:
        return None
    amount = _cents(value)
    return float(amount) if numbers else f"{amount:.2f}"


def _short_date(value, day_first=False):
    """M/D/YYYY (D/M/YYYY day_first), as the title block prints its dates."""
    value = _date(value)
    first, second = (value.day, value.month) if day_first else (value.month, value.day)
    return f"{first}/{second}/{value.year}"


def _short_stamp(moment, day_first=False):
    hour = moment.hour % 12 or 12
    return (f"{_short_date(moment.date(), day_first)} {hour}:{moment.minute:02d}:{moment.second:02d} "
            f"{'AM' if moment.hour < 12 else 'PM'}")


def rent_roll_code_order(units):
    """The charge codes in the order a unit first bills them: the columns the export prints."""
    codes = []
    for unit in units:
        for code in (unit.get("charges") or {}):
            if code not in codes:
                codes.append(code)
    return codes


def write_rent_roll_charge_columns(dest, property_name, as_of, units, *, codes=None, display="Market + Addl.",
                                   run_at=None, numbers=False, empty_columns=3, total_overrides=None,
                                   date_style="text"):
    """Rent Roll Detail as a site saves it to CSV ("RENT ROLL DETAIL", one row per unit, one column per charge code).

    Title block, one line per row in column A: the property name, RENT ROLL DETAIL, the run time (M/D/YYYY
    H:MM:SS AM), `As of Date: M/D/YYYY`, the Parameters line naming `Display - <display>`. Then the header: Unit,
    Floor Plan, Unit Designation, SQFT, Unit/Lease Status, Name, Phone Number, Email, Move-In, Notice For Date,
    Move-Out, Lease Start, Lease End, <display> (`Market + Addl.` or `Market Rent`), Dep On Hand, Balance, Total
    Charges, one column per code (its name padded with blanks to 30 characters), then `empty_columns` empty columns.
    One row per unit; amounts with two decimals and a leading minus (numbers=True: as numbers, the .xlsx form);
    a blank row, `TOTAL` with every money column summed and printed with thousands separators, a blank row, and the
    title block again in the last column.

    units: dicts: unit, floorplan, designation, sqft, status (`Occupied`, `Occupied-NTV`, ...), name, phone, email,
    move_in, notice_for, move_out, lease_start, lease_end, market_rent, dep_on_hand, balance, charges ({code:
    amount}); Total Charges is the sum of the charges; a unit prints the dates it is given (a vacant unit none).
    codes: the code columns in print order (default: as the units first bill them). total_overrides: {column header
    or code: amount} printed in TOTAL instead of the sum (a file whose totals do not add up). date_style "dmy":
    every date day first (a property with a non-US locale), the title's too."""
    units = list(units)
    codes = list(codes) if codes is not None else rent_roll_code_order(units)
    header = (RENT_ROLL_CODES_HEAD + [display] + RENT_ROLL_CODES_MONEY + [code.ljust(30) for code in codes]
              + [None] * empty_columns)
    width = len(header)
    day_first = date_style == "dmy"
    stamp = _short_stamp(_run_at(as_of, run_at), day_first)
    title = [property_name, "RENT ROLL DETAIL", stamp, f"As of Date: {_short_date(as_of, day_first)}",
             "Parameters: Property - ALL; Unit Designation - ALL; Subjournal - ALL; Sort By - Unit; "
             f"Display - {display}"]
    money_columns = [display] + RENT_ROLL_CODES_MONEY + codes
    sums = {column: Decimal("0.00") for column in money_columns}
    with XlsxWriter(dest) as book, book.sheet("Report") as sheet:
        for line in title:
            sheet.row([line])
        sheet.row(header)
        for unit in units:
            charges = unit.get("charges") or {}
            total = _sum(charges.values()) if charges else Decimal("0.00")
            amounts = {display: unit.get("market_rent"), "Dep On Hand": unit.get("dep_on_hand", 0),
                       "Balance": unit.get("balance", 0), "Total Charges": total}
            amounts.update({code: charges.get(code, 0) for code in codes})
            for column in money_columns:
                sums[column] += _sum([amounts[column]])
            dates = [date_in(unit.get(key), "dmy" if day_first else "text")
                     for key in ("move_in", "notice_for", "move_out", "lease_start", "lease_end")]
            row = [unit["unit"], unit.get("floorplan"), unit.get("designation"),
                   str(unit["sqft"]) if unit.get("sqft") is not None else None, unit.get("status"), unit.get("name"),
                   unit.get("phone"), unit.get("email")] + dates
            row += [_plain_amount(amounts[column], numbers) for column in money_columns]
            sheet.row(row + [None] * empty_columns)
        sheet.blank()
        printed = dict(sums)
        printed.update({key: _cents(value) for key, value in (total_overrides or {}).items()})
        sheet.row(["TOTAL"] + [None] * (len(RENT_ROLL_CODES_HEAD) - 1)
                  + [money_text(printed[column], "minus") for column in money_columns] + [None] * empty_columns)
        sheet.blank()
        for line in title:
            sheet.row([None] * (width - 1) + [line])


# ----------------------------------------------------------------------------------------
# Delinquent and Prepaid (per transaction code) and the simple Delinquency layout
# ----------------------------------------------------------------------------------------

DELINQUENT_PREPAID_HEADER = [
    [None, "Name /", None, "Move-In/", "Code /", "Total", "Total", "Net", None, "30", "60", "90+", "Prorate",
     "Deposits", "Outstanding", "# Late/"],
    ["Unit", "Phone Number / Email", "Status", "Out", "Description", "Prepaid", "Delinquent", "Balance", "Current",
     "Days", "Days", "Days", "Credits", "Held", "Deposit", "# NSF"],
]

_DP_KEYS = ["prepaid", "delinquent", "current", "days_30", "days_60", "days_90_plus"]


def _dp_amounts(amounts, style):
    prepaid = _sum([amounts.get("prepaid")])
    delinquent = _sum([amounts.get("delinquent")])
    return [money_text(-prepaid, style), money_text(delinquent, style), money_text(delinquent - prepaid, style),
            money_text(_sum([amounts.get("current")]), style), money_text(_sum([amounts.get("days_30")]), style),
            money_text(_sum([amounts.get("days_60")]), style),
            money_text(_sum([amounts.get("days_90_plus")]), style)]


# Legend markers of Delinquent and Prepaid (printed in a cell of their own beside what they qualify).
MARKER_NSF, MARKER_120, MARKER_CASH = "\u2020", "\u2021", "\u00a7"


def write_delinquent_prepaid(dest, property_name, as_of, accounts, *, fiscal_period=None, company=DEFAULT_COMPANY,
                             run_at=None, page_size=None, shared_strings=True, drift=False, markers=False,
                             date_style="text", hide_names=False):
    """Delinquent and Prepaid (4009): per account a row, one row per code, Subtotals:, then the trailer sections.

    drift=True: the page-image layout, values moved -1..+2 columns from their headers from row to row. markers=True:
    the legend's markers in cells of their own right of what they qualify (the page-image spacing leaves room for
    them): \u2021 beside a 90+ Days amount, \u2020 beside the amounts of a code flagged `nsf`, \u00a7 beside a code
    flagged `cash_basis`. date_style "dmy" / "serial": Move-In/Out dates dd/mm/yyyy / bare Excel serials (a move-in
    alone; stacked move-in/out stay text). hide_names=True: no name, phone or e-mail (HidePIIData)."""
    as_of_d = _date(as_of)
    period = fiscal_period or f"{as_of_d.month:02d}{as_of_d.year}"
    accounts = list(accounts)
    layout = "drift" if drift else ("spaced" if markers else "dense")
    width = _layout_width(len(DELINQUENT_PREPAID_HEADER[1]), layout)
    header = DELINQUENT_PREPAID_HEADER if layout == "dense" else [_page_image(row, 0, "spaced")
                                                                  for row in DELINQUENT_PREPAID_HEADER]
    day_first = date_style == "dmy"
    row_index = [0]

    def moved(move_in, move_out):
        if date_style == "serial" and move_out is None and move_in is not None:
            return _serial(move_in)
        if move_in is None and move_out is None:
            return None
        style = "dmy" if day_first else "text"
        if move_out is None:
            return date_in(move_in, style)
        return f"{date_in(move_in, style) or ''}\n{date_in(move_out, style)}"

    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Report") as sheet:
        as_of_text = date_in(as_of_d, "dmy" if day_first else "text")
        page = _Page(sheet, company=company, property_name=property_name, title="DELINQUENT AND PREPAID",
                     code="120.080.106", as_of_line=f"Fiscal Period {period} As of {as_of_text}",
                     parameters=["Report Type: Details", "Subproperties: All", "Subjournals: All",
                                 "Statuses to include: Current resident, Notice, Former resident"]
                     + (["HidePIIData: Yes"] if hide_names else []),
                     run_at=_run_at(as_of, run_at), width=width, header_rows=header, merges=[],
                     page_size=page_size, pages=_pages_for(len(accounts) * 4, page_size),
                     extra_title_lines=[f"Detail - {len(accounts)} Account(s)"], day_first=day_first)
        page.start()
        raw_page = page

        class _Rows:
            def data_row(self, values, marks=None):
                row_index[0] += 1
                return raw_page.data_row(_page_image(values, row_index[0], layout, marks if markers else None))
        page = _Rows()
        totals = {key: Decimal("0.00") for key in _DP_KEYS}
        by_code = {}
        for account in accounts:
            name = "" if hide_names else "\n".join(
                part for part in [account.get("name"), account.get("phone"), account.get("email")] if part)
            page.data_row([account.get("unit"), name or None, account.get("status"),
                           moved(_date(account.get("move_in")), _date(account.get("move_out"))),
                           None, None, None, None, None, None, None, None, None,
                           money_text(account.get("deposits_held"), "number"),
                           money_text(account.get("outstanding_deposit"), "number"), account.get("late_nsf")])
            sums = {key: Decimal("0.00") for key in _DP_KEYS}
            for code in account.get("codes", []):
                label = code["code"] if not code.get("description") else f"{code['code']}\n{code['description']}"
                marks = {}
                if code.get("cash_basis"):
                    marks[4] = MARKER_CASH
                if code.get("nsf"):
                    marks.update({6: MARKER_NSF, 7: MARKER_NSF})
                if _sum([code.get("days_90_plus")]) != 0:
                    marks[11] = MARKER_120
                page.data_row([None, None, None, None, label] + _dp_amounts(code, "text"), marks)
                for key in _DP_KEYS:
                    sums[key] += _sum([code.get(key)])
                per_code = by_code.setdefault(code["code"], {key: Decimal("0.00") for key in _DP_KEYS})
                for key in _DP_KEYS:
                    per_code[key] += _sum([code.get(key)])
            printed = dict(sums)
            printed.update(account.get("subtotals") or {})
            page.data_row([None, None, None, None, "Subtotals:"] + _dp_amounts(printed, "number"),
                          {11: MARKER_120} if _sum([printed.get("days_90_plus")]) != 0 else None)
            for key in _DP_KEYS:
                totals[key] += sums[key]
        totals_row = [None, None, None, None, "Totals:"] + _dp_amounts(totals, "dollar")
        sheet.row(totals_row if layout == "dense" else _page_image(totals_row, 0, "spaced"))
        sheet.blank()
        sheet.row(["Summary By Transaction Code"])
        sheet.row(["Code", "GL Account", "Beginning Prepaid", "Current Prepaid", "Delinquent", "Balance"])
        for code, sums in by_code.items():
            sheet.row([code, "1200-0002", money_text(0, "text"), money_text(-sums["prepaid"], "text"),
                       money_text(sums["delinquent"], "text"),
                       money_text(sums["delinquent"] - sums["prepaid"], "text")])
        sheet.blank()
        sheet.row(["Summary by General Ledger Account"])
        sheet.row(["Grand Totals:", money_text(totals["delinquent"] - totals["prepaid"], "text")])
        sheet.row(["* Resident under eviction  \u2020 Includes NSF  \u2021 Includes 120+ days past due  "
                   "\u00a7 Cash-basis code"])


def write_delinquency(dest, property_name, as_of, residents, *, company=DEFAULT_COMPANY, run_at=None,
                      page_size=None, shared_strings=True):
    """The simpler Delinquency layout: one row per resident with a balance and aging buckets."""
    residents = list(residents)
    header = [["Unit", "Resident ID", "Resident", "Status", "Balance", "0-30", "31-60", "61-90", "Over 90",
               "Prepaid"]]
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Delinquency") as sheet:
        page = _Page(sheet, company=company, property_name=property_name, title="DELINQUENCY", code=None,
                     as_of_line=f"As of {date_text(as_of)}", parameters=None, run_at=_run_at(as_of, run_at),
                     width=len(header[0]), header_rows=header, merges=[], page_size=page_size,
                     pages=_pages_for(len(residents), page_size))
        page.start()
        keys = ["balance", "b0_30", "b31_60", "b61_90", "over_90", "prepaid"]
        totals = {key: Decimal("0.00") for key in keys}
        for resident in residents:
            page.data_row([resident.get("unit"), resident.get("resident_id"), resident.get("name"),
                           resident.get("status"), money_text(resident.get("balance"), "minus"),
                           money_text(resident.get("b0_30"), "number"), money_text(resident.get("b31_60"), "number"),
                           money_text(resident.get("b61_90"), "number"), money_text(resident.get("over_90"), "number"),
                           money_text(resident.get("prepaid"), "trailing")])
            for key in keys:
                totals[key] += _sum([resident.get(key)])
        sheet.row(["Total", None, None, None] + [money_text(totals[key], "number") for key in keys])


# ----------------------------------------------------------------------------------------
# Activity
# ----------------------------------------------------------------------------------------

def _activity_date(value, index):
    """Alternates text with a time of day and real date cells, as OneSite exports mix both."""
    value = _date(value)
    if index % 2 == 0:
        if isinstance(value, datetime.datetime):
            hour = value.hour % 12 or 12
            suffix = "AM" if value.hour < 12 else "PM"
            return f"{date_text(value)} {hour:02d}:{value.minute:02d}:{value.second:02d}{suffix}"
        return date_text(value)
    return datetime.date(value.year, value.month, value.day)


def write_activity(dest, property_name, start_date, end_date, activities, *, company=DEFAULT_COMPANY, run_at=None,
                   page_size=None, shared_strings=True):
    """Activity (3837): rows grouped by leasing consultant, each group ending "Total for <agent>: N"."""
    activities = list(activities)
    header = [["Date", "Type", "Bldg/\nUnit", "Name", "Ad Source", "Leasing\nConsultant", "Notes"]]
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Activity") as sheet:
        page = _Page(sheet, company=company, property_name=property_name, title="ACTIVITY", code=None,
                     as_of_line=f"{date_text(start_date)} - {date_text(end_date)}",
                     parameters=["Statuses: Prospect, Applicant", "Activity types: All"],
                     run_at=_run_at(end_date, run_at), width=len(header[0]), header_rows=header, merges=[],
                     page_size=page_size, pages=_pages_for(len(activities), page_size))
        page.start()
        agent = object()
        in_group = 0
        for index, activity in enumerate(activities):
            if activity.get("agent") != agent:
                if in_group:
                    page.data_row([f"Total for {agent}: {in_group}"])
                agent = activity.get("agent")
                in_group = 0
                page.data_row([agent or "(no consultant)"])
            page.data_row([_activity_date(activity["date"], index), activity.get("type"), activity.get("unit"),
                           activity.get("name"), activity.get("source"), activity.get("agent"), None])
            if activity.get("notes"):
                page.data_row([None, None, None, None, None, None, activity["notes"]])
            in_group += 1
        if in_group:
            page.data_row([f"Total for {agent}: {in_group}"])
        sheet.row([f"Total activities: {len(activities)}"])
        sheet.blank()
        sheet.row(["Follow-Up Activity"])
        sheet.row(["Date", "Type", "Bldg/\nUnit", "Name", "Ad Source", "Leasing\nConsultant", "Notes"])
        sheet.row([date_text(end_date), "Phone call", None, "Follow, Up", None, "Scheduled", "call back"])


# ----------------------------------------------------------------------------------------
# Leasing Activity Detail (LEA-236-001)
# ----------------------------------------------------------------------------------------

# The contact types a totals block counts, in the order the data-only Sheet2 prints them.
LEAD_DETAIL_TYPES = ["Phone call", "Chat", "Fax/Letter", "E-mail", "Call Center", "Text message", "Event",
                     "Property Referral", "Internet", "Pre-recorded - Tour", "Self-guided - Tour",
                     "Videotelephony - Tour"]


def _lead_detail_counts(contacts):
    """The figures a Leasing Activity Detail totals block prints for `contacts`, by label (as Sheet2 heads them)."""
    def typed(name):
        return sum(1 for c in contacts if (c.get("type") or "").lower() == name.lower())
    leases = sum(int(c.get("leases") or 0) for c in contacts)
    waitlist = sum(int(c.get("waitlist") or 0) for c in contacts)
    cancelled = sum(int(c.get("cancelled") or 0) for c in contacts)
    visits = typed("Visit")
    out = {"New Prospects": sum(1 for c in contacts if c.get("new_prospect")),
           "Return Visits": sum(int(c.get("return_visits") or 0) for c in contacts),
           "Off-site conversions": sum(1 for c in contacts if c.get("off_site"))}
    for name in LEAD_DETAIL_TYPES:
        out[name] = typed(name)
    net_leases = leases + waitlist - cancelled
    out.update({"Visits": visits, "*Not in Ratio": 0, "Net Visits": visits, "Leases": leases, "Waitlist": waitlist,
                "Cancelled/Denied": cancelled, "Net Leases": net_leases,
                "Close %": round(100.0 * net_leases / visits, 2) if visits else 0.0})
    return out


def _lead_detail_values(c, date_value):
    return [date_value, c.get("type"), c.get("return_visits") or None, "Yes" if c.get("off_site") else "No",
            c.get("name"), c.get("initial_type"), c.get("source"), c.get("floorplan_group") or "Not Selected",
            c.get("floorplan") or "Not Selected", date_text(c.get("date_needed")), date_text(c.get("next_follow_up")),
            c.get("status"), int(c.get("leases") or 0), int(c.get("waitlist") or 0), int(c.get("cancelled") or 0),
            c.get("results") or "N/A"]


def write_leasing_activity_detail(dest, property_name, start_date, end_date, contacts, *, data_only=False,
                                  company=DEFAULT_COMPANY, run_at=None, shared_strings=True):
    """Leasing Activity Detail (LEA-236-001): one row per prospect contact, grouped by leasing consultant.

    contacts: dicts grouped by "agent" in print order: agent, date, type (None on lease, waitlist and cancel rows),
    return_visits, off_site (bool: a prospect first met off-site now visits), name ("Last, First"), initial_type,
    source, floorplan_group, floorplan, date_needed, next_follow_up, status (Active, Leased, Lost, Unqualified),
    leases / waitlist / cancelled (0/1), results, new_prospect (bool: the guest card began with this contact; counted
    as New Prospects).

    Crystal flavour (default): each consultant's rows under "Leasing Consultant:  Name", ending "Totals for Name  :"
    and a block of "Label:" count cells; the last block "Totals for Property:". data_only=True: the "- Excel" export,
    a Leasing Consultant column on Sheet1 and the per-consultant counts with "Totals for Property" on Sheet2."""
    contacts = list(contacts)
    agents = []
    for c in contacts:
        if c.get("agent") not in agents:
            agents.append(c.get("agent"))
    stamp = _run_at(end_date, run_at)
    if data_only:
        title = [f"{company} - {property_name}", "LEASING ACTIVITY DETAIL",
                 f"{date_text(stamp)} {stamp.strftime('%I:%M %p')}",
                 f"Parameters: Leasing consultant(s): All; Scheduling Period:  ({date_text(start_date)} to "
                 f"{date_text(end_date)}); On-site or off-site or all activities: ALL; Rows to be Highlighted: None"]
        header = ["Leasing Consultant", "Date", "This contact type", "# Of Return Visits",
                  "Off-Site Conversion This Period", "Prospect Name", "Initial Contact Type", "Ad Source",
                  "Floor Plan Group", "Floor Plan", "Date Needed", "Next Scheduled Follow Up",
                  "Current Guest Card Status", "Leases", "Waitlist", "Cancelled/ Denied", "Results/Lost Reason"]
        labels = (["New Prospects", "Return Visits", "Off-site conversions"] + LEAD_DETAIL_TYPES
                  + ["Visits", "*Not in Ratio", "Net Visits", "Leases", "Waitlist", "Cancelled/Denied", "Net Leases"])

        def figures(counts):
            return [str(counts[label]) for label in labels] + ["", _number_text(counts["Close %"])]
        with XlsxWriter(dest, shared_strings=shared_strings) as book:
            with book.sheet("Sheet1") as sheet:
                for line in title:
                    sheet.row([line])
                # Numbers as text ("0"), as the data-only export stores them.
                _data_only_sheet(sheet, header, [
                    [c.get("agent")] + [str(v) if isinstance(v, int) else v
                                        for v in _lead_detail_values(c, date_text(c["date"]))] for c in contacts])
            with book.sheet("Sheet2") as sheet:
                sheet.blank()
                for line in title:
                    sheet.row([line])
                rows = [[agent] + figures(_lead_detail_counts([c for c in contacts if c.get("agent") == agent]))
                        for agent in agents]
                rows.append(None)
                rows.append(["Totals for Property"] + figures(_lead_detail_counts(contacts)))
                sheet.row(["Leasing Consultant"] + labels + ["", "Close %"])
                for values in rows:
                    if values is None:
                        sheet.blank()
                    else:
                        sheet.row(values)
        return
    header = [["Date", "This\nContact Type", "# of\nReturn\nVisits", "Off-Site\nConversion\nThis Period",
               "\n\nProspect Name", "Initial\nContact Type", "\n\nAd Source", "\nFloor Plan\nGroup",
               "\n\nFloor Plan", "\nDate\nNeeded", "Next\nScheduled\nFollow Up", "Current\nGuest Card Status",
               "\n\nLeases", "\n\nWaitlist", "\nCancelled/\nDenied", "\nResults/\nLost Reason"]]
    block = [["Return Visits", "Phone Call", "Property Referral", "Visits", "-   \u00b2Not In Ratio", "=   Net Visits"],
             ["\u00b9New Prospects", "Fax/Letter", "Internet", "Leases", "+    Waitlist", "-    Cancelled/Denied",
              "=   Net Leases"],
             ["Off-Site Conversions", "E-mail", "Videotelephony - Tour", "        Close %"],
             [None, "Call Center", "Self-guided - Tour"], [None, "Text Message", "Pre-recorded - Tour"],
             [None, "Event", "Chat"]]
    names = {"Return Visits": "Return Visits", "Phone Call": "Phone call", "Property Referral": "Property Referral",
             "Visits": "Visits", "-   \u00b2Not In Ratio": "*Not in Ratio", "=   Net Visits": "Net Visits",
             "\u00b9New Prospects": "New Prospects", "Fax/Letter": "Fax/Letter", "Internet": "Internet",
             "Leases": "Leases", "+    Waitlist": "Waitlist", "-    Cancelled/Denied": "Cancelled/Denied",
             "=   Net Leases": "Net Leases", "Off-Site Conversions": "Off-site conversions", "E-mail": "E-mail",
             "Videotelephony - Tour": "Videotelephony - Tour", "        Close %": "Close %",
             "Call Center": "Call Center", "Self-guided - Tour": "Self-guided - Tour", "Text Message": "Text message",
             "Pre-recorded - Tour": "Pre-recorded - Tour", "Event": "Event", "Chat": "Chat"}

    def totals_rows(label, counts):
        out = [[label], None]
        for line in block:
            values = [None]
            for name in line:
                if name is None:
                    values += [None, None]
                else:
                    figure = counts[names[name]]
                    values += [name + ":", figure if names[name] != "Close %" else float(figure)]
            out.append(values)
        out.append(None)
        return out
    rows = []
    index = 0
    for agent in agents:
        group = [c for c in contacts if c.get("agent") == agent]
        rows.append([f"Leasing Consultant:  {agent}"])
        for c in group:
            rows.append(_lead_detail_values(c, _activity_date(c["date"], index)))
            index += 1
        rows.extend(totals_rows(f"Totals for {agent}  :", _lead_detail_counts(group)))
    rows.extend(totals_rows(" Totals for Property:", _lead_detail_counts(contacts)))
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Sheet1") as sheet:
        page = _Page(sheet, company=company, property_name=property_name, title="LEASING ACTIVITY DETAIL",
                     code="LEA-236-001", as_of_line=f"{date_text(start_date)} through {date_text(end_date)}",
                     parameters=["Leasing consultant(s): All;  Page break between each consultant: Yes;  "
                                 "On-site or off-site or all activities: ALL;  Rows to be Highlighted: None"],
                     run_at=stamp, width=len(header[0]), header_rows=header, merges=[], page_size=None, pages=1)
        page.start()
        for values in rows:
            if values is None:
                sheet.blank()
            else:
                page.data_row(values)


# ----------------------------------------------------------------------------------------
# Monthly Activity Summary
# ----------------------------------------------------------------------------------------

MONTHLY_OCCUPANCY_HEADER = [
    [None, "Market", "Total", "Total", "Total", "Occupied", "Vacant", "Vacant", "Occupied NTV", "Occupied NTV",
     "Vacant Admini-", "Vacant"],
    ["Floor plan", "Rent", "Base Rent", "SQFT", "Units", "no NTV", "Not Leased", "Leased", "not Leased", "Leased",
     "strative", "Down"],
]
MONTHLY_ACCOUNTING_HEADER = [
    ["Floor plan", "Move-\nins", "Move-\nouts", "Cancellations/\nRejections", "Renewals", "Leases", "Rent\nCharged",
     "Other\nCharges", "Payments", "Other\nCredits", "Deposits\nIn", "Deposits\nOut"],
]
MONTHLY_DETAIL_HEADER = [["Unit", "Status", "Name", "Action", "Date"]]


def write_monthly_activity_summary(dest, property_name, start_date, as_of, floorplans, events, *,
                                   company=DEFAULT_COMPANY, run_at=None, shared_strings=True):
    """Monthly Activity Summary (3877): occupancy, accounting and leasing-detail sections."""
    floorplans = list(floorplans)
    events = list(events)
    width = len(MONTHLY_OCCUPANCY_HEADER[1])
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Report") as sheet:
        page = _Page(sheet, company=company, property_name=property_name, title="MONTHLY ACTIVITY SUMMARY",
                     code="mgt-542-001", as_of_line=f"As of {date_text(as_of)}",
                     parameters=[f"Occupancy activity since: {date_text(start_date)}",
                                 f"Accounting activity since: {date_text(start_date)}",
                                 "Subtotals by: Floorplan Name"],
                     run_at=_run_at(as_of, run_at), width=width, header_rows=MONTHLY_OCCUPANCY_HEADER, merges=[],
                     page_size=None, pages=2, extra_title_lines=["Occupancy Activity"])
        page.start()
        occ_keys = ["units", "occupied_no_ntv", "vacant_not_leased", "vacant_leased", "ntv_not_leased", "ntv_leased",
                    "vacant_admin", "vacant_down"]
        occ_totals = {key: 0 for key in occ_keys}
        for fp in floorplans:
            sheet.row([fp["floorplan"], money_text(fp.get("market_rent"), "text"),
                       money_text(fp.get("base_rent"), "number"), fp.get("sqft")]
                      + [fp.get(key, 0) for key in occ_keys])
            for key in occ_keys:
                occ_totals[key] += fp.get(key, 0)
        sheet.row(["Totals", None, None, None] + [occ_totals[key] for key in occ_keys])
        sheet.blank()
        sheet.row(["Accounting Activity"])
        for values in MONTHLY_ACCOUNTING_HEADER:
            sheet.row(values)
        acc_keys = ["move_ins", "move_outs", "cancellations", "renewals", "leases"]
        money_keys = ["rent_charged", "other_charges", "payments", "other_credits", "deposits_in", "deposits_out"]
        acc_totals = {key: 0 for key in acc_keys}
        for fp in floorplans:
            sheet.row([fp["floorplan"]] + [fp.get(key, 0) for key in acc_keys]
                      + [money_text(fp.get(key, 0), "text") for key in money_keys])
            for key in acc_keys:
                acc_totals[key] += fp.get(key, 0)
        sheet.row(["Totals"] + [acc_totals[key] for key in acc_keys])
        # Page 2 starts with the title lines again, then the detail section.
        sheet.blank()
        sheet.row([PRODUCT_LINE] + [None] * (width - 2) + ["Page 2 of 2"])
        sheet.row([page.company_line])
        sheet.row(["MONTHLY ACTIVITY SUMMARY"])
        sheet.blank()
        sheet.row(["Leasing Activity Detail"])
        for values in MONTHLY_DETAIL_HEADER:
            sheet.row(values)
        for action in ACTIONS + sorted({e["action"] for e in events} - set(ACTIONS)):
            group = [e for e in events if e["action"] == action]
            if not group:
                continue
            for index, event in enumerate(group):
                day = _date(event["date"])
                # Leasing detail stores real date serials (docs/onesite-reports.md, "Cell values"); alternate with text.
                when = _serial(day) if index % 2 else date_text(day)
                sheet.row([event.get("unit"), event.get("status"), event.get("name"), action, when])
            sheet.row([f"Total {action}: {len(group)}"])


# ----------------------------------------------------------------------------------------
# Lease Expiration
# ----------------------------------------------------------------------------------------

LEASE_EXPIRATION_HEADER = [
    ["Bldg/", "Floorplan", "SQFT", "Name", "Term", "Lease", "Move-In", "Expected", "Do Not", "Late/", "Market",
     "Lease", "Other", "Total", "Balance"],
    ["Unit", None, None, "Phone/email", None, "End", None, "Move-out", "Renew", "NSF", "+ Addl.", "Rent", "Charges",
     "Billing", None],
]


# Page-image spacing: each logical column owns this many sheet columns, its header in the second.
DRIFT_SPACING = 4
# How far each value sits from its header, cycled over (row, column): -1 to +2, as seen in real Crystal exports
# (`Market + Addl.` at column 28 in one row, 27 or 30 in the next).
DRIFT_CYCLE = [0, 2, -1, 1, 0, -1, 2, 1, 1, 0]


def _drifted(values, row_index, drift):
    """A logical row laid out page-image style: column k at DRIFT_SPACING*k+1, its value moved by the drift cycle."""
    if not drift:
        return values
    out = [None] * (DRIFT_SPACING * len(values) + 2)
    for k, value in enumerate(values):
        if value is None:
            continue
        shift = DRIFT_CYCLE[(row_index * 3 + k) % len(DRIFT_CYCLE)] if drift == "values" else 0
        if k == 0:
            shift = max(shift, 0)  # nothing sits left of the first header
        out[DRIFT_SPACING * k + 1 + shift] = value
    while out and out[-1] is None:
        out.pop()
    return out


def write_lease_expiration(dest, property_name, as_of, leases, *, with_decision=False, company=DEFAULT_COMPANY,
                           run_at=None, page_size=None, shared_strings=True, drift=False):
    """Lease Expiration Detail (4299): MTM group, then one group per lease-end month, totals with counts.

    drift=True writes the page-image layout: sparse columns, and every value moved -1..+2 columns from its header,
    differently from row to row (group and total labels stay under the first header)."""
    leases = list(leases)
    header = [list(row) for row in LEASE_EXPIRATION_HEADER]
    if with_decision:
        header[0].append("Decision")
        header[1].append(None)
    logical_width = len(header[0])
    if drift:
        header = [_drifted(row, 0, "header") for row in header]
    row_index = [0]

    def layout(values):
        row_index[0] += 1
        return _drifted(values, row_index[0], "values" if drift else False)
    groups = []
    mtm = [lease for lease in leases if str(lease.get("term")).upper() == "MTM"]
    if mtm:
        groups.append(("MTM", "Total MTM/Expired leases", mtm))
    months = {}
    for lease in leases:
        if str(lease.get("term")).upper() == "MTM":
            continue
        end = _date(lease["lease_end"])
        months.setdefault((end.year, end.month), []).append(lease)
    for (year, month) in sorted(months):
        name = datetime.date(year, month, 1).strftime("%B %Y")
        groups.append((name, f"Total leases expiring in {name}", months[(year, month)]))
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Report") as sheet:
        page = _Page(sheet, company=company, property_name=property_name, title="LEASE EXPIRATION DETAIL",
                     code="rpt-001-702", as_of_line=f"As of {date_text(as_of)}",
                     parameters=["Renewals: Include", "Preleased: Include", "Sort by: Unit"],
                     run_at=_run_at(as_of, run_at), width=DRIFT_SPACING * logical_width + 2 if drift else logical_width,
                     header_rows=header, merges=[],
                     page_size=page_size, pages=_pages_for(len(leases) * 2 + len(groups) * 2, page_size))
        page.start()
        for name, total_label, group in groups:
            page.data_row(_drifted([name], 0, "header" if drift else False))
            rent = market = Decimal("0.00")
            for lease in group:
                row = [lease["unit"], lease.get("floorplan"), lease.get("sqft"), lease.get("name"),
                       lease.get("term"), date_text(lease.get("lease_end")), date_text(lease.get("move_in")),
                       date_text(lease.get("expected_move_out")), "c" if lease.get("do_not_renew") else None,
                       lease.get("late_nsf"), money_text(lease.get("market_rent"), "number"),
                       money_text(lease.get("lease_rent"), "text"), money_text(lease.get("other_charges"), "text"),
                       money_text(_sum([lease.get("lease_rent"), lease.get("other_charges")]), "text"),
                       money_text(lease.get("balance"), "dollar")]
                if with_decision:
                    row.append(lease.get("decision"))
                page.data_row(layout(row))
                contact = " / ".join(part for part in [lease.get("phone"), lease.get("email")] if part)
                if contact:
                    page.data_row(layout([None, None, None, contact]))
                rent += _sum([lease.get("lease_rent")])
                market += _sum([lease.get("market_rent")])
            totals = [f"{total_label}: {len(group)}"] + [None] * 9 + [float(market), money_text(rent, "text")]
            page.data_row(_drifted(totals, 0, "header") if drift else totals)
        sheet.row([f"Total leases: {len(leases)}"])


# ----------------------------------------------------------------------------------------
# The rest of the catalogue: shared layout helpers
# ----------------------------------------------------------------------------------------

NBSP = "\u00a0"


def _crystal_report(dest, property_name, as_of, *, title, code, as_of_line, parameters, header, rows, merges=(),
                    company=DEFAULT_COMPANY, run_at=None, page_size=None, shared_strings=True, trailer=(),
                    extra_title_lines=(), sheet_name="Report"):
    """A Crystal page-image report: title block, header (repeated every page_size rows), rows, then trailer rows
    (written after the last page, never repeated)."""
    rows = list(rows)
    width = max(len(line) for line in header)
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet(sheet_name) as sheet:
        page = _Page(sheet, company=company, property_name=property_name, title=title, code=code,
                     as_of_line=as_of_line, parameters=parameters, run_at=_run_at(as_of, run_at), width=width,
                     header_rows=header, merges=list(merges), page_size=page_size,
                     pages=_pages_for(len(rows), page_size), extra_title_lines=extra_title_lines)
        page.start()
        for values in rows:
            page.data_row(values)
        for values in trailer:
            if values is None:
                sheet.blank()
            else:
                sheet.row(values)


def _data_only_sheet(sheet, header, rows):
    """A data-only ("- Excel") sheet: one clean header row at the top, then the rows; numbers often as text."""
    sheet.row(header)
    for values in rows:
        sheet.row(values)


def _number_text(value, places=2):
    """A number as a data-only export stores it: text without separators ("0", "35.71", "-125.5")."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int) or places == 0:
        return str(int(value))
    return f"{Decimal(str(value)).quantize(Decimal(1).scaleb(-places)):f}"


# ----------------------------------------------------------------------------------------
# Income Statement
# ----------------------------------------------------------------------------------------

INCOME_STATEMENT_HEADER = [
    [None, None, "Current Period", None, None, "Year to Date", None, None],
    ["Account", "Account Name", "Actual", "Budget", "Variance", "Actual", "Budget", "Variance"],
]


def write_income_statement(dest, property_name, as_of, sections, *, fiscal_period=None, total_overrides=None,
                           company=DEFAULT_COMPANY, run_at=None, page_size=None, shared_strings=True):
    """Income Statement by GL account (the Crystal page-image layout).

    sections: list of {"heading": "INCOME", "groups": [{"heading": "Rental Income", "accounts": [...]}]};
    accounts: {"account": "5100-0001", "name": "Market Rent", "actual", "budget", "ytd", "ytd_budget"} (dollars).
    Each group ends "Total <heading>", each section "TOTAL <HEADING>"; after two sections a "NET OPERATING
    INCOME" line (first section minus second). total_overrides: {"TOTAL INCOME": {"actual": 1.0, ...}} replaces
    printed total amounts, to build a file whose totals do not add up."""
    as_of_d = _date(as_of)
    fiscal_period = fiscal_period or f"{as_of_d.month:02d}{as_of_d.year}"
    keys = ["actual", "budget", "ytd", "ytd_budget"]
    overrides = total_overrides or {}

    def amounts(values):
        actual, budget, ytd, ytd_budget = (values.get(key) for key in keys)
        variance = None if actual is None or budget is None else _cents(actual) - _cents(budget)
        ytd_variance = None if ytd is None or ytd_budget is None else _cents(ytd) - _cents(ytd_budget)
        return [money_text(actual, "text"), money_text(budget, "number"), money_text(variance, "text"),
                money_text(ytd, "text"), money_text(ytd_budget, "number"), money_text(ytd_variance, "text")]

    def total_line(label, sums):
        printed = dict(sums)
        printed.update(overrides.get(label.strip(), {}))
        return [label, None] + amounts(printed)

    rows = []
    section_sums = []
    for section in sections:
        rows.append([section["heading"]])
        sums = {key: Decimal("0.00") for key in keys}
        for group in section["groups"]:
            rows.append(["  " + group["heading"]])
            group_sums = {key: Decimal("0.00") for key in keys}
            for account in group["accounts"]:
                rows.append([account["account"], account["name"]] + amounts(account))
                for key in keys:
                    group_sums[key] += _sum([account.get(key)])
            rows.append(total_line(f"  Total {group['heading']}", group_sums))
            for key in keys:
                sums[key] += group_sums[key]
        rows.append(total_line(f"TOTAL {section['heading']}", sums))
        section_sums.append(sums)
    if len(section_sums) >= 2:
        rows.append(["NET OPERATING INCOME", None]
                    + amounts({key: section_sums[0][key] - section_sums[1][key] for key in keys}))
    _crystal_report(dest, property_name, as_of, title="INCOME STATEMENT", code=None,
                    as_of_line=f"Fiscal Period {fiscal_period} As of {date_text(as_of)}",
                    parameters=["Book: Accrual", "Report Format: Income Statement by G/L"],
                    header=INCOME_STATEMENT_HEADER, merges=[(0, 2, 0, 4), (0, 5, 0, 7)], rows=rows, company=company,
                    run_at=run_at, page_size=page_size, shared_strings=shared_strings)


def write_income_statement_worksheet(dest, property_name, as_of, lines, *, fiscal_period=None,
                                     company=DEFAULT_COMPANY, run_at=None, shared_strings=True):
    """Income Statement Worksheet (120.080.131), the layout OneSite exports as HTML: Account | Sign | Amount.

    lines: in print order, each (indent, text) for a heading, (indent, text, sign, amount) for an account line
    ("5100-0001 - Market Rent", "+" or "-", the unsigned amount as printed) or a total line (sign "=").
    Indents are no-break spaces, as the HTML export pads them; amounts print with separators and
    parentheses ("(5.00)")."""
    as_of_d = _date(as_of)
    fiscal_period = fiscal_period or f"{as_of_d.month:02d}{as_of_d.year}"
    stamp = _run_at(as_of, run_at)
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Income Statement Worksheet") as sheet:
        sheet.row([f"{PRODUCT_LINE}\n{date_text(stamp)} {stamp.strftime('%I:%M:%S %p')}",
                   f"{company} - {property_name}", "120.080.131"])
        sheet.row([None, "Income Statement Worksheet"])
        sheet.row([None, f"As of: {date_text(as_of)}"])
        sheet.row([f"Parameters:  Fiscal Period: {fiscal_period};  Report Format: Income Statement by G/L;  "
                   "Special Accounts Style: Advanced"])
        sheet.row(["Account", "Sign", "Amount"])
        for line in lines:
            indent, text = line[0], NBSP * line[0] + line[1] + NBSP
            if len(line) == 2:
                sheet.row([text, NBSP, NBSP])
            else:
                sheet.row([text, NBSP + line[2], NBSP + money_text(line[3], "text")])


# ----------------------------------------------------------------------------------------
# Make Ready Summary and Closed Make Ready Summary
# ----------------------------------------------------------------------------------------

MAKE_READY_HEADER = [
    ["Bldg/", "Floor", "Sq", "Unit", "Lease", "Date", "Days", "Make Ready", "# of", "Assigned", "Make Ready"],
    ["Unit", "Plan", "Ft", "Status", "Status", "Vacated", "Vacant", "Date Due", "WOs", "To", "Status"],
]
CLOSED_MAKE_READY_HEADER = [
    ["Bldg/", "Floor", "Date", "Make Ready", "Date", "Days to", "# of", "Amount", "Completed"],
    ["Unit", "Plan", "Vacated", "Date Due", "Completed", "Complete", "WOs", "Charged", "By"],
]


def _work_order_lines(unit, width, first_column):
    """The work-order lines printed under a unit: WO number and description, no unit."""
    lines = []
    for order in unit.get("orders", []):
        line = [None] * width
        line[first_column] = f"WO {order['number']}"
        line[first_column + 1] = order.get("description")
        lines.append(line)
    return lines


def write_make_ready_summary(dest, property_name, as_of, units, *, total_units=None, company=DEFAULT_COMPANY,
                             run_at=None, page_size=None, shared_strings=True):
    """Make Ready Summary (4186): one row per unit in the turn pipeline, its work-order lines under it.

    units: dicts with unit, floorplan, sqft, unit_status, lease_status, vacated, days_vacant (int or "*"),
    due, work_orders, assigned_to, status, orders ([{"number", "description"}] printed under the unit).
    The last row is "Total Units: N" with the summed # of WOs; total_units overrides N."""
    units = list(units)
    width = len(MAKE_READY_HEADER[1])
    rows = []
    for index, unit in enumerate(units):
        vacated = unit.get("vacated")
        rows.append([unit["unit"], unit.get("floorplan"), unit.get("sqft"), unit.get("unit_status"),
                     unit.get("lease_status"), date_text(vacated) if index % 2 == 0 else _date(vacated),
                     unit.get("days_vacant"), date_text(unit.get("due")), unit.get("work_orders"),
                     unit.get("assigned_to"), unit.get("status")])
        rows.extend(_work_order_lines(unit, width, 3))
    count = len(units) if total_units is None else total_units
    orders = sum(unit.get("work_orders") or 0 for unit in units)
    _crystal_report(dest, property_name, as_of, title="MAKE READY SUMMARY", code=None,
                    as_of_line=f"As of {date_text(as_of)}", parameters=["Unit Status: Vacant", "Sort by: Unit"],
                    header=MAKE_READY_HEADER, rows=rows, company=company, run_at=run_at, page_size=page_size,
                    shared_strings=shared_strings,
                    trailer=[None, [f"Total Units: {count}"] + [None] * 7 + [orders]])


def write_closed_make_ready(dest, property_name, start_date, end_date, units, *, total_overrides=None,
                            company=DEFAULT_COMPANY, run_at=None, page_size=None, shared_strings=True):
    """Closed Make Ready Summary (4189): one row per unit made ready in the date range, work-order lines under it.

    units: dicts with unit, floorplan, vacated, due, completed, days_to_complete, work_orders, amount_charged,
    completed_by, orders. The last row is "Total Units: N" with summed # of WOs and Amount Charged;
    total_overrides {"units", "work_orders", "amount_charged"} replaces printed totals."""
    units = list(units)
    width = len(CLOSED_MAKE_READY_HEADER[1])
    rows = []
    for unit in units:
        rows.append([unit["unit"], unit.get("floorplan"), date_text(unit.get("vacated")), date_text(unit.get("due")),
                     date_text(unit.get("completed")), unit.get("days_to_complete"), unit.get("work_orders"),
                     money_text(unit.get("amount_charged"), "dollar"), unit.get("completed_by")])
        rows.extend(_work_order_lines(unit, width, 2))
    totals = {"units": len(units), "work_orders": sum(unit.get("work_orders") or 0 for unit in units),
              "amount_charged": _sum([unit.get("amount_charged") for unit in units])}
    totals.update(total_overrides or {})
    _crystal_report(dest, property_name, end_date, title="CLOSED MAKE READY SUMMARY", code=None,
                    as_of_line=f"{date_text(start_date)} - {date_text(end_date)}",
                    parameters=["Date type: Date completed", "Sort by: Unit"], header=CLOSED_MAKE_READY_HEADER,
                    rows=rows, company=company, run_at=run_at, page_size=page_size, shared_strings=shared_strings,
                    trailer=[None, [f"Total Units: {totals['units']}"] + [None] * 5
                             + [totals["work_orders"], money_text(totals["amount_charged"], "dollar")]])


# ----------------------------------------------------------------------------------------
# Monthly Transaction Summary
# ----------------------------------------------------------------------------------------

MONTHLY_TRANSACTION_HEADER = [
    ["Group", "Trans\nCode", "Description", "GL\nAccount", "YTD\nLast Month", "This\nMonth", "YTD Through\nThis Month"],
]


def write_monthly_transaction_summary(dest, property_name, as_of, categories, *, fiscal_period=None,
                                      total_overrides=None, company=DEFAULT_COMPANY, run_at=None, page_size=None,
                                      shared_strings=True):
    """Monthly Transaction Summary (4020): transaction codes under type headings, "Total:" per heading,
    "Grand Total:", then the "Category" summary section (which the parser must not read as codes).

    categories: [{"heading": "CHARGES", "codes": [{"group", "code", "description", "gl", "ytd_prior", "period"}]}];
    YTD Through This Month = ytd_prior + period. total_overrides: {"CHARGES": {"period": 1.0}} replaces a printed
    heading total ("Grand Total" for the grand total)."""
    as_of_d = _date(as_of)
    fiscal_period = fiscal_period or f"{as_of_d.month:02d}{as_of_d.year}"
    overrides = total_overrides or {}
    keys = ["ytd_prior", "period", "ytd"]

    def amounts(values):
        return [money_text(values.get("ytd_prior"), "text"), money_text(values.get("period"), "number"),
                money_text(values.get("ytd"), "text")]

    rows = []
    grand = {key: Decimal("0.00") for key in keys}
    for category in categories:
        rows.append([category["heading"]])
        sums = {key: Decimal("0.00") for key in keys}
        for code in category["codes"]:
            values = dict(code)
            values["ytd"] = _sum([code.get("ytd_prior"), code.get("period")])
            rows.append([code.get("group"), code["code"], code.get("description"), code.get("gl")] + amounts(values))
            for key in keys:
                sums[key] += _sum([values.get(key)])
        printed = dict(sums)
        printed.update(overrides.get(category["heading"], {}))
        rows.append([None, None, "Total:", None] + amounts(printed))
        for key in keys:
            grand[key] += sums[key]
    printed = dict(grand)
    printed.update(overrides.get("Grand Total", {}))
    rows.append([None, None, "Grand Total:", None] + amounts(printed))
    charges = sum((_sum([c.get("period") for c in category["codes"]]) for category in categories[:1]), Decimal(0))
    _crystal_report(dest, property_name, as_of, title="MONTHLY TRANSACTION SUMMARY", code=None,
                    as_of_line=f"Fiscal Period {fiscal_period} As of {date_text(as_of)}",
                    parameters=["Report Type: Detail", "Subjournals: ALL"], header=MONTHLY_TRANSACTION_HEADER,
                    rows=rows, company=company, run_at=run_at, page_size=page_size, shared_strings=shared_strings,
                    trailer=[None, ["Category"], ["MONTHLY RENTAL POTENTIAL COMPUTATION"],
                             ["Gross Market Rent", None, None, None, None, money_text(charges, "text")],
                             ["Total Monthly Collections", None, None, None, None, money_text(charges, "text")]])


# ----------------------------------------------------------------------------------------
# Lease Expiration/Renewal Detail (Excel) (4156) and its Renewal Detail sheet
# ----------------------------------------------------------------------------------------

RENEWAL_DETAIL_COLUMNS = ["Bldg/Unit", "FloorPlan", "Name", "Actual rent", "Other Billings", "Last Increase",
                          "Last Increase Amount", "Market Rent", "Move in Date", "Lease end Date", "Decision",
                          "New Lease Start Date", "New Lease Term", "New Rent", "New Other Billings",
                          "Leasing Consultant"]
RENEWAL_DETAIL_HEADER = [
    ["Bldg/", "Floor", "Name", "Actual", "Other", "Last", "Last Increase", "Market", "Move in", "Lease end",
     "Decision", "New Lease", "New Lease", "New", "New Other", "Leasing"],
    ["Unit", "Plan", None, "Rent", "Billings", "Increase", "Amount", "Rent", "Date", "Date", None, "Start Date",
     "Term", "Rent", "Billings", "Consultant"],
]
RENEWAL_MONEY = ["actual_rent", "other_billings", "market_rent", "new_rent", "new_other_billings"]


def _excel_datetime_text(value):
    """A date as the data-only export writes it: `2/15/2026 12:00:00 AM`."""
    value = _date(value)
    return None if value is None else f"{value.month}/{value.day}/{value.year} 12:00:00 AM"


def _renewal_totals(leases, overrides):
    totals = {key: _sum([lease.get(key) for lease in leases]) for key in RENEWAL_MONEY}
    totals.update(overrides or {})
    return totals


def write_renewal_detail(dest, property_name, as_of, leases, *, total_overrides=None, company=DEFAULT_COMPANY,
                         run_at=None, page_size=None, shared_strings=True):
    """The Renewal Detail columns as a Crystal page-image report titled RENEWAL DETAIL, ending "Totals:".

    leases: dicts with unit, floorplan, name, actual_rent, other_billings, last_increase, last_increase_amount,
    market_rent, move_in, lease_end, decision, new_lease_start, new_lease_term, new_rent, new_other_billings,
    consultant. total_overrides: {"new_rent": 1.0, ...} replaces printed totals."""
    leases = list(leases)
    rows = []
    for lease in leases:
        rows.append([lease["unit"], lease.get("floorplan"), lease.get("name"),
                     money_text(lease.get("actual_rent"), "text"), money_text(lease.get("other_billings"), "text"),
                     date_text(lease.get("last_increase")), money_text(lease.get("last_increase_amount"), "text"),
                     money_text(lease.get("market_rent"), "number"), date_text(lease.get("move_in")),
                     date_text(lease.get("lease_end")), lease.get("decision"), date_text(lease.get("new_lease_start")),
                     lease.get("new_lease_term"), money_text(lease.get("new_rent"), "text"),
                     money_text(lease.get("new_other_billings"), "text"), lease.get("consultant")])
    totals = _renewal_totals(leases, total_overrides)
    _crystal_report(dest, property_name, as_of, title="RENEWAL DETAIL", code=None,
                    as_of_line=f"As of {date_text(as_of)}", parameters=["Already renewed: Include", "MTM: Include"],
                    header=RENEWAL_DETAIL_HEADER, rows=rows, company=company, run_at=run_at, page_size=page_size,
                    shared_strings=shared_strings,
                    trailer=[["Totals:", None, None, money_text(totals["actual_rent"], "text"),
                              money_text(totals["other_billings"], "text"), None, None,
                              money_text(totals["market_rent"], "number"), None, None, None, None, None,
                              money_text(totals["new_rent"], "text"),
                              money_text(totals["new_other_billings"], "text")]])


def _renewal_floorplan_summary(leases, plans):
    """Summary by Floorplan as OneSite computes it: per floor plan the count of each decision (Renewed, Vacating,
    Unknown, MTM) and their sum (Total Possible: a lease Moved out or Transferring is none), the renewed leases' mean
    new term (whole months) and mean new rent (0.00 when none), the mean market rent of all its leases; then `Total` (counts added, each average the plain mean of the
    floor-plan rows)."""
    rows, printed = [], []
    for plan in plans:
        group = [lease for lease in leases if lease.get("floorplan") == plan]
        renewed = [lease for lease in group if lease.get("decision") == "Renewed"]
        # Total Possible is the four decision columns added: Moved out and Transferring leases are no possible renewal.
        counts = [sum(1 for lease in group if lease.get("decision") == d) for d in ("Renewed", "Vacating", "Unknown", "MTM")]
        counts = [sum(counts)] + counts
        term = int(sum(int(lease.get("new_lease_term") or 0) for lease in renewed) / len(renewed)) if renewed else 0
        new_rent = _cents(_sum([lease.get("new_rent") for lease in renewed]) / len(renewed)) if renewed else _cents(0)
        market = _cents(_sum([lease.get("market_rent") for lease in group]) / len(group)) if group else _cents(0)
        printed.append((counts, term, new_rent, market))
        rows.append([plan] + [str(n) for n in counts] + [str(term), _number_text(new_rent), _number_text(market)])
    if printed:
        n = len(printed)
        totals = [sum(p[0][k] for p in printed) for k in range(5)]
        rows.append(["Total"] + [str(t) for t in totals]
                    + [_number_text(_cents(Decimal(sum(p[1] for p in printed)) / n)),
                       _number_text(_cents(sum(p[2] for p in printed) / n)),
                       _number_text(_cents(sum(p[3] for p in printed) / n))])
    return rows


def write_lease_expiration_renewal_excel(dest, property_name, start_date, end_date, leases, *, company=DEFAULT_COMPANY,
                                         shared_strings=True, summary_figures=False, as_of=None, real_sheets=False):
    """Lease Expiration/Renewal Detail (Excel) (4156): the data-only multi-sheet workbook.

    Sheets: Table of Contents, Lease Expiration Detail, Renewal Detail (ending "Totals:"), Summary by Floorplan,
    Future by Floorplan, Summary by Leasing Consultant. Numbers are text ("1400", "1850.75"), dates text with a time
    ("2/28/2026 12:00:00 AM"). leases: as write_renewal_detail, plus term (months) and balance. summary_figures=True
    prints Summary by Floorplan's figures as OneSite computes them, with its `Total` row (decision `MTM` counted as
    Month to Month); the default prints counts and zero averages, as the parser fixtures were made. as_of (the
    property date) prints the real download's `Date Range: ... through ... As of M/D/YYYY` line instead of the range
    alone. real_sheets=True lays the two lease sheets out as the real download does: Lease Expiration Detail lists
    every lease in the Renewal Detail columns, decision included, ending "Totals:"; Renewal Detail lists the renewed
    and transferring ones again, with Totals: of their own."""
    leases = list(leases)
    with XlsxWriter(dest, shared_strings=shared_strings) as book:
        with book.sheet("Table of Contents") as sheet:
            sheet.row(["Lease Expiration/Renewal Detail (Excel)"])
            sheet.row([f"{company} - {property_name}"])
            if as_of is None:
                sheet.row([f"Lease end dates {date_text(start_date)} through {date_text(end_date)}"])
            else:
                day = _date(as_of)
                sheet.row([f"Date Range: {date_text(start_date)} through {date_text(end_date)} "
                           f"As of {day.month}/{day.day}/{day.year}"])
            sheet.blank()
            sheet.row(["Sheet", "Contents"])
            for name, contents in [("Lease Expiration Detail", "Leases ending in the date range"),
                                   ("Renewal Detail", "Renewal decision and new lease terms per lease"),
                                   ("Summary by Floorplan", "Decisions by floor plan"),
                                   ("Future by Floorplan", "Expirations by days out"),
                                   ("Summary by Leasing Consultant", "Decisions by leasing consultant")]:
                sheet.row([name, contents])
        def renewal_rows(listed):
            rows = [[lease["unit"], lease.get("floorplan"), lease.get("name"), _number_text(lease.get("actual_rent")),
                     _number_text(lease.get("other_billings")), _excel_datetime_text(lease.get("last_increase")),
                     _number_text(lease.get("last_increase_amount")), _number_text(lease.get("market_rent")),
                     _excel_datetime_text(lease.get("move_in")), _excel_datetime_text(lease.get("lease_end")),
                     lease.get("decision"), _excel_datetime_text(lease.get("new_lease_start")),
                     _number_text(lease.get("new_lease_term"), 0), _number_text(lease.get("new_rent")),
                     _number_text(lease.get("new_other_billings")), lease.get("consultant")] for lease in listed]
            totals = _renewal_totals(listed, None)
            rows.append(["Totals:", None, None, _number_text(totals["actual_rent"]),
                         _number_text(totals["other_billings"]), None, None, _number_text(totals["market_rent"]),
                         None, None, None, None, None, _number_text(totals["new_rent"]),
                         _number_text(totals["new_other_billings"]), None])
            return rows
        if real_sheets:
            with book.sheet("Lease Expiration Detail") as sheet:
                _data_only_sheet(sheet, RENEWAL_DETAIL_COLUMNS, renewal_rows(leases))
            with book.sheet("Renewal Detail") as sheet:
                _data_only_sheet(sheet, RENEWAL_DETAIL_COLUMNS, renewal_rows(
                    [lease for lease in leases if lease.get("decision") in ("Renewed", "Transferring")]))
        else:
            with book.sheet("Lease Expiration Detail") as sheet:
                _data_only_sheet(sheet, ["Bldg/Unit", "FloorPlan", "Name", "Lease Term", "Lease end Date",
                                         "Move in Date", "Market Rent", "Actual rent", "Other Billings", "Balance"],
                                 [[lease["unit"], lease.get("floorplan"), lease.get("name"),
                                   _number_text(lease.get("term"), 0), _excel_datetime_text(lease.get("lease_end")),
                                   _excel_datetime_text(lease.get("move_in")), _number_text(lease.get("market_rent")),
                                   _number_text(lease.get("actual_rent")), _number_text(lease.get("other_billings")),
                                   _number_text(lease.get("balance"))] for lease in leases])
            with book.sheet("Renewal Detail") as sheet:
                _data_only_sheet(sheet, RENEWAL_DETAIL_COLUMNS, renewal_rows(leases))
        plans = sorted({lease.get("floorplan") for lease in leases if lease.get("floorplan")})
        decisions = ["Renewed", "Vacating", "Unknown"]
        with book.sheet("Summary by Floorplan") as sheet:
            rows = _renewal_floorplan_summary(leases, plans) if summary_figures else []
            for plan in ([] if summary_figures else plans):
                group = [lease for lease in leases if lease.get("floorplan") == plan]
                rows.append([plan, str(len(group))] + [str(sum(1 for lease in group if lease.get("decision") == d))
                                                       for d in decisions]
                            + [str(sum(1 for lease in group if lease.get("term") == "MTM")), "0", "0", "0"])
            _data_only_sheet(sheet, ["Floor Plan", "Total Possible", "Renewed", "Vacating", "Unknown",
                                     "Month to Month", "Avg term renewed leases", "Avg new rent", "Avg market rent"],
                             rows)
        with book.sheet("Future by Floorplan") as sheet:
            _data_only_sheet(sheet, ["Floor Plan", "0 - 30 days", "31 - 60 days", "61 - 90 days", "91+ days"],
                             [[plan, "0", "0", "0", "0"] for plan in plans])
        with book.sheet("Summary by Leasing Consultant") as sheet:
            agents = sorted({lease.get("consultant") for lease in leases if lease.get("consultant")})
            _data_only_sheet(sheet, ["Leasing Consultant", "Total Possible", "Renewed", "Vacating", "Unknown"],
                             [[agent, str(sum(1 for lease in leases if lease.get("consultant") == agent)), "0", "0",
                               "0"] for agent in agents])


# ----------------------------------------------------------------------------------------
# Projected Occupancy
# ----------------------------------------------------------------------------------------

PROJECTED_OCCUPANCY_HEADER = [
    ["Week", "# Occupied", "% Occupied", "Scheduled", "Scheduled", "Projected # Occupied", "Projected %"],
    ["Beginning", "At Week Begin", "At Week Begin", "Move-Ins", "Move-Outs", "At Week End", "Occupied At Week End"],
]


def write_projected_occupancy(dest, property_name, as_of, total_units, occupied, weeks, *, company=DEFAULT_COMPANY,
                              run_at=None, shared_strings=True):
    """Projected Occupancy (3842): `Total Units:` above the header, then one row per week.

    occupied: occupied units at the first week's beginning. weeks: dicts with start (the week's first day),
    move_ins, move_outs, and optionally projected (printed instead of occupied + move-ins - move-outs, to build a
    week that does not add up). Each week begins with the previous week's printed projection."""
    def pct(count):
        return f"{(Decimal(count) * 100 / total_units):.2f}"
    rows = []
    for week in weeks:
        projected = week.get("projected", occupied + week["move_ins"] - week["move_outs"])
        rows.append([date_text(week["start"]), occupied, pct(occupied) + "%", week["move_ins"], week["move_outs"],
                     projected, pct(projected)])
        occupied = projected
    _crystal_report(dest, property_name, as_of, title="PROJECTED OCCUPANCY", code=None,
                    as_of_line=f"As of {date_text(as_of)}",
                    parameters=["Day of week: Monday", f"Weeks projected: {len(rows)}"],
                    header=PROJECTED_OCCUPANCY_HEADER, rows=rows, company=company, run_at=run_at,
                    shared_strings=shared_strings, extra_title_lines=[["Total Units:", total_units]])


# ----------------------------------------------------------------------------------------
# Lost Rent Summary
# ----------------------------------------------------------------------------------------

LOST_RENT_COLUMNS = ["Location ID", "Location Name", "Bldg-Unit", "Resident Name", "Move In Date", "Move Out Date",
                     "Days Occupied", "Market Rent", "Lease Rent", "Rent Charged", "Loss to Rent", "Gain to Rent",
                     "Vacancy Current", "Vacancy Adjustments", "Concessions", "Other Losses",
                     "Lost Rent Not Charged"]
LOST_RENT_BY_FLOORPLAN_HEADER = [
    ["Floor", "Market", "Lease", "Loss to", "Gain to", "Vacancy", "Concessions", "Other", "Total Lost"],
    ["Plan", "Rent", "Rent", "Lease", "Lease", "Loss", None, "Losses", "Rent"],
]
LOST_RENT_MONEY = ["market_rent", "lease_rent", "rent_charged", "loss", "gain", "vacancy", "vacancy_adjustments",
                   "concessions", "other", "total"]


def _lost_total(entry):
    """Total lost rent = loss to lease - gain to lease + vacancy (+ adjustments) + concessions + other losses."""
    return (_sum([entry.get("loss"), entry.get("vacancy"), entry.get("vacancy_adjustments"), entry.get("concessions"),
                  entry.get("other")]) - _sum([entry.get("gain")]))


def _lost_sums(entries, overrides):
    sums = {key: _sum([entry.get(key) for entry in entries]) for key in LOST_RENT_MONEY if key != "total"}
    sums["total"] = _sum([_lost_total(entry) for entry in entries])
    sums.update(overrides or {})
    return sums


def write_lost_rent_summary(dest, property_name, as_of, units, *, fiscal_period=None, location="NEXUS",
                            shared_strings=True, company=DEFAULT_COMPANY):
    """Lost Rent Summary (Excel) (4279) as OneSite exports it: an .xlsx with a few title lines, then one clean
    header row and a row per unit (numbers as text), then "Totals".

    units: dicts with unit, resident, move_in, move_out, days_occupied and the amounts market_rent, lease_rent,
    rent_charged, loss, gain, vacancy, vacancy_adjustments, concessions, other (Lost Rent Not Charged is computed)."""
    as_of_d = _date(as_of)
    fiscal_period = fiscal_period or f"{as_of_d.month:02d}{as_of_d.year}"
    units = list(units)
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Lost Rent Summary") as sheet:
        sheet.row(["Lost Rent Summary"])
        sheet.row([f"{company} - {property_name}"])
        sheet.row([f"Fiscal period: {fiscal_period}"])
        sheet.row([f"As of {date_text(as_of)}"])
        sheet.blank()
        rows = []
        for unit in units:
            values = dict(unit)
            values["total"] = _lost_total(unit)
            rows.append([location, property_name, unit["unit"], unit.get("resident"),
                         date_text(unit.get("move_in")), date_text(unit.get("move_out")),
                         _number_text(unit.get("days_occupied"), 0)]
                        + [_number_text(values.get(key)) for key in LOST_RENT_MONEY])
        sums = _lost_sums(units, None)
        rows.append(["Totals", None, None, None, None, None, None] + [_number_text(sums[key]) for key in LOST_RENT_MONEY])
        _data_only_sheet(sheet, LOST_RENT_COLUMNS, rows)


def write_lost_rent_by_floorplan(dest, property_name, as_of, floorplans, *, fiscal_period=None, total_overrides=None,
                                 company=DEFAULT_COMPANY, run_at=None, shared_strings=True):
    """Lost Rent Summary by floor plan as a Crystal page-image report (title block, 2-row header, "Totals").

    floorplans: dicts with floorplan and market_rent, lease_rent, loss, gain, vacancy, concessions, other.
    total_overrides: {"vacancy": 1.0, ...} replaces printed totals."""
    as_of_d = _date(as_of)
    fiscal_period = fiscal_period or f"{as_of_d.month:02d}{as_of_d.year}"
    keys = ["market_rent", "lease_rent", "loss", "gain", "vacancy", "concessions", "other", "total"]
    rows = []
    for plan in floorplans:
        values = dict(plan)
        values["total"] = _lost_total(plan)
        rows.append([plan["floorplan"]] + [money_text(values.get(key), "text") for key in keys])
    sums = _lost_sums(floorplans, total_overrides)
    _crystal_report(dest, property_name, as_of, title="LOST RENT SUMMARY", code=None,
                    as_of_line=f"Fiscal Period {fiscal_period} As of {date_text(as_of)}",
                    parameters=["Summarize by: Floor plan"], header=LOST_RENT_BY_FLOORPLAN_HEADER, rows=rows,
                    company=company, run_at=run_at, shared_strings=shared_strings,
                    trailer=[["Totals"] + [money_text(sums[key], "text") for key in keys]])


# ----------------------------------------------------------------------------------------
# Primary Advertising Source Evaluation
# ----------------------------------------------------------------------------------------

ADVERTISING_SOURCE_HEADER = [
    ["Advertising", "1st Time Contacts", None, None, None, None, None, "Leasing Activity Detail", None, None, None,
     None, None, None, None, "% Converted", None],
    ["Source", "New Prospects", "This Period % of Prospects", "Phone Calls", "This Period % of Phone Calls", "Visits",
     "This Period % of Visits", "Visits", "Return Visits", "Off-Site Conversions", "Lease Applications", "Waitlist",
     "Leases Cancelled / Denied", "Net Leases with Waitlist", "% of Net", "Prospects to Lease Applications",
     "Visits to Lease Applications"],
]


def write_primary_advertising_source(dest, property_name, start_date, end_date, sources, *, total_overrides=None,
                                     company=DEFAULT_COMPANY, run_at=None, shared_strings=True):
    """Primary Advertising Source Evaluation (4158): a row per source, group headers merged over their columns,
    percents as text ("35.90"), then "Totals:" and a "Contact Types" section the parser must not read.

    sources: dicts with source, prospects, calls, first_visits, visits, return_visits, offsite, applications,
    waitlist, cancelled, and optionally net (printed instead of applications + waitlist - cancelled).
    total_overrides: {"prospects": 40, ...} replaces printed totals."""
    sources = list(sources)
    for source in sources:
        source.setdefault("net", source["applications"] + source["waitlist"] - source["cancelled"])
    keys = ["prospects", "calls", "first_visits", "visits", "return_visits", "offsite", "applications", "waitlist",
            "cancelled", "net"]
    totals = {key: sum(source[key] for source in sources) for key in keys}
    totals.update(total_overrides or {})

    def pct(part, whole):
        return f"{(Decimal(part) * 100 / whole):.2f}" if whole else "0.00"

    def line(label, values):
        return [label, values["prospects"], pct(values["prospects"], totals["prospects"]), values["calls"],
                pct(values["calls"], totals["calls"]), values["first_visits"],
                pct(values["first_visits"], totals["first_visits"]), values["visits"], values["return_visits"],
                values["offsite"], values["applications"], values["waitlist"], values["cancelled"], values["net"],
                pct(values["net"], totals["net"]), pct(values["applications"], values["prospects"]),
                pct(values["applications"], values["visits"])]

    rows = [line(source["source"], source) for source in sources]
    _crystal_report(dest, property_name, end_date, title="PRIMARY ADVERTISING SOURCE EVALUATION", code=None,
                    as_of_line=f"{date_text(start_date)} through {date_text(end_date)}",
                    parameters=["Leasing agents: All", "Include follow-ups: No"], header=ADVERTISING_SOURCE_HEADER,
                    merges=[(0, 1, 0, 6), (0, 7, 0, 14), (0, 15, 0, 16)], rows=rows, company=company,
                    run_at=run_at, shared_strings=shared_strings,
                    trailer=[line("Totals:", totals), None, ["Contact Types"],
                             ["Phone call", 13, "100.00"], ["Visit", 15, "100.00"]])


# ----------------------------------------------------------------------------------------
# Reasons for Move Out
# ----------------------------------------------------------------------------------------

MOVE_OUT_REASONS_HEADER = [["Category", None, "Reason", "Reason\nCount", "Category\nCount", "Reason %", "Category %"]]
MOVE_OUT_LIST_HEADER = ["Unit", "Name", "Move-Out Date", "Reason", "Category"]


def write_reasons_for_move_out(dest, property_name, start_date, end_date, categories, *, residents=(),
                               category_overrides=None, total_override=None, company=DEFAULT_COMPANY, run_at=None,
                               shared_strings=True):
    """Reasons for Move Out (3879): category rows (count, %), their reasons (count, %), "Totals:", then the
    "Move Out Detail" list (Unit, Name, Move-Out Date, Reason, Category) when residents are given.

    categories: [{"category": "Voluntary", "reasons": [{"reason", "count"}]}]. category_overrides:
    {"Voluntary": 7} prints another category count; total_override another Totals: count."""
    total = sum(reason["count"] for category in categories for reason in category["reasons"])

    def pct(count):
        return f"{(Decimal(count) * 100 / total):.2f}" if total else "0.00"

    rows = []
    for category in categories:
        count = sum(reason["count"] for reason in category["reasons"])
        printed = (category_overrides or {}).get(category["category"], count)
        rows.append([category["category"], None, None, None, printed, None, pct(count)])
        for reason in category["reasons"]:
            rows.append([None, None, reason["reason"], reason["count"], None, pct(reason["count"]), None])
    trailer = [["Totals:", None, None, total if total_override is None else total_override, None, "100.00", None]]
    if residents:
        trailer += [None, ["Move Out Detail"], MOVE_OUT_LIST_HEADER]
        trailer += [[resident["unit"], resident.get("name"), date_text(resident.get("move_out")),
                     resident.get("reason"), resident.get("category")] for resident in residents]
    _crystal_report(dest, property_name, end_date, title="REASONS FOR MOVE OUT", code=None,
                    as_of_line=f"Report run from {date_text(start_date)} to {date_text(end_date)}",
                    parameters=["Residents: Former Residents"], header=MOVE_OUT_REASONS_HEADER, rows=rows,
                    company=company, run_at=run_at, shared_strings=shared_strings, trailer=trailer)


# ----------------------------------------------------------------------------------------
# Lease Details (custom columns)
# ----------------------------------------------------------------------------------------

LEASE_DETAILS_EXPORT_COLUMNS = [
    ("Lease id", "lease_id"), ("Floor plan", "floorplan"), ("Occupancy status", "status"),
    ("Lease start date", "start"), ("Lease end date", "end"), ("Move-in date", "move_in"),
    ("Moved out date", "move_out"), ("Applied date", "applied"), ("Lease approved date", "approved"),
    ("Notice given date", "notice"), ("Lease term", "term"), ("Lease Rent", "rent"), ("Lease Total", "total"),
    ("Ledger Balance", "balance"), ("Move out notice type", "notice_type"), ("Move out reason", "reason"),
]
LEASE_DETAILS_REPORT_COLUMNS = [
    ("Bldg/Unit", "unit"), ("Resident", "resident"), ("Lease Status", "status"), ("Lease Start", "start"),
    ("Lease End", "end"), ("Move-In", "move_in"), ("Lease Rent", "rent"), ("Security Deposit", "deposit"),
    ("Balance", "balance"),
]
_LEASE_DATES = {"start", "end", "move_in", "move_out", "applied", "approved", "notice"}
_LEASE_MONEY = {"rent", "total", "deposit", "balance"}


def write_lease_details(dest, leases, *, columns=None, shared_strings=True):
    """Lease Details (4048) as its data-only export (OneSite sends CSV or HTML): the chosen columns' header at the
    top, one row per lease, no title block; dates M/D/YYYY text, amounts plain text. columns: (header, key) pairs,
    default the columns bary249/NASAdash's CSV had. leases: dicts keyed as in LEASE_DETAILS_EXPORT_COLUMNS
    ("end": "MTM" prints MTM)."""
    columns = columns or LEASE_DETAILS_EXPORT_COLUMNS

    def cell(lease, key):
        value = lease.get(key)
        if key in _LEASE_DATES and value not in (None, "MTM"):
            value = _date(value)
            return f"{value.month}/{value.day}/{value.year}"
        if key in _LEASE_MONEY:
            return _number_text(value)
        return value
    with XlsxWriter(dest, shared_strings=shared_strings) as book, book.sheet("Lease Details") as sheet:
        _data_only_sheet(sheet, [header for header, _ in columns],
                         [[cell(lease, key) for _, key in columns] for lease in leases])


def write_lease_details_report(dest, property_name, as_of, leases, *, total_overrides=None, company=DEFAULT_COMPANY,
                               run_at=None, shared_strings=True):
    """Lease Details with unit-keyed columns under a LEASE DETAILS title block, ending "Total" (rent, deposit,
    balance summed; total_overrides {"deposit": 1.0} replaces printed totals)."""
    rows = []
    for lease in leases:
        row = []
        for _, key in LEASE_DETAILS_REPORT_COLUMNS:
            value = lease.get(key)
            if key in _LEASE_DATES and value != "MTM":
                value = date_text(value)
            elif key in _LEASE_MONEY:
                value = money_text(value, "dollar")
            row.append(value)
        rows.append(row)
    totals = {key: _sum([lease.get(key) for lease in leases]) for key in ("rent", "deposit", "balance")}
    totals.update(total_overrides or {})
    _crystal_report(dest, property_name, as_of, title="LEASE DETAILS", code=None, as_of_line=f"As of {date_text(as_of)}",
                    parameters=["Columns: Bldg/Unit, Resident, Lease Status, Lease Start, Lease End, Move-In, "
                                "Lease Rent, Security Deposit, Balance"],
                    header=[[header for header, _ in LEASE_DETAILS_REPORT_COLUMNS]], rows=rows, company=company,
                    run_at=run_at, shared_strings=shared_strings,
                    trailer=[["Total", None, None, None, None, None, money_text(totals["rent"], "dollar"),
                              money_text(totals["deposit"], "dollar"), money_text(totals["balance"], "dollar")]])


def write_income_statement_worksheet_html(dest, property_name, as_of, lines, *, fiscal_period=None,
                                          company=DEFAULT_COMPANY, run_at=None):
    """The Income Statement Worksheet as OneSite really sends it: an HTML page (saved as .xlsx) whose page-header
    table holds the title block and whose LeaseVarianceTable holds Account | Sign | Amount, indented with &nbsp;.
    lines: as write_income_statement_worksheet."""
    as_of_d = _date(as_of)
    fiscal_period = fiscal_period or f"{as_of_d.month:02d}{as_of_d.year}"
    stamp = _run_at(as_of, run_at)

    def text(value):
        return (value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace(" ", "&nbsp;"))
    cells = "style='text-align:left;'class='RowCell'"
    right = "style='text-align:right;'class='RowCell'"
    rows = []
    for line in lines:
        label = "&nbsp;" * line[0] + text(line[1]) + "&nbsp;"
        if len(line) == 2:
            rows.append(f"<tr class='SectionHeader' ><td {cells}>{label}</td><td {right}>&nbsp;</td>"
                        f"<td {right}>&nbsp;</td></tr>")
        else:
            rows.append(f"<tr><td {cells}>{label}</td><td {right}>&nbsp;{line[2]}</td>"
                        f"<td {right}>&nbsp;{money_text(line[3], 'text')}</td></tr>")
    page = (
        "<html>\n  <head>\n    <META http-equiv=\"Content-Type\" content=\"text/html; charset=utf-8\">\n"
        "    <title>Income Statement Worksheet</title>\n</head><body><table class=\"Container\"><thead><tr><th>"
        "<table class=\"PageHeader\"><tr>"
        f"<td class=\"PH_left\">{PRODUCT_LINE}<br>{date_text(stamp)} {stamp.strftime('%I:%M:%S %p')}</td>"
        f"<td class=\"PH_center\"><b><div class=\"CompanySite\">{text(company)}&nbsp;-&nbsp;{text(property_name)}</div>"
        "<div class=\"ReportTitle\">Income Statement Worksheet</div><div class=\"ReportSubTitle\">\n"
        f"\t\t\t\t\t\t\t\t\tAs of: {date_text(as_of)}</div><br></b></td><td class=\"PH_right\">120.080.131</td></tr>"
        f"<tr><td class=\"ParamList\" colspan=\"3\"><b>Parameters:</b>&nbsp;&nbsp;Fiscal Period: {fiscal_period};  "
        "Report Format: Income Statement by G/L;  Special Accounts Style: Advanced<hr></td></tr></table></th></tr>"
        "</thead><tr><td style=\"text-align: left;\"><table class=\"LeaseVarianceTable\" id=\"LeaseVarianceTable\" >"
        "<thead><tr class=\"DetailsHeader\"><th style=\"text-align:left;\">Account</th><th>Sign</th><th>Amount</th>"
        "</tr></thead>" + "".join(rows) + "</table></td></tr></table></body></html>")
    with open(dest, "w", encoding="utf-8") as out:
        out.write(page)
