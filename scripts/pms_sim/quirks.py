"""Vendor quirks: shapes the real RealPage and Yardi gateways send that a naive client gets wrong.

Each quirk is shown by a few properties of one PMS, chosen deterministically from the seed among the properties
served (the registry in use), so a different seed moves every quirk to other buildings and a test that passes for
one seed by luck fails for another. The catalogue (README.md, "Quirk catalogue") says which test checks OwnerDash's
answer for each. The truth is never changed by a quirk: it follows the vendor's definitions (a non-dwelling area is
not a unit, a guarantor placeholder is not a resident, a household under eviction is in place).

A few quirks are opt-in (OPT_IN: `--quirk NAME` turns one on): they take a dataset away from OwnerDash (an error answer,
a property without unit information), so the demo, which compares every property's answers with the truth, runs
without them; tests that check how OwnerDash reports the loss start the simulator with them.
"""

import hashlib

# quirk -> (pms, how many properties show it, one line for the catalogue)
CATALOGUE = {
    "rpx_non_dwelling_units": (
        "realpage", 2,
        "unitlist lists non-dwelling areas (a leasing office, a clubhouse) under the floor plan 'Non Dwelling Areas' "
        "with FpReportUnitOccupancy=false; the Box Score does not count them"),
    "rpx_guarantor_placeholders": (
        "realpage", 2,
        "getresidentlistinfo adds a guarantor row with an empty unitid/unitnumber to some households"),
    "rpx_rentable_items_refused": (
        "realpage", 1,
        "getrentableitems refused with inv_Param 'LicenseKey is not authorized to call the method.'"),
    "rpx_repeat_contacts": (
        "realpage", 2,
        "the Activity report lists a follow-up contact (E-mail, 2 days after the first contact) for every 3rd "
        "prospect: a contact row that is not a new lead"),
    "rpx_lease_up_units": (
        "realpage", 1,
        "every 3rd vacant unit was never occupied (lease-up): no move-out to age it from, only UnitMadeReadyDate"),
    "yardi_lease_up_units": (
        "yardi", 1,
        "every 3rd vacant unit was never occupied (lease-up): no resident history, only AvailableUnits MadeReadyDate"),
    "yardi_eviction_status": (
        "yardi", 1,
        "households in place that owe money carry Status 'Eviction', returned only when the Status filter names it"),
    "yardi_lease_charges_without_lease_id": (
        "yardi", 1,
        "GetResidentLeaseCharges_Login details carry no LeaseID (key on Detail/CustomerID)"),
    "rpx_getunitlist_not_in_contract": (
        "realpage", 3,
        "getunitlist (the only RealPage unit data with a floor, UnitDetails/FloorNumber) answers the "
        "a:ActionNotSupported fault: not in the partner contract for that site; the other sites serve it"),
    "rpx_future_lease_status": (
        "realpage", 2,
        "getresidentlistinfo gives a current household whose renewal is already signed the leasestatus 'Future Lease' "
        "(not 'Current'); it is still the household in place"),
    "rpx_deleted_units": (
        "realpage", 2,
        "unitlist lists a deleted unit (UnitDeleted=T, Vacant=T, ReasonNotAvailable 'Unit deleted') that the Box Score, "
        "the Rent Roll and getunitlist leave out"),
    "yardi_unpadded_dates": (
        "yardi", 1,
        "GetResidentsByStatus writes its MM/DD/YYYY dates without zero padding (M/D/YYYY: 3/7/2026)"),
    "yardi_indented_values": (
        "yardi", 1,
        "GetUnitInformation and GetResidentsByStatus values carry the newlines and indentation of a pretty-printed "
        "document inside their text nodes"),
    "yardi_pseudo_units": (
        "yardi", 2,
        "GetUnitInformation lists Yardi's pseudo-rows beside the units: WAIT (status 'Waitlist') and NONRESID "
        "('Excluded', UnitEconomicStatus 'nonresidential'); not units"),
    "yardi_applicant_statuses": (
        "yardi", 2,
        "GetResidentsByStatus also lists applicants (Status 'Applicant': applied, no decision yet; 'Denied'; "
        "'Canceled'), returned only when the Status filter names them; not residents"),
    "yardi_guest_events_beyond_funnel": (
        "yardi", 2,
        "GetYardiGuestActivity carries event types beyond the funnel on the guest cards: Appointment, ReturnVisit, "
        "Hold, ReApply, Cancel, and for the prospects who became residents MoveIn, Notice, Renew"),
    "yardi_services_blocks": (
        "yardi", 2,
        "ResidentTransactions RT_Customer/RTServiceTransactions carry Services@Type/Detail blocks (the household's "
        "utility services, no money) beside the Transactions"),
    "yardi_no_unit_information": (
        "yardi", 1,
        "opt-in: GetUnitInformation answers 200 with a UnitInformation/Property that lists no unit"),
    "yardi_voyager_charge_codes": (
        "yardi", 2,
        "GetResidentTransactions_Login and GetResidentLeaseCharges_Login carry a real Voyager database's charge codes: "
        "'.rent' (with its dot), 'park', 'fees' (the late fee), 'damages'; the utilities and pest control keep theirs"),
    "yardi_amount_paid_beyond_window": (
        "yardi", 1,
        "opt-in: GetResidentTransactions_Login leaves out the first payment of every 4th household that owes money "
        "(paid before the exported window, or moved in by a transfer) while its charges' AmountPaid still counts it: "
        "charges - payments exceed the open BalanceDue by that payment"),
    "yardi_units_from_ils_feed": (
        "yardi", 1,
        "opt-in: GetUnitInformation lists no unit (ItfResidentData answers empty) and AvailableUnits_Login lists every "
        "unit, occupied ones too, without Voyager's status text, declaring (Property/Information/UnitCount) 3 units "
        "fewer than it lists"),
    "yardi_error_answers": (
        "yardi", 2,
        "opt-in: some (property, operation) calls answer an error shape: plain-text 'Login failed.', a bare result "
        "code '-3', an empty Result, a Result without its payload root (an Info message instead)"),
    "rpx_under_rehab_units": (
        "realpage", 2,
        "unitlist gives its down units (out of service) the ReasonNotAvailable 'Under rehab' instead of 'Down unit'; "
        "the Box Score counts them as Down"),
    "rpx_unit_designations": (
        "realpage", 2,
        "unitlist marks some dwelling units with the UnitDesignationName 'Affordable' (every 6th) or 'Corporate' "
        "(every 13th); they are units like the others, in occupancy and pricing"),
    "rpx_applicant_statuses": (
        "realpage", 2,
        "getresidentlistinfo also lists the prospects who applied and never leased: leasestatus 'Applicant' (no "
        "decision yet) and 'Former Applicant' (denied or canceled), on a unit of the floor plan they wanted; not "
        "residents, not households"),
    # Report file contents (reports.py / onesite_reports.py): shapes inside the Crystal exports.
    "report_values_drift": (
        "realpage", 2,
        "the Rent Roll and Delinquent and Prepaid come in the page-image layout: sparse columns, every value moved "
        "-1..+2 columns from its header, differently from row to row"),
    "report_value_markers": (
        "realpage", 2,
        "Delinquent and Prepaid prints legend markers in cells of their own beside the amounts they qualify: "
        "\u2021 (120+ days) beside 90+ Days, \u2020 (includes NSF) beside LATEFEE amounts, \u00a7 (cash basis) beside "
        "the code of a cash-basis code"),
    "report_dmy_dates": (
        "realpage", 2,
        "the Rent Roll and Delinquent and Prepaid print their dates dd/mm/yyyy (a property set up with a non-US "
        "locale), the title's As of date too"),
    "report_date_serials": (
        "realpage", 2,
        "the Rent Roll's and Delinquent and Prepaid's date columns hold Excel date serials as bare numbers (no date "
        "format): 46346 for 2026-11-20"),
    "report_rent_roll_charge_columns": (
        "realpage", 2,
        "the Rent Roll comes as the CSV sites save (RENT ROLL DETAIL): one row per unit, one column per charge code "
        "padded to 30 characters, statuses Occupied-NTV / Occupied-NTVL / Vacant-Leased, no Lease Rent column, a "
        "TOTAL row with thousands separators and the title block repeated in the last column"),
    "report_html_negatives": (
        "realpage", 2,
        "Delinquent and Prepaid comes as OneSite's HTML export named .xls: amounts with thousands separators and "
        "negatives in parentheses, (1,234.56)"),
    "report_hidden_names": (
        "realpage", 2,
        "HidePIIData: the Rent Roll and Delinquent and Prepaid print no resident name, phone or e-mail (the Name "
        "column blank)"),
    "report_lead_detail_data_only": (
        "realpage", 2,
        "the Leasing Activity Detail comes as its data-only export (a BIFF8 .xls): a Leasing Consultant column on "
        "Sheet1 and the counts per consultant, with Totals for Property, on Sheet2 instead of Crystal totals blocks"),
    "report_transferring_decision": (
        "realpage", 2,
        "Lease Expiration/Renewal Detail (4156) prints the decision Transferring for a household on notice that moves "
        "to another unit: its Summary by Floorplan counts it in no column and not as a possible renewal"),
    # Report file forms (forms.py): the bytes OneSite sends are not always the .xlsx asked for.
    "report_form_biff8": (
        "realpage", 3,
        "the Crystal page-image reports come as legacy BIFF8 .xls files (OLE2): Box Score, Rent Roll, Delinquent and "
        "Prepaid, Activity, Monthly Activity Summary, Lease Expiration, Make Ready, Closed Make Ready, Monthly "
        "Transaction Summary, Projected Occupancy"),
    "report_form_html": (
        "realpage", 2,
        "the Activity report comes as an HTML page named .xls, the Income Statement as an HTML page named .xlsx"),
    "report_form_csv": (
        "realpage", 1,
        "the Activity report and Lease Details come as CSV"),
    "report_form_pdf": (
        "realpage", 1,
        "Projected Occupancy comes as a PDF (the format saved with the report at that property), whatever format "
        "code is asked for"),
    "report_form_xlsx_named_xls": (
        "realpage", 2,
        "every .xlsx the property sends is named .xls (Content-Disposition and Content-Type of a legacy workbook)"),
}

