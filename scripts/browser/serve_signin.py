#!/usr/bin/python3
"""Browser test of `ownerdash serve`: Debian's Chromium driven through chromium-driver (python3-selenium).

    scripts/browser/serve_signin.py OWNERDASH_BINARY OUT_DIR

Builds a small unified.db (the schema from `ownerdash sync`, rows as Tests/ServeTests/ServeFixture.swift, and 60
more properties with long names, so the portfolio table has pages), starts scripts/oidc/provider.py and `ownerdash
serve` on loopback, then in headless Chromium: opens the dashboard (sent to the provider's login form), signs in,
sees the portfolio, looks at the portfolio page and a property page at 390, 1,024 and 1,400 CSS px wide (a
screenshot each; it fails if the page scrolls sideways: wide tables must scroll in their own box), opens a
property's page and its lease status, filters it by URL, signs out, and checks the dashboard asks for sign-in
again; on the way it resolves the audit's one exception from the audit page. Screenshots go to OUT_DIR
(1-dashboard.png, width-390-portfolio.png ...). Exits 1 with the step that failed.
"""
import base64
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

ROWS = """
INSERT INTO unified_properties (unified_property_id, name, pms_source, total_units, as_of_date, ledger_source)
VALUES ('yp', 'Yardi Place', 'yardi', 2, '2026-11-20', 'yardi: test'), ('rp', 'RealPage Place', 'realpage', 10, '2026-11-20', NULL);
INSERT INTO unified_units (unified_property_id, unit_number, floor, floorplan, status)
VALUES ('yp', '201', '2', 'B1', 'occupied'), ('yp', '101', '1', 'A1', 'occupied');
INSERT INTO unified_residents (unified_property_id, resident_id, unit_number, name, status)
VALUES ('yp', 't1', '101', 'Lee, Ann', 'current'), ('yp', 't2', '201', 'Ito, Ken', 'current'), ('yp', 't3', '101', 'Old, Tenant', 'former');
INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, category,
    category_known, period, charge_date, due_date, amount, amount_paid, balance)
VALUES ('yp', 'c1', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1400, 1400, 0),
       ('yp', 'c3', 't1', 'L1', '101', 'rent', 'RENT', 1, '2026-11', '2026-11-01', '2026-11-01', 1400, 500, 900),
       ('yp', 'c4', 't2', 'L2', '201', 'rent', 'RENT', 1, '2026-11', '2026-11-25', '2026-11-25', 1900, 0, 1900),
       ('yp', 'c6', 't3', 'L0', '101', 'rent', 'RENT', 1, '2026-10', '2026-10-01', '2026-10-01', 1300, 0, 1300);
INSERT INTO unified_charges (unified_property_id, charge_id, resident_id, lease_id, unit_number, charge_code, category,
    category_known, period, charge_date, due_date, amount, amount_paid, balance)
VALUES ('yp', 'c2', 't1', 'L1', '101', 'water', 'UTILITIES', 1, '2026-10', '2026-10-01', '2026-10-01', 40, 0, 40);
INSERT INTO unified_leases (unified_property_id, lease_id, unit_number, resident_id, start_date, end_date, status,
    is_renewal, is_month_to_month)
VALUES ('yp', 'L1', '101', 't1', '2026-10-01', '2027-09-30', 'current', 0, 0);
INSERT INTO unified_recurring_charges (unified_property_id, lease_id, resident_id, unit_number, charge_code, category,
    category_known, amount, start_date, end_date)
VALUES ('yp', 'L1', 't1', '101', 'rent', 'RENT', 1, 1400, '2026-10-01', '2027-09-30'),
       ('yp', 'L1', 't1', '101', 'water', 'UTILITIES', 1, 40, '2026-10-01', '2027-09-30');
INSERT INTO unified_occupancy_metrics (unified_property_id, as_of_date, total_units, occupied_units, vacant_units,
    vacant_leased, vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice,
    notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units, physical_occupancy, leased_pct,
    exposure_now, exposure_30, exposure_60, exposure_now_pct, exposure_30_pct, exposure_60_pct, source)
VALUES ('yp', '2026-11-20', 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 100, 100, 0, 0, 1, 0, 0, 50, 'test'),
       ('rp', '2026-11-20', 10, 9, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 90, 90, 1, 1, 2, 10, 10, 20, 'test');
-- The reconciliations whose long details ran the table off the page at 1,400 px.
INSERT INTO sync_checks (unified_property_id, as_of_date, run_id, check_name, measure, expected_source, expected,
    actual_source, actual, difference, status, detail)
VALUES ('yp', '2026-11-20', 'r1', 'box_score', 'units', 'Box Score Property Totals', 352, 'unified_units', 353, 1, 'failed',
        'Box Score Property Totals says 352 units, unified_units counts 353 (difference 1, tolerance 0): the unit list and the box score disagree at the sync of this night'),
       ('yp', '2026-11-20', 'r1', 'delinquency_totals', 'net balance', 'Delinquent and Prepaid Grand Totals', -96267.53,
        'unified_delinquency', -96267.53, 0, 'passed',
        'Delinquent and Prepaid Grand Totals -96267.53 = unified_delinquency -96267.53 (the sum of every resident line of the report)');
"""

