#!/usr/bin/env python3
"""Reads every cell of the first sheet of an .xlsx with one of the Python readers a user
would otherwise pick, and prints the number of rows. Run inside the benchmark's virtualenv.

Usage: peer_readers.py fastexcel|calamine|openpyxl|pandas FILE
"""
import sys


def main():
    reader, path = sys.argv[1], sys.argv[2]
    rows = cells = 0
    if reader == "fastexcel":
        import fastexcel
        table = fastexcel.read_excel(path).load_sheet(0, header_row=None).to_arrow()
        rows = table.num_rows
        for column in table.columns:
            cells += len(column.to_pylist())
    elif reader == "calamine":
        from python_calamine import CalamineWorkbook
        data = CalamineWorkbook.from_path(path).get_sheet_by_index(0).to_python()
        rows = len(data)
        cells = sum(len(r) for r in data)
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