# Quirks off unless `--quirk NAME` turns them on (see the module doc).
OPT_IN = {"yardi_no_unit_information", "yardi_error_answers", "yardi_amount_paid_beyond_window",
          "yardi_units_from_ils_feed"}

# quirk yardi_error_answers: the shapes, two per property, and the operations they may answer (the per-property calls
# OwnerDash makes once a run; GetResidentLeaseCharges_Login, called once per month, and the interfaces licensed apart
# are left out).
ERROR_SHAPES = ("login_failed_text", "result_code", "empty_result", "missing_root")
ERROR_OPERATIONS = ("GetUnitInformation", "GetResidentsByStatus", "GetResidentTransactions_Login",
                    "AvailableUnits_Login", "GetYardiGuestActivity_Login")


def _rank(seed, quirk, key):
    return hashlib.sha256(("%s:%s:%s" % (seed, quirk, key)).encode()).hexdigest()


def assign(seed, keys_by_pms):
    """quirk -> sorted property keys showing it; `keys_by_pms` maps 'realpage'/'yardi' to the served keys."""
    out = {}
    for quirk, (pms, count, _) in sorted(CATALOGUE.items()):
        keys = sorted(keys_by_pms.get(pms, ()), key=lambda k: _rank(seed, quirk, k))
        out[quirk] = sorted(keys[:count])
    return out