# Sixty more properties, names long enough to wrap, so the portfolio table has two pages.
ROWS += "".join(
    f"""INSERT INTO unified_properties (unified_property_id, name, pms_source, total_units, as_of_date)
VALUES ('zx_{n:02d}', 'The Residences at Boulder Creek Crossing Phase {n}', 'realpage', 120, '2026-11-20');
INSERT INTO unified_occupancy_metrics (unified_property_id, as_of_date, total_units, occupied_units, vacant_units,
    vacant_leased, vacant_not_leased, vacant_ready, vacant_not_ready, aged_vacant_90, aged_vacancy_cost, on_notice,
    notice_leased, notice_not_leased, pre_leased, model_units, down_units, leased_units, physical_occupancy, leased_pct,
    exposure_now, exposure_30, exposure_60, exposure_now_pct, exposure_30_pct, exposure_60_pct, source)
VALUES ('zx_{n:02d}', '2026-11-20', 120, {100 + n % 20}, {20 - n % 20}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {100 + n % 20},
        0, 0, 0, 3, 5, 0, 0, 0, 'test');
""" for n in range(1, 61))

WIDTHS = (390, 1024, 1400)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_url(driver, prefix, seconds=20):
    """Waits for the browser to arrive at a URL starting with prefix (a redirect chain may still be going)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if driver.current_url.startswith(prefix):
            return
        time.sleep(0.1)
    raise AssertionError(f"expected {prefix}..., at {driver.current_url}")


def wait_text(driver, text, seconds=20):
    """Waits for text to appear in the page (after a form post that comes back to the same URL)."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        if text in driver.page_source:
            return
        time.sleep(0.1)
    raise AssertionError(f"never showed {text!r}")


def wait_for(url):
    for _ in range(300):
        try:
            urllib.request.urlopen(url, timeout=1)
            return
        except Exception:
            time.sleep(0.1)
    raise SystemExit(f"serve_signin: {url} never answered")


