"""Yardi accounts-payable invoices of a generated property (ItfVendorInvoicing GetInvoiceRegister).

Drawn from a random generator of their own (seeded `<seed>:<key>:invoices`), after the property is generated, so
adding them leaves every other output -- units, leases, ledger, work orders, truth numbers -- byte-identical.
Computed lazily and cached on the property, like maintenance.of: the truth writer (a forked child) and the server
(the parent) draw the same invoices independently.

Horizon: the INVOICE_MONTHS post months ending with the as-of month; the as-of month holds only invoices dated on or
before the as-of date. A utility bill is often dated in the last days of the month before the one it is posted to:
the register's expenses are by post month (what the GL counts), never by invoice date.
"""

import datetime as dt

from .portfolio import Rng, add_months, month_start, month_key, days_in_month

INVOICE_MONTHS = 12             # post months served and kept in the truth: the as-of month and the 11 before

# Expense accounts of a Voyager chart (4 digits; the GL categories default to one category per hundred):
# account, name, monthly base in dollars per unit, share of months billed, vendors (id, name).
ACCOUNTS = [
    ("6150", "Payroll - Contract Staffing", 9.0, 0.8, [("v0000101", "Lone Star Staffing Inc")]),
    ("6240", "Office Supplies", 1.6, 0.9, [("v0000110", "Office Depot"), ("v0000111", "Staples Business")]),
    ("6310", "Repairs & Maintenance - Plumbing", 4.2, 0.95, [("v0000120", "Ace Plumbing Co"),
                                                              ("v0000121", "Rapid Rooter LLC")]),
    ("6320", "Repairs & Maintenance - HVAC", 4.8, 0.9, [("v0000130", "Polar Air Mechanical")]),
    ("6330", "Repairs & Maintenance - Appliances", 2.7, 0.85, [("v0000140", "Appliance Parts Depot")]),
    ("6410", "Turnover - Painting", 5.5, 0.9, [("v0000150", "ProCoat Painters")]),
    ("6420", "Turnover - Cleaning", 3.4, 0.9, [("v0000160", "Sparkle Make-Ready Cleaning")]),
    ("6510", "Contract Services - Landscaping", 3.9, 1.0, [("v0000170", "GreenScape Grounds")]),
    ("6520", "Contract Services - Pest Control", 1.0, 1.0, [("v0000180", "Terminix Commercial")]),
    ("6610", "Marketing - Internet Listing Services", 3.2, 1.0, [("v0000190", "Apartments.com"),
                                                                  ("v0000191", "Zillow Rentals")]),
    ("6710", "Utilities - Electric (Common Area)", 8.5, 1.0, [("v0000200", "City Power & Light")]),
    ("6720", "Utilities - Water/Sewer", 13.0, 1.0, [("v0000210", "Municipal Water Utility")]),
    ("6730", "Utilities - Gas", 2.1, 0.75, [("v0000220", "Atmos Energy")]),
    ("6810", "Insurance - Property", 21.0, 1.0, [("v0000230", "Travelers Insurance")]),
    ("6910", "Taxes - Real Estate", 90.0, 1.0, [("v0000240", "County Tax Assessor")]),
]
UTILITIES = ("67",)             # billed in arrears: an invoice dated late in the prior month is common

LINE_TEXT = {
    "6150": "Leasing agent coverage", "6240": "Office supplies", "6310": "Plumbing repair", "6320": "HVAC service call",
    "6330": "Appliance parts", "6410": "Unit paint", "6420": "Make-ready clean", "6510": "Monthly grounds service",
    "6520": "Monthly pest service", "6610": "Listing package", "6710": "Common area electric",
    "6720": "Water and sewer", "6730": "Gas service", "6810": "Property insurance installment",
    "6910": "Real estate tax escrow",
}


class Invoice:
    __slots__ = ("id", "number", "vendor_id", "vendor_name", "invoice_date", "post_month", "due_date", "lines",
                 "created")

    def __init__(self):
        self.lines = []             # [(line id, account, account name, cents, description)]

    @property
    def total_cents(self):
        return sum(line[3] for line in self.lines)


def of(g, p):
    """The property's invoices, post months in order (drawn once, cached on the property); Yardi only."""
    inv = getattr(p, "_invoices", None)
    if inv is None:
        inv = _generate(g, p) if p.pms == "yardi" else []
        p._invoices = inv
    return inv


def post_months(as_of):
    """The first days of the INVOICE_MONTHS post months, oldest first, ending with as_of's month."""
    first = month_start(as_of)
    return [add_months(first, -k) for k in range(INVOICE_MONTHS - 1, -1, -1)]


def _generate(g, p):
    rng = Rng("%s:%s:invoices" % (g.seed, p.key))
    return _draw(rng, p, post_months(g.as_of), g.as_of, p.id_base + 700000, p.id_base * 10 + 3000000)[0]


