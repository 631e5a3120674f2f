#!/usr/bin/env python3
"""Reads every cell of the first sheet of a workbook with one of the Python readers a user
would otherwise pick, and prints the number of rows. Run inside the benchmark's virtualenv.

Usage: peer_readers.py fastexcel|calamine|openpyxl|pandas|xlrd FILE [--all-sheets]

--all-sheets reads every sheet (the .xls benchmark: BIFF8 splits big reports over sheets).
xlrd reads legacy .xls only.
"""
import sys


def main():
    reader, path = sys.argv[1], sys.argv[2]
    all_sheets = "--all-sheets" in sys.argv[3:]
    rows = cells = 0
    if reader == "fastexcel":
        import fastexcel
        book = fastexcel.read_excel(path)
        for index in range(len(book.sheet_names) if all_sheets else 1):
            table = book.load_sheet(index, header_row=None).to_arrow()
            rows += table.num_rows
            for column in table.columns:
                cells += len(column.to_pylist())
    elif reader == "calamine":
        from python_calamine import CalamineWorkbook
        book = CalamineWorkbook.from_path(path)
        for index in range(len(book.sheet_names) if all_sheets else 1):
            data = book.get_sheet_by_index(index).to_python()
            rows += len(data)
            cells += sum(len(r) for r in data)
    elif reader == "xlrd":
        import xlrd
        book = xlrd.open_workbook(path, on_demand=True)
        for index in range(book.nsheets if all_sheets else 1):
            sheet = book.sheet_by_index(index)
            for r in range(sheet.nrows):
                cells += len(sheet.row_values(r))
            rows += sheet.nrows
            book.unload_sheet(index)
    elif reader == "openpyxl":
        import openpyxl
        workbook = openpyxl.load_workbook(path, read_only=True, data_only=True)
        for row in workbook.worksheets[0].iter_rows(values_only=True):
            rows += 1
            cells += len(row)
    elif reader == "pandas":
        import pandas
        frame = pandas.read_excel(path, sheet_name=0, header=None, engine="openpyxl")
        rows = len(frame)
        cells = frame.size
    else:
        sys.exit(f"unknown reader {reader}")
    print(f"{rows} rows {cells} cells")


if __name__ == "__main__":
    main()
