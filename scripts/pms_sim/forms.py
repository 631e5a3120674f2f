"""The form a report download comes in: the bytes, their Content-Type and the file name the server gives.

OneSite answers a report in whatever its export produces, and the extension it names the file with says little
(docs/onesite-reports.md, "File forms"). Every report is laid out once as .xlsx by reports.py; this module turns it
into the form OneSite sends for that report at that property (scripts/lib/report_forms.py converts, cell for cell):

* for every property, as the real downloads are: Lost Rent Summary (4279) is an .xlsx named .xls; Lease Details
  (4048, "excel" 63) an HTML page named .xlsx; the Lease Expiration/Renewal Detail workbook (4156) a BIFF8 .xls;
  the Leasing Activity Detail (LEA-236-001) a BIFF8 named .xlsx (Crystal), or under `report_lead_detail_data_only`
  its data-only BIFF8 .xls;
* per property, the quirks of quirks.py: `report_form_biff8` (the Crystal reports as BIFF8 .xls),
  `report_form_html` (Activity as HTML named .xls, Income Statement as HTML named .xlsx), `report_form_csv`
  (Activity and Lease Details as CSV), `report_rent_roll_charge_columns` (the Rent Roll as the CSV sites save, laid
  out by reports.py), `report_form_pdf` (Projected Occupancy as a PDF),
  `report_form_xlsx_named_xls` (every .xlsx of the property named .xls), `report_html_negatives` (Delinquent and
  Prepaid as HTML named .xls: amounts `1,234.50`, negatives `(1,234.50)`).

The truth never depends on the form: the same cells are in every one (a PDF carries only the report's heading,
which is why OwnerDash must refuse it).
"""

import os
import sys

LIB = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))

XLSX_CT = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
XLS_CT = "application/vnd.ms-excel"
CONTENT_TYPE = {"xlsx": XLSX_CT, "xls": XLS_CT, "csv": "text/csv; charset=utf-8", "pdf": "application/pdf"}

# The Crystal page-image reports (quirk report_form_biff8).
CRYSTAL = {"box_score", "rent_roll", "delinquency", "activity", "monthly_summary", "lease_expiration",
           "make_ready_summary", "closed_make_ready", "monthly_transaction_summary", "projected_occupancy"}


def form_of(quirks, key, kind):
    """(form, extension) of report `kind` at property `key`: form is xlsx, xls (BIFF8), html, csv or pdf; the
    extension is what the file is named."""
    has = (lambda q: quirks is not None and quirks.has(q, key))
    if kind == "projected_occupancy" and has("report_form_pdf"):
        return "pdf", "pdf"
    if kind == "rent_roll" and has("report_rent_roll_charge_columns"):
        return "csv", "csv"
    if kind in ("activity", "lease_details") and has("report_form_csv"):
        return "csv", "csv"
    if kind == "activity" and has("report_form_html"):
        return "html", "xls"
    if kind == "delinquency" and has("report_html_negatives"):
        return "html", "xls"
    if kind == "income_statement" and has("report_form_html"):
        return "html", "xlsx"
    if kind == "lease_details":
        return "html", "xlsx"
    if kind == "renewal_detail":
        return "xls", "xls"
    if kind == "leasing_activity_detail":
        # As the real downloads: the data-only export a BIFF8 .xls, the Crystal one a BIFF8 named .xlsx.
        return ("xls", "xls") if has("report_lead_detail_data_only") else ("xls", "xlsx")
    if kind in CRYSTAL and has("report_form_biff8"):
        return "xls", "xls"
    if kind == "lost_rent_summary" or has("report_form_xlsx_named_xls"):
        return "xlsx", "xls"
    return "xlsx", "xlsx"


def serve(quirks, key, kind, title, xlsx):
    """(bytes, content type, extension) of the report whose .xlsx is `xlsx`. The Content-Type follows the name, as
    a server that names an HTML page .xls calls it a spreadsheet."""
    form, extension = form_of(quirks, key, kind)
    if form == "xlsx":
        body = xlsx
    else:
        # Imported on first use: start-up (which the tests time) does not pay for the converters.
        if LIB not in sys.path:
            sys.path.insert(0, LIB)
        import report_forms
        book = report_forms.read_xlsx(xlsx)
        if form == "xls":
            body = report_forms.to_xls(book)
        elif form == "html":
            body = report_forms.to_html(book, title=title)
        elif form == "csv":
            body = report_forms.to_csv(book)
        else:
            body = report_forms.to_pdf(book)
    return body, CONTENT_TYPE.get(extension, XLSX_CT), extension