def _draw(rng, p, months, as_of, serial, line_serial, received_after=None, billed=frozenset()):
    """The invoices of the post months `months` dated on or before `as_of` (and after `received_after`, when
    given), accounts in `billed` ((month, account) pairs) skipped; returns them and the last ids used."""
    n_units = len(p.units)
    scale = rng.uniform(0.85, 1.2)
    out = []
    for m in months:
        dim = days_in_month(m.year, m.month)
        for account, name, per_unit, share, vendors in ACCOUNTS:
            if rng.random() > share or (m, account) in billed:
                continue
            monthly = per_unit * n_units * scale * rng.uniform(0.8, 1.25)
            # Repairs come as several smaller invoices a month; the rest as one bill.
            parts = rng.randint(1, 3) if account[:2] in ("63", "64") else 1
            for k in range(parts):
                vendor_id, vendor_name = vendors[rng.randrange(len(vendors))]
                day = rng.randint(1, dim)
                invoice_date = dt.date(m.year, m.month, day)
                if account[:2] in UTILITIES and rng.random() < 0.5:
                    prev = add_months(m, -1)
                    invoice_date = dt.date(prev.year, prev.month, days_in_month(prev.year, prev.month) - rng.randint(0, 4))
                if invoice_date > as_of or (received_after is not None and invoice_date <= received_after):
                    continue        # not received yet: the as-of month is month to date
                cents = int(round(monthly / parts * 100 * rng.uniform(0.7, 1.3)))
                serial += 1
                inv = Invoice()
                inv.id = str(serial)
                inv.number = "%s-%05d" % (vendor_id[-3:], rng.randint(1000, 99999))
                inv.vendor_id, inv.vendor_name = vendor_id, vendor_name
                inv.invoice_date, inv.post_month = invoice_date, m
                inv.due_date = invoice_date + dt.timedelta(days=30)
                inv.created = invoice_date + dt.timedelta(days=rng.randint(0, 3))
                lines = [(account, name, cents, LINE_TEXT[account])]
                if account[:2] in ("63", "64") and rng.random() < 0.3:
                    # Materials on their own line of the same invoice (same account), sometimes a credit.
                    extra = rng.randint(20, 250) * 100 + rng.choice((0, 25, 50, 99))
                    if rng.random() < 0.15:
                        lines.append((account, name, -extra, "Credit - returned parts"))
                    else:
                        lines.append((account, name, extra, "Materials"))
                for acc, nm, c, text in lines:
                    line_serial += 1
                    inv.lines.append((str(line_serial), acc, nm, c, text))
                out.append(inv)
    out.sort(key=lambda i: (i.post_month, i.invoice_date, int(i.id)))
    return out, serial, line_serial


CLOCK_MONTHS = 15               # post months the clock draws ahead (a year of nights and some)


def start_clock(g, p):
    """Before the clock first moves (clock.py): the invoices of the coming post months, received on their invoice
    dates as the clock reaches them (`churn`). The start month's accounts already billed are not billed again."""
    invoices = of(g, p)
    if p.pms != "yardi" or hasattr(p, "_invoices_ahead"):
        return
    start = month_start(g.as_of)
    billed = {(inv.post_month, line[1]) for inv in invoices if inv.post_month == start for line in inv.lines}
    serial = max([int(inv.id) for inv in invoices] or [p.id_base + 700000])
    line_serial = max([int(line[0]) for inv in invoices for line in inv.lines] or [p.id_base * 10 + 3000000])
    rng = Rng("%s:%s:invoices-clock" % (g.seed, p.key))
    ahead, _, _ = _draw(rng, p, [add_months(start, k) for k in range(CLOCK_MONTHS)], dt.date(9999, 12, 31), serial,
                        line_serial, received_after=g.as_of, billed=billed)
    p._invoices_ahead = sorted(ahead, key=lambda i: (i.invoice_date, int(i.id)))


def churn(p, day):
    """The clock's day: the invoices dated `day` are received; post months older than INVOICE_MONTHS drop out."""
    ahead = getattr(p, "_invoices_ahead", None)
    if not ahead:
        return 0
    received = [inv for inv in ahead if inv.invoice_date <= day]
    p._invoices_ahead = ahead[len(received):]
    first = post_months(day)[0]
    p._invoices = sorted([inv for inv in p._invoices + received if inv.post_month >= first],
                         key=lambda i: (i.post_month, i.invoice_date, int(i.id)))
    return len(received)


def truth(g, p):
    """`expenses` of the truth file for a Yardi property: {YYYY-MM (post month): {account: dollars}}."""
    cents = {}
    for inv in of(g, p):
        month = cents.setdefault(month_key(inv.post_month), {})
        for _lid, account, _name, c, _text in inv.lines:
            month[account] = month.get(account, 0) + c
    return {m: {a: round(c / 100.0, 2) for a, c in sorted(accts.items())} for m, accts in sorted(cents.items())}
