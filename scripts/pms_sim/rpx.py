"""RealPage RPX gateway (SOAP 1.1, WCF-flavoured) for the RealPage properties."""

import datetime as dt
import hashlib

from .soap import SoapError, parse_envelope, child, text, x
from .portfolio import PMC_ID, MANAGEMENT_COMPANY, CHARGE_CODES, month_key
from . import truth as T

SOAP_ACTION_PREFIX = "http://tempuri.org/IRPXService/"
OPS = ("getsitelist", "getbuildings", "unitlist", "getunitlist", "getresidentlistinfo", "getleaseinfo", "getrentableitems",
       "getresidentledger", "getscheduledcharges")
LEDGER_OPS = ("getresidentledger", "getscheduledcharges")
NULL_DATE = "1900-01-01 00:00:00"


# ------------------------------------------------------------------------------ value formats

def tf(b):
    return "T" if b else "F"


def yn(b):
    return "Y" if b else "N"


def money_sep(cents):
    """'-5,675.60' style (thousands separators, leading minus)."""
    s = "{:,.2f}".format(abs(cents) / 100.0)
    return "-" + s if cents < 0 else s


def money4(cents):
    return "%.4f" % (cents / 100.0)


def money2(cents):
    return "%.2f" % (cents / 100.0)


def dts(d):
    return d.strftime("%Y-%m-%d 00:00:00") if d else NULL_DATE


def ymd(d):
    return d.isoformat() if d else ""


def mdy(d):
    return d.strftime("%m/%d/%Y") if d else ""


def mon_dd(d):
    # 'Apr 18 2022 12:00AM'
    return "%s %2d %d 12:00AM" % (d.strftime("%b"), d.day, d.year) if d else ""


# ------------------------------------------------------------------------------ envelopes

def envelope(op, payload):
    return ('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>'
            '<%sResponse xmlns="http://tempuri.org/"><%sResult>%s</%sResult></%sResponse>'
            '</s:Body></s:Envelope>' % (op, op, payload, op, op))


def fault_action(action):
    return ('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>'
            '<faultcode xmlns:a="http://schemas.microsoft.com/ws/2005/05/addressing/none">a:ActionNotSupported</faultcode>'
            '<faultstring xml:lang="en-US">The message with Action \'%s\' cannot be processed at the receiver, due to a '
            'ContractFilter mismatch at the EndpointDispatcher. This may be because of either a contract mismatch '
            '(mismatched Actions between sender and receiver) or a binding/security mismatch between the sender and '
            'the receiver.  Check that sender and receiver have the same contract and the same binding (including '
            'security requirements, e.g. Message, Transport, None).</faultstring>'
            '</s:Fault></s:Body></s:Envelope>' % x_attr(action))