class Quirks:
    """The quirks of one served world: `has(quirk, key)`."""

    def __init__(self, seed, keys_by_pms, disabled=(), enabled=()):
        self.seed = seed
        self.by_quirk = assign(seed, keys_by_pms)
        for quirk in OPT_IN - set(enabled):
            self.by_quirk[quirk] = []
        for quirk in disabled:
            self.by_quirk[quirk] = []
        self.error_answers = {}
        for i, key in enumerate(self.by_quirk.get("yardi_error_answers", ())):
            ops = sorted(ERROR_OPERATIONS, key=lambda op: _rank(seed, "yardi_error_answers:" + key, op))
            for shape, op in zip(ERROR_SHAPES[2 * i:2 * i + 2], ops):
                self.error_answers[(key, op)] = shape

    def has(self, quirk, key):
        return key in self.by_quirk.get(quirk, ())

    def error_answer(self, key, operation):
        """Quirk yardi_error_answers: the error shape this (property, operation) answers, or None."""
        return self.error_answers.get((key, operation))

    def as_truth(self):
        return {q: list(keys) for q, keys in sorted(self.by_quirk.items())}

    def details_truth(self):
        """truth.json `quirk_details`: which call answers which error shape (quirk yardi_error_answers)."""
        return {"yardi_error_answers": [{"property": k, "operation": op, "shape": shape}
                                        for (k, op), shape in sorted(self.error_answers.items())]}
