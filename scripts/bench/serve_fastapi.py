"""The seed system's stack for scripts/bench/serve.sh: FastAPI + uvicorn + sqlite3 answering the summary's main reads
(each property's latest occupancy snapshot and its delinquency at that date) from the same unified.db.

    UNIFIED_DB=path/unified.db uvicorn serve_fastapi:app --port PORT
"""
import os
import sqlite3

from fastapi import FastAPI, HTTPException

app = FastAPI()
DATABASE = os.environ["UNIFIED_DB"]

SUMMARY = """
WITH latest AS (
    SELECT unified_property_id, max(as_of_date) AS as_of_date FROM unified_occupancy_metrics
    WHERE (:property IS NULL OR unified_property_id = :property) GROUP BY unified_property_id)
SELECT o.unified_property_id, o.as_of_date, o.total_units, o.occupied_units, o.physical_occupancy, o.leased_pct,
       o.exposure_30_pct, o.exposure_60_pct, o.vacant_ready, o.aged_vacant_90,
       (SELECT coalesce(sum(d.current_balance), 0) FROM unified_delinquency d
         WHERE d.unified_property_id = o.unified_property_id AND d.as_of_date = o.as_of_date) AS delinquent
FROM unified_occupancy_metrics o JOIN latest USING (unified_property_id, as_of_date)
ORDER BY o.unified_property_id
"""


def rows(property_id):
    connection = sqlite3.connect(f"file:{DATABASE}?mode=ro", uri=True)
    connection.row_factory = sqlite3.Row
    try:
        return [dict(row) for row in connection.execute(SUMMARY, {"property": property_id})]
    finally:
        connection.close()


@app.get("/api/v2/properties/{property_id}/summary")
def property_summary(property_id: str):
    found = rows(property_id)
    if not found:
        raise HTTPException(status_code=404, detail="unknown property")
    return {"rows": found}


@app.get("/api/v2/portfolio/summary")
def portfolio_summary():
    return {"rows": rows(None)}