def x_attr(s):
    return (s or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def fault_inv_param(message, custom="A validation error occurred. Please make sure you have provided the correct "
                                    "Auth information"):
    log = hashlib.sha1(message.encode()).hexdigest()[:8]
    return ('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>'
            '<faultcode>s:inv_Param</faultcode><faultstring xml:lang="en-US">%s</faultstring>'
            '<detail><RPXApplicationFault xmlns="http://schemas.datacontract.org/2004/07/RPX.Common" '
            'xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><CustomMessage>%s</CustomMessage>'
            '<ExceptionMessage>%s</ExceptionMessage><LogId>%s</LogId><MessageLogId>%s</MessageLogId>'
            '</RPXApplicationFault></detail></s:Fault></s:Body></s:Envelope>'
            % (x_attr(message), x_attr(custom), x_attr(message), int(log, 16) % 10000000, log))


def fault_server(message, code="s:Client"):
    return ('<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><s:Fault>'
            '<faultcode>%s</faultcode><faultstring xml:lang="en-US">%s</faultstring></s:Fault></s:Body></s:Envelope>'
            % (code, x_attr(message)))


CT = "text/xml; charset=utf-8"


def handle(h, body):
    st = h.server.state
    cfg = st.cfg
    action = (h.headers.get("SOAPAction") or "").strip().strip('"')
    try:
        op_el, _ns = parse_envelope(body)
    except SoapError as e:
        return h.send(500, fault_server(str(e), "s:Client"), CT)
    from .soap import local
    op = local(op_el.tag)
    if action:
        if not action.startswith(SOAP_ACTION_PREFIX) or action[len(SOAP_ACTION_PREFIX):] != op:
            return h.send(500, fault_action(action), CT)
    if op not in OPS:
        return h.send(500, fault_action(action or SOAP_ACTION_PREFIX + op), CT)
    if "soap-fault" in h.faults:
        h.server.state_note("soap-fault")
        h.faults = {}
        return h.send(500, fault_server("An internal error occurred (simulated).", "s:Server"), CT)
    auth = child(op_el, "auth")
    if auth is None:
        return h.send(500, fault_inv_param("Auth information is missing."), CT)
    pmcid, siteid, lic = text(auth, "pmcid", ""), text(auth, "siteid", ""), text(auth, "licensekey", "")
    if lic != cfg.rpx_license_key:
        return h.send(500, fault_inv_param("LicenseKey is not valid."), CT)
    if pmcid != PMC_ID:
        return h.send(500, fault_inv_param("PMC ID %s is not valid for this license." % pmcid), CT)
    key = st.world.key_for("realpage", siteid)
    if key is None:
        return h.send(500, fault_inv_param("Site ID %s is not valid for this PMC." % siteid), CT)
    if op in LEDGER_OPS and key in cfg.rpx_denied_sites or \
            op == "getrentableitems" and st.world.quirks.has("rpx_rentable_items_refused", key):
        return h.send(500, fault_inv_param("LicenseKey is not authorized to call the method."), CT)
    if op == "getunitlist" and st.world.quirks.has("rpx_getunitlist_not_in_contract", key):
        # Outside this site's partner contract: WCF answers as for an unknown operation.
        return h.send(500, fault_action(action or SOAP_ACTION_PREFIX + op), CT)
    if key in cfg.fail_properties:
        h.server.state_note("fail-property")
        return h.send(500, fault_server("The server was unable to process the request due to an internal error.",
                                        "s:Server"), CT)
    w = st.world
    p = w.get(key)
    fn = globals()["op_" + op]
    payload = fn(w, p, op_el)
    return h.send(200, envelope(op, payload), CT)


# ------------------------------------------------------------------------------ operations

def site_fields(w, p):
    as_of = w.as_of
    a = p.address
    return "".join([
        x("PMCName", MANAGEMENT_COMPANY), x("WSPMCURL", ""), x("SiteID", p.pms_id), x("SiteNumber", p.site_number),
        x("SiteName", p.name), x("Adr1", a["street"]), x("Adr2", ""), x("Adr3", ""), x("City", a["city"]),
        x("State", a["state"]), x("Zip", "%s-%04d" % (a["zip"], p.index * 37 % 10000)), x("County", a["county"]),
        x("Country", "USA"), x("Phone1", p.phone), x("Phone2", ""), x("Fax", ""),
        x("Email", "%s@kairoi.example.com" % p.key.replace("_", "")), x("Web", "https://www.%s.example.com" % p.key),
        x("SysDate", "%sT10:01:33.017-06:00" % as_of.isoformat()),
        x("AR_AccountingDate", "%sT00:00:00-06:00" % as_of.isoformat()),
        x("AR_AccountingPeriod", as_of.strftime("%m%Y")),
        x("AR_LastDateofPeriod", "%sT00:00:00-06:00" % _month_end(as_of).isoformat())])


def _month_end(d):
    nxt = dt.date(d.year + (d.month // 12), d.month % 12 + 1, 1)
    return nxt - dt.timedelta(days=1)


def op_getsitelist(w, p, el):
    out = ['<SiteList xmlns="">']
    for key in w.keys_for("realpage"):
        out.append("<Site>%s</Site>" % site_fields(w, w.get(key)))
    out.append("</SiteList>")
    return "".join(out)


def op_getbuildings(w, p, el):
    a = p.address
    out = ['<BuildingList xmlns="">']
    for b in p.buildings:
        out.append("<Building>%s</Building>" % "".join([
            x("BuildingID", b["id"]), x("BuildingNumber", b["number"]), x("AddressLine1", b["address"]),
            x("AddressLine2", ""), x("City", a["city"]), x("State", a["state"]), x("Zip", a["zip"]),
            x("County", a["county"]), x("Country", "USA")]))
    out.append("</BuildingList>")
    return "".join(out)


def op_unitlist(w, p, el):
    as_of = w.as_of

    rehab = w.quirks.has("rpx_under_rehab_units", p.key)
    designations = w.quirks.has("rpx_unit_designations", p.key)

    def build():
        a = p.address
        out = ['<UnitList xmlns="">']
        for index, u in enumerate(p.units):
            r, f = u.current, u.future
            avail = u.status in ("vacant", "ntv")
            if u.status == "vacant":
                avail_date = u.made_ready or as_of
            elif u.status == "ntv":
                avail_date = r.move_out + dt.timedelta(days=1)
            else:
                avail_date = None
            reason = {"model": "Model unit", "down": "Under rehab" if rehab else "Down unit"}.get(u.status, "")
            designation = u.designation if u.designation == "Conventional" else "N/A"
            if designations and u.designation == "Conventional":
                # Quirk rpx_unit_designations: still dwelling units, counted like every other.
                designation = "Affordable" if index % 6 == 5 else ("Corporate" if index % 13 == 12 else designation)
            out.append("<Unit>%s</Unit>" % "".join([
                x("UnitID", u.id), x("UnitNumber", u.number), x("UnitDescription", u.fp.name),
                x("BuildingID", u.building["id"]), x("BuildingNumber", u.building["number"]),
                x("BuildingName", "Building %s" % u.building["number"]), x("FloorplanID", u.fp.fp_id),
                x("FloorplanName", u.fp.name), x("Adr1", "%s #%s" % (u.building["address"], u.number)), x("Adr2", ""),
                x("City", a["city"]), x("State", a["state"]), x("Zip", a["zip"]), x("County", a["county"]),
                x("Country", "USA"), x("GrossSqft", u.sqft + 12), x("RentableSqft", u.sqft), x("Mobility", "F"),
                x("Hearing", "F"), x("Vision", "F"), x("Vacant", tf(u.is_vacant)), x("Available", tf(avail)),
                x("AvailableDate", dts(avail_date)), x("UnitDeleted", "F"), x("DeathOnPremise", "F"),
                x("ParcelID", ""),
                x("UnitDesignationID", {"Model": "2", "Down": "3", "Affordable": "5", "Corporate": "6"}.get(
                    designation if designation != "N/A" else u.designation, "1")),
                x("UnitDesignationName", designation),
                x("UnitDesignationGroupName", "Residential"), x("Notes", ""), x("PICUnitNumber", ""),
                x("BuildingEntranceNumber", ""), x("MarketRent", money4(u.market_rent)),
                x("ReasonNotAvailable", reason), x("UnitMadeReadyDate", dts(u.made_ready if u.is_vacant else None)),
                x("MaximumOccs", max(2, u.fp.beds * 2 + 1)), x("DateOfDeath", NULL_DATE), x("DeathNotes", ""),
                x("UnitReserved", tf(f is not None)), x("UnitExpectedMoveinDate", dts(f.move_in if f else None)),
                x("OnNoticeForDate", dts(r.move_out if r is not None and u.on_notice else None)),
                x("PropertyNumber", p.site_number),
                x("FpReportUnitOccupancy", "true"),
                x("UnitHoldStatus", ""), x("UnitHoldUntil", NULL_DATE)]))
        if w.quirks.has("rpx_non_dwelling_units", p.key):
            out.extend(_non_dwelling_units(p))
        if w.quirks.has("rpx_deleted_units", p.key):
            out.append(_deleted_unit(p))
        out.append("</UnitList>")
        return "".join(out)

    return w.cached("rpx:unitlist:" + p.key, build)


def _non_dwelling_units(p):
    """Quirk rpx_non_dwelling_units: a leasing office (occupied by staff: Vacant=F) and a clubhouse (Vacant=T, no
    reason) under the floor plan "Non Dwelling Areas", FpReportUnitOccupancy=false. Not units: the Box Score, the
    Rent Roll and the truth leave them out."""
    a, b = p.address, p.buildings[0]
    rows = []
    for i, (number, description, vacant) in enumerate((("OFFICE", "Leasing Office", "F"), ("CLUB", "Clubhouse", "T"))):
        rows.append("<Unit>%s</Unit>" % "".join([
            x("UnitID", p.id_base + 190001 + i), x("UnitNumber", number), x("UnitDescription", description),
            x("BuildingID", b["id"]), x("BuildingNumber", b["number"]), x("BuildingName", "Building %s" % b["number"]),
            x("FloorplanID", p.id_base + 199), x("FloorplanName", "Non Dwelling Areas"),
            x("Adr1", "%s #%s" % (b["address"], number)), x("Adr2", ""), x("City", a["city"]), x("State", a["state"]),
            x("Zip", a["zip"]), x("County", a["county"]), x("Country", "USA"), x("GrossSqft", 900 + 300 * i),
            x("RentableSqft", 0), x("Mobility", "F"), x("Hearing", "F"), x("Vision", "F"), x("Vacant", vacant),
            x("Available", "F"), x("AvailableDate", NULL_DATE), x("UnitDeleted", "F"), x("DeathOnPremise", "F"),
            x("ParcelID", ""), x("UnitDesignationID", "4"), x("UnitDesignationName", "N/A"),
            x("UnitDesignationGroupName", "Non Residential"), x("Notes", ""), x("PICUnitNumber", ""),
            x("BuildingEntranceNumber", ""), x("MarketRent", "0.0000"), x("ReasonNotAvailable", ""),
            x("UnitMadeReadyDate", NULL_DATE), x("MaximumOccs", 0), x("DateOfDeath", NULL_DATE), x("DeathNotes", ""),
            x("UnitReserved", "F"), x("UnitExpectedMoveinDate", NULL_DATE), x("OnNoticeForDate", NULL_DATE),
            x("PropertyNumber", p.site_number), x("FpReportUnitOccupancy", "false"), x("UnitHoldStatus", ""),
            x("UnitHoldUntil", NULL_DATE)]))
    return rows


def _deleted_unit(p):
    """Quirk rpx_deleted_units: a unit deleted from the site (UnitDeleted=T), still listed by unitlist with its last
    floor plan, vacant and not available. Not a unit: the Box Score, the Rent Roll, getunitlist and the truth leave
    it out."""
    a, b, u = p.address, p.buildings[0], p.units[0]
    number = "%sX" % u.number
    return "<Unit>%s</Unit>" % "".join([
        x("UnitID", p.id_base + 190101), x("UnitNumber", number), x("UnitDescription", u.fp.name),
        x("BuildingID", b["id"]), x("BuildingNumber", b["number"]), x("BuildingName", "Building %s" % b["number"]),
        x("FloorplanID", u.fp.fp_id), x("FloorplanName", u.fp.name), x("Adr1", "%s #%s" % (b["address"], number)),
        x("Adr2", ""), x("City", a["city"]), x("State", a["state"]), x("Zip", a["zip"]), x("County", a["county"]),
        x("Country", "USA"), x("GrossSqft", u.sqft + 12), x("RentableSqft", u.sqft), x("Mobility", "F"),
        x("Hearing", "F"), x("Vision", "F"), x("Vacant", "T"), x("Available", "F"), x("AvailableDate", NULL_DATE),
        x("UnitDeleted", "T"), x("DeathOnPremise", "F"), x("ParcelID", ""), x("UnitDesignationID", "1"),
        x("UnitDesignationName", "Conventional"), x("UnitDesignationGroupName", "Residential"), x("Notes", ""),
        x("PICUnitNumber", ""), x("BuildingEntranceNumber", ""), x("MarketRent", money4(u.market_rent)),
        x("ReasonNotAvailable", "Unit deleted"), x("UnitMadeReadyDate", NULL_DATE), x("MaximumOccs", 0),
        x("DateOfDeath", NULL_DATE), x("DeathNotes", ""), x("UnitReserved", "F"),
        x("UnitExpectedMoveinDate", NULL_DATE), x("OnNoticeForDate", NULL_DATE), x("PropertyNumber", p.site_number),
        x("FpReportUnitOccupancy", "true"), x("UnitHoldStatus", ""), x("UnitHoldUntil", NULL_DATE)])


def op_getunitlist(w, p, el):
    """getunitlist: the nested UnitObject list (Address, FloorPlan, UnitDetails with FloorNumber, Availability with
    MadeReadyDate MM/DD/YYYY); dwelling units only. listCriteria (DateNeeded, LimitResults) are accepted and, as
    LimitResults=false asks, every unit is listed."""
    as_of = w.as_of

    def build():
        a = p.address
        out = ['<GetUnitList xmlns=""><UnitObjects>']
        for u in p.units:
            avail = u.status in ("vacant", "ntv")
            out.append("<UnitObject>%s</UnitObject>" % "".join([
                x("PropertyNumberID", p.site_number),
                "<Address>%s</Address>" % "".join([
                    x("UnitID", u.id), x("UnitNumber", u.number), x("BuildingID", u.building["id"]),
                    x("Address1", "%s #%s" % (u.building["address"], u.number)), x("CityName", a["city"]),
                    x("State", a["state"]), x("Zip", a["zip"])]),
                "<FloorPlan>%s</FloorPlan>" % "".join([
                    x("FloorPlanID", u.fp.fp_id), x("FloorPlanCode", u.fp.code), x("FloorPlanName", u.fp.name)]),
                x("FloorPlanMarketRent", money2(u.fp.base_rent * 100)), x("EffectiveRent", money2(u.market_rent)),
                "<UnitDetails>%s</UnitDetails>" % "".join([
                    x("Bedrooms", u.fp.beds), x("Bathrooms", "%.2f" % u.fp.baths), x("GrossSqFtCount", u.sqft + 12),
                    x("FloorNumber", u.floor)]),
                "<Availability>%s</Availability>" % "".join([
                    x("AvailableBit", "true" if avail else "false"),
                    x("MadeReadyDate", mdy(u.made_ready if u.is_vacant and u.made_ready and u.made_ready <= as_of
                                           else None))])]))
        out.append("</UnitObjects></GetUnitList>")
        return "".join(out)

    return w.cached("rpx:getunitlist:" + p.key, build)


def _guarantor_placeholder(p, r, le):
    """Quirk rpx_guarantor_placeholders: a guarantor listed on the household with no unit (empty unitid and
    unitnumber), not a resident of the property."""
    return "<resident>%s</resident>" % "".join([
        x("residentmemberid", r.id + 5000000), x("residenthouseholdid", r.id), x("leaseid", le.id), x("unitid", ""),
        x("buildingnumber", ""), x("unitnumber", ""), x("firstname", "Gus"), x("lastname", "Guarantor%d" % r.id),
        x("billingname", ""), x("residentagestatus", "Adult"), x("homephone", ""), x("workphone", ""),
        x("cellphone", ""), x("faxnumber", ""), x("email", ""), x("inevict", "N"), x("nochk", "N"), x("haspets", "N"),
        x("incollection", "N"), x("inpaymentplan", "N"), x("balance", money_sep(0)), x("pendingbalance", money_sep(0)),
        x("estfutchgs", money_sep(0)), x("curlateamt", money_sep(0)), x("leasestatus", "Current"),
        x("residentrelationship", "Guarantor"), x("leasesigneddate", ymd(le.signed)), x("leasetype", "First Lease"),
        x("residenttype", "Guarantor"), x("cosignerbit", "FALSE"), x("occupantbit", "FALSE"),
        x("guarantorbit", "TRUE"), x("signerbit", "FALSE"), x("activebit", "TRUE"), x("hohbit", "FALSE"),
        x("begindate", ymd(le.start)), x("enddate", ymd(le.end)), x("moveindate", ""), x("residentsincedate", ""),
        x("moveoutdate", ""), x("dateofbirth", ""), x("propertynumberid", p.pms_id), x("propertynumber", p.site_number),
        x("nomoneyorder", "N"), x("donotrenew", "N"), x("allowpartialpayment", "Y"), x("finalcollection", "N"),
        x("noach", "N"), x("contactstatus", "Guarantor"), x("noticegivendate", ""), x("noticefordate", "")])


def applicant_rows(w, p):
    """Quirk rpx_applicant_statuses: [(prospect, leasestatus, unit)] for the prospects who applied and never leased:
    `Applicant` while no decision is made, `Former Applicant` once denied or canceled; each on a unit of the floor
    plan it wanted (the same choice as Yardi's applicant quirk: a vacant unit not leased, else the plan's first unit,
    which may be occupied)."""
    from .yardi import applicants
    return [(pr, "Applicant" if ys == "Applicant" else "Former Applicant", unit) for pr, ys, unit in applicants(w, p)]


def _applicant_row(p, pr, lstatus, u):
    """An applicant's resident row: its own household id and lease id (the application), no move-in, no balance."""
    start = pr.desired_move_in
    end = dt.date(start.year + 1, start.month, 1) - dt.timedelta(days=1) if start else None
    household = 80000000 + pr.id % 10000000
    return "<resident>%s</resident>" % "".join([
        x("residentmemberid", household + 5000000), x("residenthouseholdid", household),
        x("leaseid", household + 1000000), x("unitid", u.id), x("buildingnumber", u.building["number"]),
        x("unitnumber", u.number), x("firstname", pr.first), x("lastname", pr.last),
        x("billingname", "%s %s" % (pr.first, pr.last)), x("residentagestatus", "Adult"), x("homephone", ""),
        x("workphone", ""), x("cellphone", pr.phone), x("faxnumber", ""), x("email", pr.email), x("inevict", "N"),
        x("nochk", "N"), x("haspets", "N"), x("incollection", "N"), x("inpaymentplan", "N"),
        x("balance", money_sep(0)), x("pendingbalance", money_sep(0)), x("estfutchgs", money_sep(0)),
        x("curlateamt", money_sep(0)), x("leasestatus", lstatus), x("residentrelationship", "Head of household"),
        x("leasesigneddate", ""), x("leasetype", "First Lease"), x("residenttype", "H"), x("cosignerbit", "FALSE"),
        x("occupantbit", "FALSE"), x("guarantorbit", "FALSE"), x("signerbit", "TRUE"),
        x("activebit", "TRUE" if lstatus == "Applicant" else "FALSE"), x("hohbit", "TRUE"),
        x("begindate", ymd(start)), x("enddate", ymd(end)), x("moveindate", ""), x("residentsincedate", ""),
        x("moveoutdate", ""), x("dateofbirth", ""), x("propertynumberid", p.pms_id),
        x("propertynumber", p.site_number), x("nomoneyorder", "N"), x("donotrenew", "N"),
        x("allowpartialpayment", "Y"), x("finalcollection", "N"), x("noach", "N"),
        x("contactstatus", "Applicant" if lstatus == "Applicant" else "Former applicant"),
        x("noticegivendate", ""), x("noticefordate", "")])


def _res_rows(p, status_filter):
    for u in p.units:
        for r in u.residencies + ([u.future] if u.future else []):
            st = r.status
            code = {"current": "C", "future": "P", "former": "F"}[st]
            if status_filter not in ("ALL", "", None) and code != status_filter:
                continue
            yield r


def op_getresidentlistinfo(w, p, el):
    as_of = w.as_of
    status = (text(el, "status", "ALL") or "ALL").upper()
    hoh_only = (text(el, "headofhousehold", "0") or "0") in ("1", "true", "True")

    placeholders = w.quirks.has("rpx_guarantor_placeholders", p.key)
    future_lease = w.quirks.has("rpx_future_lease_status", p.key)
    applicants = w.quirks.has("rpx_applicant_statuses", p.key)

    def build():
        out = ['<residentlist xmlns="">']
        for r in _res_rows(p, status):
            u = r.unit
            if r.status == "current":
                le = r.current_lease(as_of)
                lstatus = "Current"
                if future_lease and le.next is not None and le.next.signed <= as_of:
                    # Quirk rpx_future_lease_status: the next lease is signed; the household is still in place.
                    lstatus = "Future Lease"
                ltype = "Notice given - move out" if r.move_out else ("Renewal" if le.is_renewal else "First Lease")
            elif r.status == "future":
                le = r.leases[0]
                lstatus = "Applicant - Lease Signed"
                ltype = "First Lease"
            else:
                le = r.leases[-1]
                lstatus = "Former"
                ltype = "Moved Out"
            bal = r.charge_total - r.payment_total
            for i, (mid, first, last, rel) in enumerate(r.members):
                hoh = i == 0
                if hoh_only and not hoh:
                    continue
                out.append("<resident>%s</resident>" % "".join([
                    x("residentmemberid", mid), x("residenthouseholdid", r.id), x("leaseid", le.id), x("unitid", u.id),
                    x("buildingnumber", u.building["number"]), x("unitnumber", u.number), x("firstname", first),
                    x("lastname", last), x("billingname", "%s %s" % (first, last)), x("residentagestatus", "Adult"),
                    x("homephone", ""), x("workphone", ""), x("cellphone", r.phone if hoh else ""),
                    x("faxnumber", ""), x("email", r.email if hoh else ""), x("inevict", "N"), x("nochk", "N"),
                    x("haspets", yn(r.id % 3 == 0)), x("incollection", yn(r.status == "former" and bal > 0)),
                    x("inpaymentplan", "N"), x("balance", money_sep(bal if hoh else 0)),
                    x("pendingbalance", money_sep(0)), x("estfutchgs", money_sep(le.total if r.status != "former" else 0)),
                    x("curlateamt", money_sep(0)), x("leasestatus", lstatus),
                    x("residentrelationship", "Head of household" if hoh else "Co-Head"),
                    x("leasesigneddate", ymd(le.signed)), x("leasetype", ltype),
                    x("residenttype", "H" if hoh else "OAFAM"), x("cosignerbit", "FALSE"), x("occupantbit", "FALSE"),
                    x("guarantorbit", "FALSE"), x("signerbit", "TRUE"), x("activebit", "TRUE" if r.status != "former" else "FALSE"),
                    x("hohbit", "TRUE" if hoh else "FALSE"), x("begindate", ymd(le.start)), x("enddate", ymd(le.end)),
                    x("moveindate", ymd(r.move_in)), x("residentsincedate", ymd(r.move_in)),
                    x("moveoutdate", ymd(r.move_out)), x("dateofbirth", ""), x("propertynumberid", p.pms_id),
                    x("propertynumber", p.site_number), x("nomoneyorder", "N"), x("donotrenew", "N"),
                    x("allowpartialpayment", "Y"), x("finalcollection", "N"), x("noach", "N"),
                    x("contactstatus", "Former resident" if r.status == "former" else "Lease signer"),
                    x("noticegivendate", ymd(r.notice_given) if r.move_out else ""),
                    x("noticefordate", ymd(r.move_out) if r.move_out else "")]))
            # Every 7th current household has a guarantor placeholder row (not with headofhousehold=1).
            if placeholders and not hoh_only and r.status == "current" and r.id % 7 == 0:
                out.append(_guarantor_placeholder(p, r, le))
        if applicants:
            for pr, lstatus, unit in applicant_rows(w, p):
                if status not in ("ALL", "", None) and status != ("P" if lstatus == "Applicant" else "F"):
                    continue
                out.append(_applicant_row(p, pr, lstatus, unit))
        out.append("</residentlist>")
        return "".join(out)

    return w.cached("rpx:residents:%s:%s:%s" % (p.key, status, hoh_only), build)


def op_getleaseinfo(w, p, el):
    as_of = w.as_of
    status = (text(el, "residentstatus", "ALL") or "ALL").upper()
    try:
        held = int(text(el, "residentheldthestatus", "365") or 365)
    except ValueError:
        held = 365
    only_lease = text(el, "leaseid")

    def build():
        out = ['<GetLeaseInfo xmlns=""><Leases>']
        for r in p.residencies:
            if status == "C" and r.status != "current":
                continue
            if r.status == "former" and (as_of - r.move_out).days > held:
                continue
            cur = r.current_lease(as_of) if r.status == "current" else None
            for le in r.leases:
                if only_lease and str(le.id) != only_lease:
                    continue
                if r.status == "future":
                    st_code, st_text = "1", "Applicant"
                elif r.status == "former":
                    st_code, st_text = "4", "Former"
                elif le is cur:
                    st_code, st_text = "2", "Current"
                elif le.start > as_of:
                    st_code, st_text = "6", "Current - Future"
                else:
                    st_code, st_text = "5", "Current - Past"
                if le is cur and r.move_out:
                    tcode, ttext = "4", "Notice given - move out"
                elif le.is_renewal:
                    tcode, ttext = "2", "Renewal"
                else:
                    tcode, ttext = "1", "First (Lease)"
                pay_due = dt.date(as_of.year + as_of.month // 12, as_of.month % 12 + 1, 1)
                bal = r.charge_total - r.payment_total
                last_ren = max((l2.start for l2 in r.leases if l2.is_renewal and l2.start <= as_of), default=None)
                out.append("<Lease>%s</Lease>" % "".join([
                    x("ReshID", r.id), x("SiteID", p.pms_id), x("UnitID", r.unit.id), x("LeaseID", le.id),
                    x("NextLeaseID", le.next.id if le.next else 0), x("PriorLeaseID", le.prior.id if le.prior else 0),
                    x("LeaseSignedDate", mdy(le.signed)), x("LeaseBeginDate", mdy(le.start)),
                    x("LeaseEndDate", mdy(le.end)), x("ActiveDate", mdy(le.start)), x("AppliedDate", mdy(le.applied)),
                    x("MoveInDate", mdy(r.move_in) if r.move_in <= as_of else ""), x("SchedMoveInDate", mdy(r.move_in)),
                    x("MonthToMonthDate", mdy(le.end + dt.timedelta(days=1)) if le.mtm else ""),
                    x("BillDate", mdy(le.start)), x("InitialLeaseDate", ymd(r.leases[0].start)), x("Evict", "N"),
                    x("PaymentDueDate", pay_due.strftime("%Y-%m-%d 00:00:00.000")), x("LeaseStatus", st_code),
                    x("LeaseStatusText", st_text), x("Typecode", tcode), x("TypeText", ttext), x("LateDOM", "5"),
                    x("LCFixedAmt", "75.00"), x("LCPerDay", "0.00"), x("Occ", len(r.members)),
                    x("Rent", money2(le.rent)), x("CurBal", money2(bal) if le is cur else "0.00"),
                    x("TotPaid", money4(r.payment_total if le is cur else 0)),
                    x("UnitDesignation", r.unit.designation), x("BillSetUpFee", "0.00"),
                    x("ReshAllowFormerPaymentBit", "0"), x("ConsolidateCharges", "0"),
                    x("LeaseTerm", {12: 5, 6: 3, 9: 4, 13: 6, 14: 14, 15: 7}.get(le.term, 5)),
                    x("LeaseTermDesc", "%d Months" % le.term), x("LastRenewalDate", mon_dd(last_ren)),
                    x("NoticeOnDate", mdy(r.notice_given) if r.move_out else ""),
                    x("NoticeForDate", mdy(r.move_out) if r.move_out else ""), x("Notice", "60"),
                    x("InactiveDate", mdy(r.move_out) if r.status == "former" else ""),
                    x("HeadofHouseholdName", "%s %s" % (r.first, r.last)),
                    x("SecurityDeposit", money2(le.deposit))]))
        out.append("</Leases></GetLeaseInfo>")
        return "".join(out)

    if only_lease:
        return build()
    return w.cached("rpx:leases:%s:%s:%d" % (p.key, status, held), build)


def op_getrentableitems(w, p, el):
    out = ['<GetRentableItemsResponse xmlns=""><Response>']
    for it in p.rentable_items:
        r = it["res"]
        le = it["lease"]
        out.append("<RentableItem>%s</RentableItem>" % "".join([
            x("RidID", it["id"]), x("ItemName", it["name"]), x("ItemType", it["type"]),
            x("Description", "%s space" % it["type"]), x("BillingAmount", money2(it["price"])),
            x("Frequency", "M"), x("TransactionCodeID", "PARKING" if it["type"] == "Garage" else "STORAGE"),
            x("InService", "T"), x("SerialNumber", ""), x("Status", "Leased" if r else "Available"),
            x("DateAvailable", "" if r else w.as_of.isoformat()), x("UnitID", r.unit.id if r else 0),
            x("LeaseID", le.id if le else 0), x("ReshID", r.id if r else 0),
            x("ResidentMemberID", r.members[0][0] if r else 0),
            x("StartDate", it["start"].isoformat() if it["start"] else ""),
            x("EndDate", le.end.isoformat() if le else "")]))
    out.append("</Response></GetRentableItemsResponse>")
    return "".join(out)


def _parse_d(s):
    if not s:
        return None
    for fmt in ("%Y-%m-%d", "%m/%d/%Y", "%Y-%m-%dT%H:%M:%S"):
        try:
            return dt.datetime.strptime(s[:19] if "T" in s else s, fmt).date()
        except ValueError:
            pass
    return None


def op_getresidentledger(w, p, el):
    """Invented shape (no public capture): ResidentLedger/Resident*/Transactions/Transaction*."""
    g = w.gen
    reshid = text(el, "reshid", "") or ""
    start = _parse_d(text(el, "startdate")) or g.win_start
    end = _parse_d(text(el, "enddate")) or g.as_of
    allopen = (text(el, "allopen", "false") or "false").lower() in ("true", "1", "t", "y")
    if reshid in ("", "0"):
        return w.cached("rpx:ledger:%s:%s:%s:%s" % (p.key, start, end, allopen),
                        lambda: _ledger(g, p, reshid, start, end, allopen))
    return _ledger(g, p, reshid, start, end, allopen)


def _ledger(g, p, reshid, start, end, allopen):
    out = ['<ResidentLedger xmlns="">']
    for r in p.residencies:
        if reshid not in ("", "0") and str(r.id) != reshid:
            continue
        if not r.has_postings:
            continue
        charges, payments = g.materialize_ledger(r)
        rows = []
        for c in charges:
            if allopen and c[7] == 0:
                continue
            if not allopen and not (start <= c[1] <= end):
                continue
            rows.append((c[1], c[0], "".join([
                x("TransactionID", c[0]), x("TransactionType", "Charge"), x("TransactionDate", mdy(c[1])),
                x("PostMonth", c[4][5:7] + c[4][0:4]), x("TransactionCode", CHARGE_CODES[c[2]][0]),
                x("Description", CHARGE_CODES[c[2]][2]), x("LeaseID", c[5]), x("Amount", money_sep(c[3])),
                x("AmountPaid", money_sep(c[6])), x("OpenAmount", money_sep(c[7])), x("Reference", "")])))
        if not allopen:
            for pm in payments:
                if start <= pm[1] <= end:
                    rows.append((pm[1], pm[0], "".join([
                        x("TransactionID", pm[0]), x("TransactionType", "Payment"),
                        x("TransactionDate", mdy(pm[1])), x("PostMonth", pm[3][5:7] + pm[3][0:4]),
                        x("TransactionCode", "PAYMENT"), x("Description", "Payment - %s" % pm[4]),
                        # Applied to the lease in force the day it was paid (a renewal does not re-key it).
                        x("LeaseID", r.lease_on(pm[1]).id), x("Amount", money_sep(-pm[2])), x("AmountPaid", money_sep(0)),
                        x("OpenAmount", money_sep(0)), x("Reference", pm[5])])))
        rows.sort()
        out.append("<Resident>%s%s%s%s%s<Transactions>%s</Transactions></Resident>" % (
            x("ReshID", r.id), x("UnitID", r.unit.id), x("UnitNumber", r.unit.number),
            x("Balance", money_sep(r.charge_total - r.payment_total)), x("Prepaid", money_sep(r.credit)),
            "".join("<Transaction>%s</Transaction>" % row[2] for row in rows)))
    out.append("</ResidentLedger>")
    return "".join(out)


def op_getscheduledcharges(w, p, el):
    """Current residents' current recurring charges (postmonth is echoed and ignored, as on the real API)."""
    as_of = w.as_of
    out = ['<ScheduledCharges xmlns="">']
    for u in p.units:
        r = u.current
        if r is None:
            continue
        le = r.current_lease(as_of)
        for code, amt in le.recurring:
            out.append("<ScheduledCharge>%s</ScheduledCharge>" % "".join([
                x("ReshID", r.id), x("LeaseID", le.id), x("UnitID", u.id), x("UnitNumber", u.number),
                x("TransactionCode", CHARGE_CODES[code][0]), x("Description", CHARGE_CODES[code][2]),
                x("Amount", money_sep(amt)), x("Frequency", "Monthly"), x("StartDate", ymd(le.start)),
                x("EndDate", ymd(le.end))]))
    out.append("</ScheduledCharges>")
    return "".join(out)
