#!/usr/bin/env python3
"""Writes a large OneSite-shaped Rent Roll .xlsx for the reader/loader benchmark.

Usage: make_big_rent_roll.py OUT.xlsx ROWS [--seed N] [--sheets N]

--sheets N writes N such sheets ("Rent Roll", "Rent Roll 2", ...), ROWS rows each: the shape of the .xls
benchmark, since BIFF8 holds at most 65,536 rows per sheet.

Shape: a title block (product line, company - property, title, As of), one header row
of 14 columns, then ROWS unit rows: text columns as shared strings (unit numbers,
floorplans, statuses and resident names repeat as they do in a real portfolio export),
dates as date-formatted serials, money as numbers with a currency format, and the
`Balance` column written as text money ("$1,234.50", "($50.00)") in one row out of ten,
the way Crystal exports mix them. Uses scripts/lib/xlsx_writer.py, which streams the
sheet, so memory stays small. Python standard library only.
"""
import datetime
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from xlsx_writer import Cell, XlsxWriter  # noqa: E402

HEADER = ["Unit", "Bldg", "Floor Plan", "SQFT", "Resh ID", "Name", "Unit/Lease Status",
          "Market Rent", "Lease Rent", "Move-In", "Lease Start", "Lease End", "Move-Out", "Balance"]
FLOORPLANS = [("A1", 610), ("A2", 702), ("B1", 1015), ("B2", 1120), ("S1", 480), ("C1", 1390)]
STATUSES = ["Occupied no NTV"] * 14 + ["Occupied NTV", "Occupied NTV Leased", "Vacant", "Vacant Leased"]
FIRST = ["James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
         "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Carlos", "Karen"]
LAST = ["Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
        "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin",
        "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis", "Robinson"]
MONEY = '"$"#,##0.00'


def write_sheet(book, name, rows, rnd):
    epoch = datetime.date(2017, 9, 22)
    with book.sheet(name) as sheet:
        for line in ["OneSite Rents v3.0", "Kairoi Residential - Nexus East", "RENT ROLL DETAIL",
                     "As of 11/20/2026"]:
            sheet.row([line])
        sheet.row([])
        sheet.row(HEADER)
        for n in range(rows):
            fp, sqft = FLOORPLANS[n % len(FLOORPLANS)]
            status = STATUSES[rnd.randrange(len(STATUSES))]
            market = 1100 + 150 * (n % len(FLOORPLANS)) + rnd.randrange(0, 200)
            row = [f"{n // 40 + 1:04d}-{n % 40 + 100}", str(n // 40 + 1), fp, sqft]
            if status.startswith("Vacant"):
                row += [None, None, status, Cell(market, MONEY)]
            else:
                move_in = epoch + datetime.timedelta(days=rnd.randrange(0, 3000))
                rent = market - rnd.randrange(0, 120) + rnd.randrange(0, 100) / 100
                balance = rnd.choice([0, 0, 0, 0, 0, 0, 35.5, 125, rent, -50])
                if n % 10 == 3:
                    text = f"${abs(balance):,.2f}"
                    balance_cell = f"({text})" if balance < 0 else text
                else:
                    balance_cell = Cell(round(balance, 2), MONEY)
                name_text = f"{LAST[rnd.randrange(len(LAST))]}, {FIRST[rnd.randrange(len(FIRST))]}"
                row += [100000 + n, name_text, status, Cell(market, MONEY), Cell(round(rent, 2), MONEY),
                        move_in, move_in, move_in + datetime.timedelta(days=365), None, balance_cell]
            sheet.row(row)


def main():
    out, rows = sys.argv[1], int(sys.argv[2])
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 7
    sheets = int(sys.argv[sys.argv.index("--sheets") + 1]) if "--sheets" in sys.argv else 1
    rnd = random.Random(seed)
    with XlsxWriter(out) as book:
        for index in range(sheets):
            write_sheet(book, "Rent Roll" if index == 0 else f"Rent Roll {index + 1}", rows, rnd)


if __name__ == "__main__":
    main()