def main():
    binary, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    data = tempfile.mkdtemp(prefix="serve-browser-")
    subprocess.run([binary, "sync", "--data-dir", data, "--quiet"], capture_output=True)   # creates the schema
    database = sqlite3.connect(os.path.join(data, "unified.db"))
    database.executescript(ROWS)
    database.commit()
    database.close()
    subprocess.run([binary, "users", "add", "owner@example.com", "--role", "owner", "--data-dir", data], check=True,
                   capture_output=True)
    # November's water of L1 was never posted: the audit's exception to resolve.
    subprocess.run([binary, "audit", "run", "--property", "yp", "--as-of", "2026-11-20", "--months", "2",
                    "--data-dir", data], check=True, capture_output=True)

    provider = subprocess.Popen([sys.executable, os.path.join(ROOT, "scripts/oidc/provider.py")],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    issuer = provider.stdout.readline().split()[-1]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    environment = dict(os.environ, OWNERDASH_OIDC_ISSUER=issuer, OWNERDASH_OIDC_CLIENT_ID="ownerdash",
                       OWNERDASH_OIDC_CLIENT_SECRET="test-secret", OWNERDASH_OIDC_REDIRECT_URL=base + "/auth/callback",
                       OWNERDASH_COOKIE_KEY=base64.b64encode(os.urandom(32)).decode())
    server = subprocess.Popen([binary, "serve", "--listen", f"127.0.0.1:{port}", "--data-dir", data, "--quiet"],
                              env=environment)
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,900"):
        options.add_argument(argument)
    driver = None
    step = "start"
    # Chromium leaves its own scratch directories in TMPDIR: this run's, removed with the data directory.
    browser_tmp = os.path.join(data, "browser-tmp")
    os.makedirs(browser_tmp)
    try:
        wait_for(base + "/healthz")
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver", env=dict(os.environ, TMPDIR=browser_tmp)),
                                  options=options)
        driver.implicitly_wait(10)   # elements: a loaded machine may take a while
        step = "the dashboard sends a visitor to sign in"
        driver.get(base + "/")
        wait_url(driver, issuer + "/authorize?")
        driver.save_screenshot(os.path.join(out, "0-provider-login.png"))
        step = "sign in"
        driver.find_element(By.ID, "email").send_keys("owner@example.com")
        driver.find_element(By.ID, "login").click()
        wait_url(driver, base + "/")
        assert driver.current_url == base + "/", driver.current_url
        step = "see the portfolio"
        table = driver.find_element(By.ID, "portfolio-table")
        assert "Yardi Place" in table.text and "RealPage Place" in table.text, table.text
        assert "owner@example.com" in driver.find_element(By.ID, "user").text
        driver.save_screenshot(os.path.join(out, "1-dashboard.png"))
        for width in WIDTHS:
            # The viewport itself, not the window: innerWidth is then exactly the width asked for.
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
            for name, path in (("portfolio", "/"), ("property", "/property/yp")):
                step = f"the {name} page at {width} px does not scroll sideways"
                driver.get(base + path)
                driver.find_element(By.ID, "serve-bar")
                scroll, inner = driver.execute_script(
                    "return [document.documentElement.scrollWidth, window.innerWidth];")
                driver.save_screenshot(os.path.join(out, f"width-{width}-{name}.png"))
                assert inner == width, f"the viewport is {inner} px, not {width}"
                assert scroll <= inner, f"{path} is {scroll} px wide in a {inner} px window"
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        step = "the portfolio table has pages, and sorts by a heading"
        driver.get(base + "/")
        driver.find_element(By.CSS_SELECTOR, "a[rel='next']").click()
        wait_url(driver, base + "/?page=2")
        driver.find_element(By.CSS_SELECTOR, "th a.sort[href^='/?sort=occupancy']").click()
        wait_url(driver, base + "/?sort=occupancy")
        sorted_by = driver.find_element(By.CSS_SELECTOR, "th[aria-sort='ascending']").text
        assert sorted_by.lower().startswith("occupancy"), sorted_by
        step = "search the portfolio"
        driver.get(base + "/")
        driver.find_element(By.NAME, "q").send_keys("yardi")
        driver.find_element(By.CSS_SELECTOR, "#portfolio-filter button").click()
        wait_url(driver, base + "/?q=yardi")
        rows = driver.find_elements(By.CSS_SELECTOR, "#portfolio-table tbody tr")
        assert [row.get_attribute("data-key") for row in rows] == ["yp"], [row.text for row in rows]
        step = "open a property's page, then its lease status"
        driver.find_element(By.CSS_SELECTOR, "a[href='/property/yp']").click()
        wait_url(driver, base + "/property/yp")
        assert "Checked against Yardi's own totals" in driver.page_source
        driver.find_element(By.CSS_SELECTOR, "a[href='/lease-status?property=yp']").click()
        assert "Lee, Ann" in driver.page_source
        driver.save_screenshot(os.path.join(out, "2-lease-status.png"))
        step = "filter lease status by URL"
        driver.get(base + "/lease-status?property=yp&start=2026-10&months=2&include_inactive=true")
        assert driver.find_element(By.NAME, "start").get_attribute("value") == "2026-10"
        assert driver.find_element(By.NAME, "include_inactive").is_selected()
        assert "Old, Tenant" in driver.page_source
        driver.save_screenshot(os.path.join(out, "3-lease-status-filtered.png"))
        step = "resolve an audit exception"
        driver.get(base + "/audit")
        form = driver.find_element(By.CSS_SELECTOR, "form.resolve")
        form.find_element(By.NAME, "fix").send_keys("posted November water")
        form.find_element(By.TAG_NAME, "button").click()
        # The post comes back to /audit itself: wait for the recorded resolution, not for the URL.
        wait_text(driver, "charge: posted November water — owner@example.com")
        driver.find_element(By.CSS_SELECTOR, "form.reopen")
        driver.save_screenshot(os.path.join(out, "4-audit-resolved.png"))
        step = "sign out"
        copied = driver.get_cookie("od_session")
        assert copied, "no od_session cookie while signed in"
        driver.find_element(By.ID, "signout").click()
        wait_url(driver, issuer + "/end_session")
        step = "signed out: the dashboard asks for sign-in again"
        driver.get(base + "/")
        wait_url(driver, issuer + "/authorize?")
        step = "signed out: the old session cookie put back is refused"
        driver.get(base + "/healthz")
        driver.add_cookie({"name": "od_session", "value": copied["value"], "path": "/"})
        driver.get(base + "/debtors")
        wait_url(driver, issuer + "/authorize?")
        driver.save_screenshot(os.path.join(out, "5-signed-out.png"))
        print(f"browser test passed; screenshots in {out}")
    except Exception as error:
        if driver is not None:
            driver.save_screenshot(os.path.join(out, "failed.png"))
        print(f"serve_signin: {step}: {error!r}", file=sys.stderr)
        sys.exit(1)
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait()
        provider.stdin.close()
        provider.wait()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
