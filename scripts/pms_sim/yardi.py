"""Yardi Voyager ASMX web services (SOAP 1.1) for the Yardi properties."""

import datetime as dt
import re

from .soap import SoapError, parse_envelope, local, text, x, attr, escape, SOAP11, SOAP12
from . import maintenance as M
from . import invoices as INV
from .portfolio import CHARGE_CODES, GL_ACCOUNTS, month_key

NS_PREFIX = "http://tempuri.org/YSI.Interfaces.WebServices/"
MITS_NS = "http://my-company.com/namespace"
RT_NS = "http://yardi.com/ResidentTransactions20"
CT = "text/xml; charset=utf-8"

INTERFACES = {
    "ItfResidentData": ("GetPropertyConfigurations", "GetUnitInformation", "GetResidentsByStatus", "GetResidents"),
    "ItfResidentTransactions20": ("GetPropertyConfigurations", "GetUnitInformation_Login", "GetResidentLeaseCharges_Login",
                                  "GetResidentsLeaseCharges_Login", "GetResidentTransactions_Login",
                                  "GetResidentTransaction_Login", "GetResidentTransactions_ByChargeDate_Login",
                                  "GetResidentTransactions_ByApplicationDate_Login"),
    "ItfILSGuestCard": ("GetPropertyConfigurations", "AvailableUnits_Login", "UnitAvailability_Login",
                        "GetYardiGuestActivity_Login", "GetYardiGuestActivity_DateRange"),
    "ItfServiceRequests": ("GetPropertyConfigurations", "GetServiceRequest_Search"),
    "ItfVendorInvoicing": ("GetPropertyConfigurations", "GetInvoiceRegister"),
}
NULL = "0001-01-01"

ECON_DESC = {"occupied": "Occupied No Notice", "ntv": "Notice Unrented", "ntv_leased": "Notice Rented",
             "model": "Model", "down": "Down"}


# Quirk yardi_voyager_charge_codes: internal code -> the code a real Voyager database uses (its rent code starts with
# a dot); the codes not listed keep the simulator's usual Yardi code. Same category as the usual code.
VOYAGER_CODES = {"RENT": ".rent", "PARKING": "park", "LATEFEE": "fees", "DAMAGE": "damages"}


def yardi_code(w, p, code):
    """The Yardi charge code the property posts for an internal code (quirk yardi_voyager_charge_codes)."""
    if w.quirks.has("yardi_voyager_charge_codes", p.key) and code in VOYAGER_CODES:
        return VOYAGER_CODES[code]
    return CHARGE_CODES[code][1]


def econ_desc(u):
    if u.status in ECON_DESC:
        return ECON_DESC[u.status]
    rented = "Rented" if u.status == "vacant_leased" else "Unrented"
    return "Vacant %s %s" % (rented, "Ready" if u.made_ready else "Not Ready")


def mdy_unpadded(d):
    """Quirk yardi_unpadded_dates: 3/7/2026."""
    return "%d/%d/%d" % (d.month, d.day, d.year) if d else ""


def x_indented(name, value):
    """Quirk yardi_indented_values: the value wrapped in the newlines and indentation of a pretty-printed document."""
    if value is None or value == "":
        return "<%s />" % name
    return "<%s>\n        %s\n      </%s>" % (name, escape(str(value)), name)


def m2(c):
    return "%.2f" % (c / 100.0)


def m6(c):
    return "%.6f" % (c / 100.0)


def mdy(d):
    return d.strftime("%m/%d/%Y") if d else ""


def ymd(d):
    return d.isoformat() if d else NULL


# ------------------------------------------------------------------------------ envelopes

SOAP12_CT = "application/soap+xml; charset=utf-8"


def envelope(itf, op, payload, soap12=False):
    """The response envelope: SOAP 1.1, or SOAP 1.2 when the request came as 1.2 (ASMX answers in the request's
    version)."""
    ns = SOAP12 if soap12 else SOAP11
    return ('<?xml version="1.0" encoding="utf-8"?>'
            '<soap:Envelope xmlns:soap="%s" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">'
            '<soap:Body><%sResponse xmlns="%s%s"><%sResult>%s</%sResult></%sResponse></soap:Body></soap:Envelope>'
            % (ns, op, NS_PREFIX, itf, op, payload, op, op))


def fault(message, code="soap:Client", soap12=False):
    """A SOAP 1.1 Fault (faultcode/faultstring), or a 1.2 one (Code/Value Sender|Receiver, Reason/Text)."""
    if soap12:
        code12 = {"soap:Client": "soap:Sender", "soap:Server": "soap:Receiver"}.get(code, code)
        return ('<?xml version="1.0" encoding="utf-8"?>'
                '<soap:Envelope xmlns:soap="%s" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                'xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><soap:Fault>'
                '<soap:Code><soap:Value>%s</soap:Value></soap:Code>'
                '<soap:Reason><soap:Text xml:lang="en">%s</soap:Text></soap:Reason><soap:Detail />'
                '</soap:Fault></soap:Body></soap:Envelope>' % (SOAP12, code12, attr(message)))
    return ('<?xml version="1.0" encoding="utf-8"?>'
            '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" '
            'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">'
            '<soap:Body><soap:Fault><faultcode>%s</faultcode><faultstring>%s</faultstring><detail />'
            '</soap:Fault></soap:Body></soap:Envelope>' % (code, attr(message)))


def messages(msg, kind="Error"):
    return '<Messages xmlns=""><Message messageType="%s">%s</Message></Messages>' % (kind, attr(msg))


def error_messages(msg):
    """ItfServiceRequests reports business errors as ErrorMessages/Error (docs/yardi-soap.md)."""
    return '<ErrorMessages xmlns=""><Error>%s</Error></ErrorMessages>' % attr(msg)


def handle(h, sub, body):
    st = h.server.state
    cfg = st.cfg
    name = sub.split("/")[-1]
    itf = None
    for k in INTERFACES:
        if name.lower() == (k + ".asmx").lower():
            itf = k
    if itf is None:
        return h.send(404, "<html><body>The resource cannot be found.</body></html>", "text/html; charset=utf-8")
    if h.command != "POST":
        return h.send(405, "<html><body>Method not allowed.</body></html>", "text/html; charset=utf-8")
    # SOAP 1.2 carries the action in the Content-Type (`application/soap+xml; charset=utf-8; action="..."`) and is
    # answered with a 1.2 envelope; 1.1 uses the SOAPAction header. Line feeds and indentation in the request body
    # are accepted (one client reports they upset a real server; OwnerDash sends none).
    ctype = h.headers.get("Content-Type") or ""
    soap12 = ctype.strip().lower().startswith("application/soap+xml")
    action = (h.headers.get("SOAPAction") or "").strip().strip('"')
    if soap12:
        m = re.search(r'action\s*=\s*"?([^";]+)"?', ctype)
        action = m.group(1).strip() if m else ""
    rct = SOAP12_CT if soap12 else CT

    def send_fault(message, code="soap:Client"):
        return h.send(500, fault(message, code, soap12), rct)

    try:
        op_el, ns = parse_envelope(body)
    except SoapError as e:
        return send_fault("Server was unable to read request. ---> %s" % e)
    if ns == SOAP12 and not soap12:
        soap12, rct = True, SOAP12_CT
    op = local(op_el.tag)
    expected = NS_PREFIX + itf + "/" + op
    if action and action != expected:
        return send_fault("Server did not recognize the value of HTTP Header SOAPAction: %s." % action)
    if op not in INTERFACES[itf]:
        return send_fault("Server did not recognize the value of HTTP Header SOAPAction: %s." % (action or expected))
    if "soap-fault" in h.faults:
        h.server.state_note("soap-fault")
        h.faults = {}
        return send_fault("Server was unable to process request. ---> Simulated failure.", "soap:Server")

    def reply(payload):
        return h.send(200, envelope(itf, op, payload, soap12), rct)

    # credentials
    user, pw = text(op_el, "UserName", ""), text(op_el, "Password", "")
    if user != cfg.yardi_username or pw != cfg.yardi_password:
        return reply(messages("Login failed. Invalid username or password."))
    if text(op_el, "ServerName", "") != cfg.yardi_server or text(op_el, "Database", "") != cfg.yardi_database:
        return reply(messages("Login failed. Invalid ServerName or Database."))
    if (text(op_el, "Platform", "") or "").lower() != "sql server":
        return reply(messages("Invalid Platform. Platform must be 'SQL Server' or 'Oracle'."))
    if text(op_el, "InterfaceEntity", "") != cfg.yardi_entity or \
            text(op_el, "InterfaceLicense", "") != cfg.yardi_license or itf.lower() in cfg.yardi_unlicensed:
        return reply(messages("Interface Entity or license error (-3): the interface entity is not licensed "
                              "for %s." % itf))
    w = st.world
    if op == "GetPropertyConfigurations":
        return reply(op_property_configurations(w))
    code = text(op_el, "YardiPropertyId", "")
    key = w.key_for("yardi", code)
    if key is None and itf == "ItfServiceRequests":
        return reply(error_messages("Invalid Yardi Property Id: %s." % code))
    if key is None:
        return reply(messages("Invalid Yardi Property Id: %s. Interface Entity has no access to the Yardi property "
                              "(-2)." % code))
    if key in cfg.fail_properties:
        h.server.state_note("fail-property")
        return send_fault("Server was unable to process request. ---> Object reference not set to an "
                          "instance of an object.", "soap:Server")
    shape = w.quirks.error_answer(key, op)
    if shape is not None:
        h.server.state_note("error-answer")
        return error_answer(h, reply, shape, soap12)
    p = w.get(key)
    if op == "GetUnitInformation":
        if w.quirks.has("yardi_no_unit_information", key) or w.quirks.has("yardi_units_from_ils_feed", key):
            return reply(no_unit_information(p))
        return reply(w.cached("y:units:" + key, lambda: op_unit_information(w, p)))
    if op == "GetUnitInformation_Login":
        return reply(w.cached("y:units_login:" + key, lambda: op_unit_information_login(w, p)))
    if op in ("GetResidentsByStatus", "GetResidents"):
        status = text(op_el, "Status", "") or ""
        return reply(op_residents_by_status(w, p, status))
    if op in ("GetResidentLeaseCharges_Login", "GetResidentsLeaseCharges_Login"):
        pm = text(op_el, "PostMonth")
        d = parse_dt(pm)
        if d is None:
            return send_fault("Server was unable to read request. ---> There is an error in XML document. "
                              "---> The string '%s' is not a valid AllXsd value." % (pm or ""))
        return reply(op_lease_charges(w, p, d, text(op_el, "TenantId")))
    if op in ("GetResidentTransactions_Login", "GetResidentTransaction_Login"):
        tenant = text(op_el, "TenantId") if op == "GetResidentTransaction_Login" else None
        if tenant:
            return reply(op_transactions(w, p, tenant=tenant))
        return reply(w.cached("y:txns:" + key, lambda: op_transactions(w, p)))
    if op in ("GetResidentTransactions_ByChargeDate_Login", "GetResidentTransactions_ByApplicationDate_Login"):
        f, t = parse_dt(text(op_el, "FromDate")), parse_dt(text(op_el, "ToDate"))
        if f is None or t is None:
            return send_fault("Server was unable to read request. ---> FromDate and ToDate are required.")
        if (t - f).days > 31:
            return reply(messages("Date range cannot exceed 31 days."))
        if t < f:
            return reply(messages("FromDate must not be after ToDate."))
        h.server.state_note("ledger-window")
        if op == "GetResidentTransactions_ByApplicationDate_Login":
            return reply(op_transactions(w, p, applied_range=(f, t)))
        return reply(op_transactions(w, p, date_range=(f, t)))
    if op in ("AvailableUnits_Login", "UnitAvailability_Login"):
        return reply(w.cached("y:avail:" + key, lambda: op_available_units(w, p)))
    if op == "GetYardiGuestActivity_Login":
        return reply(w.cached("y:guests:" + key, lambda: op_guest_activity(w, p, None, None)))
    if op == "GetYardiGuestActivity_DateRange":
        f, t = parse_dt(text(op_el, "FromDate")), parse_dt(text(op_el, "ToDate"))
        if f is None or t is None:
            return send_fault("Server was unable to read request. ---> FromDate and ToDate are required.")
        return reply(op_guest_activity(w, p, f, t))
    if op == "GetServiceRequest_Search":
        which = (text(op_el, "OpenOrClosed", "") or "").strip().lower()
        if which not in SERVICE_REQUEST_FILTERS:
            return reply(error_messages("OpenOrClosed must be Open, Closed or All (got '%s')."
                                        % text(op_el, "OpenOrClosed", "")))
        return reply(w.cached("y:sr:%s:%s" % (key, which), lambda: op_service_requests(w, p, which)))
    if op == "GetInvoiceRegister":
        return invoice_register(h, reply, w, p, op_el)
    return send_fault("Operation %s is not implemented." % op, "soap:Server")


def error_answer(h, reply, shape, soap12):
    """Quirk yardi_error_answers: Yardi's error shapes other than Faults and Messages (docs/yardi-soap.md, "How Yardi
    reports errors"): a 200 whose body is the plain text `Login failed.`; a Result holding a bare negative result code
    (-3: interface entity or license error); an empty Result; a Result without its payload root (an Info message where
    the payload should be)."""
    if shape == "login_failed_text":
        return h.send(200, "Login failed.", "text/plain; charset=utf-8")
    if shape == "result_code":
        return reply("-3")
    if shape == "empty_result":
        return reply("")
    return reply(messages("No records found for the property.", kind="Info"))


def no_unit_information(p):
    """Quirk yardi_no_unit_information: the payload root and the property, without a single unit."""
    return '<UnitInformation xmlns=""><Property MarketingName="%s"><Units /></Property></UnitInformation>' % attr(p.name)


def parse_dt(s):
    if not s:
        return None
    s = s.strip()
    for fmt, n in (("%Y-%m-%dT%H:%M:%S", 19), ("%Y-%m-%d", 10), ("%m/%d/%Y", 10)):
        try:
            return dt.datetime.strptime(s[:n], fmt).date()
        except ValueError:
            pass
    return None


# ------------------------------------------------------------------------------ payloads

def op_property_configurations(w):
    out = ['<Properties xmlns="">']
    for key in w.keys_for("yardi"):
        p = w.get(key)
        a = p.address
        per = w.as_of.strftime("%m/%Y")
        out.append("<Property>%s</Property>" % "".join([
            x("Code", p.pms_id), x("MarketingName", p.name), x("AddressLine1", a["street"]), x("AddressLine2", ""),
            x("AddressLine3", ""), x("City", a["city"]), x("State", a["state"]), x("PostalCode", a["zip"]),
            x("AccountsReceivable", per), x("AccountsPayable", per)]))
    out.append("</Properties>")
    return "".join(out)


def op_unit_information(w, p):
    a = p.address
    x = x_indented if w.quirks.has("yardi_indented_values", p.key) else globals()["x"]
    out = ['<UnitInformation xmlns=""><Property MarketingName="%s"><Units>' % attr(p.name)]
    for u in p.units:
        r = u.current
        person = ('<PersonID Type="Current Resident">%s</PersonID>' % r.tcode) if r else ""
        out.append('<UnitInfo><UnitID UniqueID="%d">%s</UnitID>%s<Unit>'
                   '<Identification IDType="LeaseDesc" IDValue="Conventional" />'
                   '<Identification IDType="RentalType" IDValue="Residential" />'
                   '<Identification IDType="UnitTypeUniqueID" IDValue="%d" />%s</Unit></UnitInfo>' % (
                       u.id, u.number, person, u.fp.fp_id, "".join([
                           x("UnitType", u.fp.code.lower()), x("UnitBedrooms", u.fp.beds),
                           x("UnitBathrooms", "%.2f" % u.fp.baths), x("MinSquareFeet", u.sqft),
                           x("MaxSquareFeet", u.sqft), x("MarketRent", m2(u.market_rent)),
                           x("UnitEconomicStatus", {"model": "model", "down": "down"}.get(u.status, "residential")),
                           x("UnitEconomicStatusDescription", econ_desc(u)), x("FloorplanName", u.fp.name),
                           x("BuildingName", "Building %s" % u.building["number"]),
                           x("DateAvailable", mdy(_available_date(w, u))),
                           '<Address AddressType="property">%s%s%s%s</Address>' % (
                               x("AddressLine1", "%s #%s" % (u.building["address"], u.number)), x("City", a["city"]),
                               x("State", a["state"]), x("PostalCode", a["zip"]))])))
    if w.quirks.has("yardi_pseudo_units", p.key):
        out.extend(_pseudo_units(p))
    out.append("</Units></Property></UnitInformation>")
    return "".join(out)


def op_unit_information_login(w, p):
    """GetUnitInformation_Login (ItfResidentTransactions20): MITS `PhysicalProperty/Property/RT_Customer*`, one
    RT_Customer per unit and tenant code: a unit appears once per household that lived in it (former, current, future),
    and a unit without a household in possession once more with its status text in CustomerID ("Vacant Unrented Not
    Ready"); the pseudo-rows of quirk yardi_pseudo_units carry "Waitlist" / "Excluded". OwnerDash does not call it
    (GetUnitInformation gives one row per unit): served so a client can be checked against it."""
    a = p.address
    pfx = "MITS:"
    out = ['<PhysicalProperty xmlns="" xmlns:MITS="%s"><Property>' % MITS_NS]

    def customer(customer_id, number, fields, building):
        return ("<RT_Customer>%s<RT_Unit>%s<Unit><%sInformation>%s<%sAddress>%s%s%s%s</%sAddress></%sInformation>"
                "%s%s</Unit></RT_Unit></RT_Customer>" % (
                    x("CustomerID", customer_id), x("UnitID", number), pfx,
                    "".join(x(pfx + k, v) for k, v in fields), pfx,
                    x(pfx + "Address1", "%s #%s" % (building, number) if building else ""), x(pfx + "City", a["city"]),
                    x(pfx + "State", a["state"]), x(pfx + "PostalCode", a["zip"]), pfx, pfx,
                    x("PropertyPrimaryID", p.pms_id), x("MarketingName", p.name)))

    for u in p.units:
        fields = (("UnitID", u.number), ("UnitType", u.fp.code.lower()), ("UnitBedrooms", u.fp.beds),
                  ("UnitBathrooms", int(u.fp.baths)), ("MinSquareFeet", u.sqft), ("MaxSquareFeet", u.sqft),
                  ("MarketRent", m2(u.market_rent)),
                  ("UnitEconomicStatus", {"model": "model", "down": "down"}.get(u.status, "residential")),
                  ("UnitEconomicStatusDescription", econ_desc(u)), ("FloorPlanID", u.fp.fp_id),
                  ("FloorplanName", u.fp.name), ("BuildingID", u.building["number"]))
        tenants = [r.tcode for r in u.residencies]
        if u.future is not None and u.future.tcode not in tenants:
            tenants.append(u.future.tcode)
        for tcode in tenants:
            out.append(customer(tcode, u.number, fields, u.building["address"]))
        if u.current is None:
            out.append(customer(econ_desc(u), u.number, fields, u.building["address"]))
    if w.quirks.has("yardi_pseudo_units", p.key):
        for code, econ, desc in (("WAIT", "residential", "Waitlist"), ("NONRESID", "nonresidential", "Excluded")):
            out.append(customer(desc, code, (("UnitID", code), ("UnitType", code.lower()), ("UnitBedrooms", 0),
                                              ("UnitBathrooms", 0), ("MinSquareFeet", 0), ("MaxSquareFeet", 0),
                                              ("MarketRent", "0.00"), ("UnitEconomicStatus", econ),
                                              ("UnitEconomicStatusDescription", desc)), None))
    out.append("</Property></PhysicalProperty>")
    return "".join(out)


def _pseudo_units(p):
    """Quirk yardi_pseudo_units: Yardi's own pseudo-rows, listed like units: the waiting list (WAIT, status text
    Waitlist) and a non-residential code (NONRESID, Excluded). Not units: the truth leaves them out."""
    rows = []
    for i, (code, econ, desc) in enumerate((("WAIT", "residential", "Waitlist"),
                                             ("NONRESID", "nonresidential", "Excluded"))):
        rows.append('<UnitInfo><UnitID UniqueID="%d">%s</UnitID><Unit>'
                    '<Identification IDType="LeaseDesc" IDValue="Conventional" />'
                    '<Identification IDType="RentalType" IDValue="%s" />%s</Unit></UnitInfo>' % (
                        p.id_base + 190201 + i, code, "Residential" if i == 0 else "Non-Residential", "".join([
                            x("UnitType", code.lower()), x("UnitBedrooms", 0), x("UnitBathrooms", "0.00"),
                            x("MinSquareFeet", 0), x("MaxSquareFeet", 0), x("MarketRent", "0.00"),
                            x("UnitEconomicStatus", econ), x("UnitEconomicStatusDescription", desc)])))
    return rows


def _available_date(w, u):
    if u.status in ("vacant", "vacant_leased"):
        return u.made_ready or w.as_of
    if u.status in ("ntv", "ntv_leased"):
        return u.current.move_out + dt.timedelta(days=1)
    return None


def yardi_status(r, evicting=False):
    if r.status == "future":
        return "Future"
    if r.status == "former":
        return "Past"
    if evicting and not r.move_out and r.charge_total - r.payment_total > 0 and r.id % 5 == 0:
        # Quirk yardi_eviction_status: a household in place that owes money is under eviction.
        return "Eviction"
    return "Notice" if r.move_out else "Current"


def op_residents_by_status(w, p, status):
    want = {s.strip().lower() for s in status.split("^") if s.strip()}
    as_of = w.as_of
    evicting = w.quirks.has("yardi_eviction_status", p.key)
    x = x_indented if w.quirks.has("yardi_indented_values", p.key) else globals()["x"]
    mdy = mdy_unpadded if w.quirks.has("yardi_unpadded_dates", p.key) else globals()["mdy"]
    out = ['<MITS-ResidentData xmlns=""><PropertyResidents>%s<Residents>' % x("PropertyCode", p.pms_id)]
    for r in p.residencies:
        ys = yardi_status(r, evicting)
        if want and ys.lower() not in want:
            continue
        le = r.current_lease(as_of) if r.status == "current" else (r.leases[0] if r.status == "future"
                                                                      else r.leases[-1])
        occ = "".join('<OtherOccupant Code="r%07d">%s%s%s%s</OtherOccupant>' % (
            mid, x("FirstName", f), x("LastName", l), x("MoveInDate", mdy(r.move_in)), x("MoveOutDate", mdy(r.move_out)))
            for (mid, f, l, rel) in r.members[1:])
        out.append('<Resident tCode="%s">%s<OtherOccupants>%s</OtherOccupants></Resident>' % (r.tcode, "".join([
            x("Status", ys), x("FirstName", r.first), x("LastName", r.last), x("Email", r.email),
            '<Phone PhoneType="cell">%s</Phone>' % x("PhoneNumber", r.phone), x("UnitCode", r.unit.number),
            x("Rent", m2(le.rent)), x("LeaseFromDate", mdy(le.start)), x("LeaseToDate", mdy(le.end)),
            x("MoveInDate", mdy(r.move_in)), x("MoveOutDate", mdy(r.move_out)),
            x("NoticeDate", mdy(r.notice_given) if r.move_out else ""), x("paymentAccepted", "1"),
            x("leaseId", le.id), x("isRoommate", "false")]), occ))
    if w.quirks.has("yardi_applicant_statuses", p.key) and want & {"applicant", "denied", "canceled"}:
        for pr, ys, unit in applicants(w, p):
            if ys.lower() not in want:
                continue
            start = pr.desired_move_in
            end = dt.date(start.year + 1, start.month, 1) - dt.timedelta(days=1) if start else None
            out.append('<Resident tCode="p%07d">%s<OtherOccupants /></Resident>' % (pr.id % 10000000, "".join([
                x("Status", ys), x("FirstName", pr.first), x("LastName", pr.last), x("Email", pr.email),
                '<Phone PhoneType="cell">%s</Phone>' % x("PhoneNumber", pr.phone), x("UnitCode", unit.number),
                x("Rent", m2(pr.desired_rent or 0)), x("LeaseFromDate", mdy(start)), x("LeaseToDate", mdy(end)),
                x("MoveInDate", mdy(start)), x("MoveOutDate", ""), x("NoticeDate", ""), x("paymentAccepted", "1"),
                x("leaseId", ""), x("isRoommate", "false")])))
    out.append("</Residents></PropertyResidents></MITS-ResidentData>")
    return "".join(out)


def applicants(w, p):
    """Quirk yardi_applicant_statuses: [(prospect, status, unit)] for the prospects that applied and never leased:
    `Denied` / `Canceled` after that decision, `Applicant` while none is made. Each is listed on a unit of the floor
    plan it wanted: a vacant one that is not leased when there is one, else the plan's first unit, which may be
    occupied (a client counting applicants as households would then count that unit twice)."""
    out = []
    for pr in p.prospects:
        if pr.res is not None or not any(e.kind == "application" and e.date <= w.as_of for e in pr.events):
            continue
        kinds = {e.kind for e in pr.events if e.date <= w.as_of}
        ys = ("Denied" if "application_denied" in kinds else "Canceled" if "application_canceled" in kinds
              else "Applicant")
        units = pr.fp.units if pr.fp and pr.fp.units else p.units
        vacant = [u for u in units if u.status == "vacant"]
        unit = vacant[pr.id % len(vacant)] if vacant else units[0]
        out.append((pr, ys, unit))
    return out


def _rt_unit(u, r, pfx, rent):
    return ("<RT_Unit>%s<NumberOccupants Total=\"%d\" /><Unit><%sInformation>%s</%sInformation>%s%s</Unit></RT_Unit>" % (
        x("UnitID", u.number), len(r.members), pfx, "".join(
            x(pfx + k, v) for k, v in (
                ("UnitID", u.number), ("UnitType", u.fp.code.lower()), ("UnitBedrooms", u.fp.beds),
                ("UnitBathrooms", "%.6f" % u.fp.baths), ("MinSquareFeet", u.sqft), ("MaxSquareFeet", u.sqft),
                ("UnitRent", m2(rent)), ("MarketRent", m6(u.market_rent)),
                ("UnitEconomicStatus", "residential"),
                ("UnitOccupancyStatus", "occupied" if u.is_occupied else "vacant"),
                ("UnitLeasedStatus", {"occupied": "leased", "ntv": "on notice", "ntv_leased": "leased reserved",
                                      "vacant_leased": "leased reserved"}.get(u.status, "available")),
                ("FloorPlanID", u.fp.fp_id), ("FloorplanName", u.fp.name))),
        pfx, x("PropertyPrimaryID", ""), x("MarketingName", "")))


def _customer(p, r, w, pfx):
    as_of = w.as_of
    le = r.current_lease(as_of) if r.status == "current" else (r.leases[0] if r.status == "future" else r.leases[-1])
    typ = {"current": "current resident", "future": "future resident", "former": "former resident"}[r.status]
    a = p.address
    return ('<%sCustomer Type="%s">%s%s<%sProperty>%s%s%s</%sProperty><%sName>%s%s%s</%sName>'
            '<%sAddress Type="current">%s%s%s%s%s</%sAddress><%sLease>%s</%sLease></%sCustomer>' % (
                pfx, typ, x(pfx + "Description", "Head of household"), x(pfx + "CustomerID", r.tcode),
                pfx, x(pfx + "PrimaryID", p.pms_id), x(pfx + "MarketingName", p.name), x(pfx + "UnitID", r.unit.number),
                pfx, pfx, x(pfx + "FirstName", r.first), x(pfx + "MiddleName", ""), x(pfx + "LastName", r.last), pfx,
                pfx, x(pfx + "Address1", "%s #%s" % (r.unit.building["address"], r.unit.number)),
                x(pfx + "City", a["city"]), x(pfx + "State", a["state"]), x(pfx + "PostalCode", a["zip"]),
                x(pfx + "Email", r.email), pfx,
                pfx, "".join(x(pfx + k, v) for k, v in (
                    ("CurrentRent", m2(le.rent)), ("ExpectedMoveInDate", ymd(r.move_in)),
                    ("LeaseFromDate", ymd(le.start)), ("LeaseToDate", ymd(le.end)),
                    ("ActualMoveIn", ymd(r.move_in) if r.move_in <= as_of else NULL),
                    ("ExpectedMoveOutDate", ymd(r.move_out) if r.move_out else NULL),
                    ("ActualMoveOut", ymd(r.move_out) if r.move_out and r.move_out <= as_of else NULL),
                    ("ResponsibleForLease", "true"))), pfx, pfx))


def op_lease_charges(w, p, post_month, tenant):
    """Scheduled (recurring) charges of the leases in effect on the first of PostMonth; unprefixed MITS."""
    m = dt.date(post_month.year, post_month.month, 1)
    out = ['<ResidentTransactions xmlns=""><Property><PropertyID><Identification Type="other">%s%s'
           '</Identification></PropertyID>' % (x("PrimaryID", p.pms_id), x("MarketingName", p.name))]
    me = dt.date(m.year + m.month // 12, m.month % 12 + 1, 1) - dt.timedelta(days=1)
    # Quirk yardi_lease_charges_without_lease_id: Yardi's own sample has no LeaseID (key on Detail/CustomerID).
    with_lease_id = not w.quirks.has("yardi_lease_charges_without_lease_id", p.key)
    for r in p.residencies:
        if tenant and r.tcode != tenant:
            continue
        if r.move_in > me or (r.move_out is not None and r.move_out < m):
            continue
        le = r.lease_on(max(m, r.move_in))
        if le is None:
            continue
        details = []
        for code, amt in le.recurring:
            rp, yc, desc, cat = CHARGE_CODES[code]
            yc = yardi_code(w, p, code)
            details.append("<Transactions><Charge><Detail>%s</Detail></Charge></Transactions>" % "".join([
                x("Description", "%s [Lease Charge]" % desc), x("ServiceFromDate", ymd(max(le.start, r.move_in))),
                x("ServiceToDate", ymd(min(le.end, r.move_out)) if r.move_out else ymd(le.end)),
                x("ChargeCode", yc), x("GLAccountNumber", GL_ACCOUNTS[code]), x("CustomerID", r.tcode),
                x("UnitID", r.unit.number), x("Amount", m2(amt)), x("Comment", "tax=false;rate=0.000000"),
                x("PropertyPrimaryID", p.pms_id), x("LeaseID", le.id) if with_lease_id else ""]))
        out.append("<RT_Customer><RTServiceTransactions>%s</RTServiceTransactions></RT_Customer>" % "".join(details))
    out.append("</Property></ResidentTransactions>")
    return "".join(out)


def applied_dates(charges, payments):
    """Charge id -> the dates a payment (or the credit left by one) was applied to it, replaying the ledger in date
    order oldest-first as Voyager applies it: a payment pays the oldest open charges, a charge posted while credit
    is left takes it on its own date, a negative payment (a reversal) takes back from the newest paid charges. The
    final allocation is the one materialize_ledger computes in one pass."""
    # A credit (a negative charge: the clock's correction to an old rent) is money toward the open charges on its
    # date, as a payment is: materialize_ledger counts it so. Replayed as a charge of its own it was applied to
    # nothing, the replay ran short by it, and the charges its money paid were never listed by the answer by
    # application date (a household's monthly pest charge, found only by each weekly full pull, all year).
    events = sorted([(c[1], 0, c[0], c[3]) for c in charges if c[3] >= 0]
                    + [(c[1], 1, c[0], -c[3]) for c in charges if c[3] < 0]
                    + [(pm[1], 1, pm[0], pm[2]) for pm in payments])
    open_amt, paid, order, dates = {}, {}, [], {}
    credit = 0
    for d, is_payment, tid, cents in events:
        if not is_payment:
            open_amt[tid], paid[tid] = cents, 0
            order.append(tid)
            if credit > 0:
                take = min(credit, cents)
                credit -= take
                open_amt[tid] -= take
                paid[tid] += take
                dates.setdefault(tid, set()).add(d)
            continue
        if cents >= 0:
            credit += cents
            for cid in order:
                if credit <= 0:
                    break
                if open_amt[cid] > 0:
                    take = min(credit, open_amt[cid])
                    credit -= take
                    open_amt[cid] -= take
                    paid[cid] += take
                    dates.setdefault(cid, set()).add(d)
        else:
            back = -cents
            take = min(back, credit)
            credit -= take
            back -= take
            for cid in reversed(order):
                if back <= 0:
                    break
                if paid[cid] > 0:
                    take = min(back, paid[cid])
                    back -= take
                    paid[cid] -= take
                    open_amt[cid] += take
                    dates.setdefault(cid, set()).add(d)
            credit -= back   # more taken back than was applied: the household owes it
    return dates


def op_transactions(w, p, tenant=None, date_range=None, applied_range=None):
    """MITS ResidentTransactions 2.0 (default ns + MITS: prefix) with every posted charge and payment; `date_range`
    (ByChargeDate): only those dated in it; `applied_range` (ByApplicationDate): only the charges a payment was
    applied to within it, and the payments dated in it."""
    g = w.gen
    pfx = "MITS:"
    a = p.address
    out = ['<ResidentTransactions xmlns="%s" xmlns:MITS="%s"><Property><PropertyID>'
           '<MITS:Identification Type="other">%s%s</MITS:Identification>'
           '<MITS:Address Type="property">%s%s%s%s</MITS:Address></PropertyID>' % (
               RT_NS, MITS_NS, x("MITS:PrimaryID", p.pms_id), x("MITS:MarketingName", p.name),
               x("MITS:Address1", a["street"]), x("MITS:City", a["city"]), x("MITS:State", a["state"]),
               x("MITS:PostalCode", a["zip"]))]
    services = w.quirks.has("yardi_services_blocks", p.key)
    for r in p.residencies:
        if tenant and r.tcode != tenant:
            continue
        if r.status == "future" or not r.has_postings:
            continue
        charges, payments = g.materialize_ledger(r)
        rent = (r.current_lease(w.as_of) if r.status == "current" else r.leases[-1]).rent
        tx = []
        applied = applied_dates(charges, payments) if applied_range else {}
        for c in charges:
            if date_range and not (date_range[0] <= c[1] <= date_range[1]):
                continue
            if applied_range and not any(applied_range[0] <= d <= applied_range[1] for d in applied.get(c[0], ())):
                continue
            rp, yc, desc, cat = CHARGE_CODES[c[2]]
            yc = yardi_code(w, p, c[2])
            tx.append((c[1], c[0], "<Transactions><Charge><Detail>%s</Detail></Charge></Transactions>" % "".join([
                x("Description", desc), x("TransactionDate", ymd(c[1])), x("TransactionID", c[0]),
                x("ChargeCode", yc), x("GLAccountNumber", GL_ACCOUNTS[c[2]]), x("CustomerID", r.tcode),
                x("UnitID", r.unit.number), x("AmountPaid", m2(c[6])), x("BalanceDue", m2(c[7])),
                x("Amount", m2(c[3])), x("Comment", "%s (%s/%s)" % (desc, c[4][5:7], c[4][0:4])),
                x("ServiceFromDate", c[4] + "-01"), x("PropertyPrimaryID", p.pms_id), x("LeaseID", c[5])])))
        beyond = paid_beyond_window(w, p, r, payments)
        for pm in payments:
            window = date_range or applied_range
            if window and not (window[0] <= pm[1] <= window[1]):
                continue
            if pm[0] in beyond:
                continue
            ptype = {"Check": "Check", "Money Order": "Other", "Credit Card": "Other", "ACH": "Other"}[pm[4]]
            tx.append((pm[1], pm[0], '<Transactions><Payment Type="%s"><Detail>%s</Detail></Payment></Transactions>' % (
                ptype, "".join([
                    x("Description", "Payment (%s)" % pm[4]), x("TransactionID", pm[0]), x("DocumentNumber", pm[5]),
                    x("TransactionDate", ymd(pm[1])), x("GLAccountNumber", "1010-0000"), x("CustomerID", r.tcode),
                    x("Amount", m2(pm[2])), x("Comment", pm[4]), x("PropertyPrimaryID", p.pms_id),
                    x("PostMonth", pm[3] + "-01"), x("Reversal", "true" if pm[2] < 0 else "false")]))))
        if (date_range or applied_range) and not tx:
            continue
        tx.sort()
        body = "".join(t[2] for t in tx)
        if services:
            block = _services(r, w, p)
            body = block + body if r.id % 2 == 0 else body + block
        out.append("<RT_Customer>%s<Customers>%s</Customers>%s%s<RTServiceTransactions>%s</RTServiceTransactions>"
                   "</RT_Customer>" % (x("CustomerID", r.tcode), _customer(p, r, w, pfx), _rt_unit(r.unit, r, pfx, rent),
                                       x("PaymentAccepted", "1"), body))
    out.append("</Property></ResidentTransactions>")
    return "".join(out)


def paid_beyond_window(w, p, r, payments):
    """Quirk yardi_amount_paid_beyond_window: the payment ids the export leaves out for this household -- the first
    payment of every 4th household (by id) that owes money and has more than one payment, as if it were dated before
    the exported window or moved in by a transfer. Its charges' AmountPaid still counts it (Voyager's application is
    unchanged), so charges - payments exceed the open BalanceDue by its amount. A household in credit keeps its
    payments: the window could not tell its credit from a missing payment, and the truth keeps the vendor's credit."""
    if not w.quirks.has("yardi_amount_paid_beyond_window", p.key) or r.id % 4 or len(payments) < 2:
        return ()
    if r.credit or r.charge_total - r.payment_total <= 0:
        return ()
    first = min(payments, key=lambda pm: (pm[1], pm[0]))
    return (first[0],) if first[2] > 0 else ()


# Quirk yardi_services_blocks: the Service@Type of a recurring charge code (Electric, Gas, Trash, Fees are the types
# seen; the simulator bills no electric or gas).
SERVICE_TYPES = {"TRASH": "Trash", "WATER": "Fees", "SEWER": "Fees", "PEST": "Fees", "PARKING": "Fees"}


def _services(r, w, p):
    """`Services Type="Other"` with one `Detail` per recurring service of the household's last lease: a description of
    what the household is billed for, no amount and no date. It sits beside the Transactions (before them for every
    other household, after them for the rest); it is not a charge or a payment."""
    le = r.current_lease(w.as_of) if r.status == "current" else r.leases[-1]
    details = []
    for code, _amount in le.recurring:
        if code not in SERVICE_TYPES:
            continue
        rp, yc, desc, cat = CHARGE_CODES[code]
        yc = yardi_code(w, p, code)
        details.append("<Detail>%s<Service Type=\"%s\" />%s%s%s%s</Detail>" % (
            x("Description", desc), SERVICE_TYPES[code], x("ChargeCode", yc), x("GLAccountNumber", GL_ACCOUNTS[code]),
            x("CustomerID", r.tcode), x("UnitID", r.unit.number)))
    return '<Services Type="Other">%s</Services>' % "".join(details) if details else ""


def op_available_units(w, p):
    """MITS PhysicalProperty/ILS_Unit for vacant and on-notice units (MITS: prefix on unit elements); the property
    declares its unit count in Property/Information/UnitCount. Quirk yardi_units_from_ils_feed: every unit is listed
    (an occupied one `occupied` / `leased` without a VacateDate), none with Voyager's status text, and the declared
    count is 3 fewer than the units listed (a real feed declares 200 units and lists 203)."""
    as_of = w.as_of
    every_unit = w.quirks.has("yardi_units_from_ils_feed", p.key)
    declared = len(p.units) - 3 if every_unit else len(p.units)
    out = ['<PhysicalProperty xmlns="" xmlns:MITS="%s"><Property><PropertyID>'
           '<MITS:Identification IDValue="%s" OrganizationName="Property" />%s</PropertyID>'
           '<Information>%s</Information>' % (
               MITS_NS, attr(p.pms_id), x("MITS:MarketingName", p.name), x("UnitCount", declared))]
    for fp in p.floorplans:
        rents = [u.market_rent for u in fp.units]
        out.append('<Floorplan IDValue="%s">%s<Room RoomType="Bedroom">%s</Room><Room RoomType="Bathroom">%s</Room>'
                   '<SquareFeet Min="%d" Max="%d" /><MarketRent Min="%s" Max="%s" /></Floorplan>' % (
                       fp.code, x("Name", fp.name), x("Count", fp.beds), x("Count", fp.baths), fp.sqft, fp.sqft,
                       m2(min(rents)), m2(max(rents))))
    for u in p.units:
        if u.status not in ("vacant", "vacant_leased", "ntv", "ntv_leased", "model") and not every_unit:
            continue
        avail = _available_date(w, u)
        mr = u.made_ready if u.is_vacant else None
        vac = u.vacant_since if u.is_vacant else (u.current.move_out if u.current and u.status != "occupied" else None)
        out.append('<ILS_Unit IDValue="%s"><Units><MITS:Unit>'
                   '<MITS:Identification IDValue="%s" OrganizationName="Unit" IDType="UnitID" />'
                   '<MITS:Identification IDValue="%d" OrganizationName="Yardi" IDType="UnitUniqueID" />%s'
                   '</MITS:Unit></Units><Availability>%s%s%s</Availability>%s</ILS_Unit>' % (
                       u.number, u.number, u.id, "".join([
                           x("MITS:UnitType", u.fp.code.lower()), x("MITS:FloorplanName", u.fp.name),
                           x("MITS:UnitBedrooms", u.fp.beds), x("MITS:UnitBathrooms", "%.2f" % u.fp.baths),
                           x("MITS:MinSquareFeet", u.sqft), x("MITS:MaxSquareFeet", u.sqft),
                           x("MITS:MarketRent", m2(u.market_rent)),
                           x("MITS:UnitOccupancyStatus", "occupied" if u.is_occupied else "vacant"),
                           x("MITS:UnitLeasedStatus", "leased" if u.status in ("vacant_leased", "ntv_leased", "occupied")
                             else ("on notice" if u.status == "ntv" else "available")),
                           x("MITS:UnitEconomicStatus", u.status if u.status in ("model", "down") else "residential"),
                           "" if every_unit else x("MITS:UnitEconomicStatusDescription", econ_desc(u))]),
                       _mits_date("VacateDate", vac), _mits_date("MadeReadyDate", mr),
                       '<VacancyClass>%s</VacancyClass>' % ("Unoccupied" if u.is_vacant else "Occupied"),
                       x("EffectiveRent", m2(u.market_rent))))
    out.append("</Property></PhysicalProperty>")
    return "".join(out)


def _mits_date(name, d):
    if d is None:
        return "<%s />" % name
    return '<%s Month="%d" Day="%d" Year="%d" />' % (name, d.month, d.day, d.year)


EVENT_TYPES = {"tour": "Show", "application": "Application", "approval": "Approve", "lease_signed": "LeaseSign",
               "application_denied": "ApplicationDenied", "application_canceled": "CancelApplication"}
LEAD_EVENT = {"email": "Email", "phone": "CallFromProspect", "internet": "Webservice", "text": "Other",
              "visit": "WalkIn"}


class BeyondFunnel:
    """An event of quirk yardi_guest_events_beyond_funnel: a guest-card event type that is no funnel step."""
    kind = "beyond"

    def __init__(self, date, event_type, number, agent, source):
        self.date, self.event_type, self.number, self.agent, self.source = date, event_type, number, agent, source


def _events_beyond_funnel(w, pr):
    """The guest card's other events (event types of a real export), all dated on or before the property date, none a
    first contact: `Appointment` (the tour booked at the first contact of a prospect who did not walk in), `ReturnVisit`
    (every other prospect who applied on a later day than the tour comes back that day), `Hold` (the unit held on the
    approval day), `ReApply` (every other denied or canceled applicant, 3 days after the decision), `Cancel` (a prospect
    with no application closed 46 days after the first contact), and for the prospects who became residents `MoveIn`,
    `Notice` and `Renew` (on the move-in, notice and renewal-signing days). OwnerDash's funnel counts none of them
    (docs/metrics.md): the truth's funnel is unchanged."""
    as_of = w.as_of
    by_kind = {}
    for e in pr.events:
        by_kind.setdefault(e.kind, e.date)
    out = []

    def add(date, event_type):
        if date is not None and date <= as_of:
            out.append(BeyondFunnel(date, event_type, 5 + len(out), pr.agent, pr.source))

    lead, tour, app = by_kind.get("lead"), by_kind.get("tour"), by_kind.get("application")
    if tour is not None and pr.channel != "visit":
        add(lead, "Appointment")
    if tour is not None and app is not None and app > tour and pr.id % 2 == 0:
        add(app, "ReturnVisit")
    if pr.res is not None:
        add(by_kind.get("approval"), "Hold")
    decided = by_kind.get("application_denied") or by_kind.get("application_canceled")
    if decided is not None and pr.id % 2 == 1:
        add(decided + dt.timedelta(days=3), "ReApply")
    if pr.res is None and app is None and lead is not None:
        add(lead + dt.timedelta(days=46), "Cancel")
    r = pr.res
    if r is not None:
        add(r.move_in, "MoveIn")
        add(r.notice_given, "Notice")
        for le in r.leases[1:4]:
            if le.is_renewal:
                add(le.signed, "Renew")
    return out[:5]


def op_guest_activity(w, p, f, t):
    as_of = w.as_of
    out = ['<LeadManagement xmlns=""><Prospects>']
    n_event = 0
    beyond = w.quirks.has("yardi_guest_events_beyond_funnel", p.key)
    for pr in p.prospects:
        evs = [e for e in pr.events if (f is None or e.date >= f) and (t is None or e.date <= t)]
        if beyond:
            extra = [e for e in _events_beyond_funnel(w, pr) if (f is None or e.date >= f) and (t is None or e.date <= t)]
            # Stable: a funnel event keeps its place before an extra event of the same day.
            evs = sorted(evs + extra, key=lambda e: e.date)
        if not evs:
            continue
        r = pr.res
        if r is not None:
            ctype = {"current": "current_resident", "future": "future_resident", "former": "former_resident"}[r.status]
        elif any(e.kind == "application_denied" for e in pr.events):
            ctype = "denied_applicant"
        elif any(e.kind == "application_canceled" for e in pr.events):
            ctype = "canceled"
        else:
            ctype = "prospect"
        ids = '<Identification IDType="ProspectID" IDValue="p%07d" OrganizationName="Yardi" />' % (pr.id % 10000000)
        if r is not None:
            ids += '<Identification IDType="TenantID" IDValue="%s" OrganizationName="Yardi" />' % r.tcode
        ids += '<Identification IDType="PropertyID" IDValue="%s" OrganizationName="Yardi" />' % p.pms_id
        lease = ""
        if r is not None and r.leases:
            le = r.leases[0]
            lease = "<Lease>%s</Lease>" % "".join([
                x("CurrentRent", m2(le.rent)), x("ExpectedMoveInDate", ymd(r.move_in)),
                x("LeaseFromDate", ymd(le.start)), x("LeaseToDate", ymd(le.end)),
                x("ActualMoveIn", ymd(r.move_in) if r.move_in <= as_of else NULL), x("ResponsibleForLease", "true")])
        events = []
        for e in evs:
            n_event += 1
            if e.kind == "lead":
                typ = LEAD_EVENT[pr.channel]
            elif e.kind == "beyond":
                typ = e.event_type
            else:
                typ = EVENT_TYPES[e.kind]
            first = "true" if e.kind == "lead" else "false"
            ag = (e.agent or "Leasing Office").split(" ", 1) + [""]
            events.append('<Event EventType="%s" EventDate="%sT%02d:%02d:00%s"><EventID IDValue="%d" IDType="Yardi" />'
                          '<Agent><AgentName>%s%s</AgentName></Agent>%s%s%s%s</Event>' % (
                              typ, e.date.isoformat(), 9 + (pr.id + n_event) % 9, (pr.id * 7) % 60,
                              ".0" if n_event % 5 == 0 else "",
                              pr.id * 10 + (e.number if e.kind == "beyond" else pr.events.index(e)),
                              x("FirstName", ag[0]), x("LastName", ag[1]), x("EventReasons", ""),
                              x("FirstContact", first), x("TransactionSource", e.source or ""),
                              x("Comments", "Text message" if typ == "Other" and e.kind == "lead" else "")))
        out.append('<Prospect><Customers><Customer Type="%s">%s<Name>%s%s</Name>'
                   '<Phone PhoneType="cell">%s</Phone>%s%s</Customer></Customers>'
                   '<CustomerPreferences>%s%s<DesiredRent Exact="%s" /><DesiredNumBedrooms Exact="%d" />'
                   '</CustomerPreferences><Events>%s</Events></Prospect>' % (
                       ctype, ids, x("FirstName", pr.first), x("LastName", pr.last), x("PhoneNumber", pr.phone),
                       x("Email", pr.email), lease, x("TargetMoveInDate", ymd(pr.desired_move_in)),
                       x("DesiredFloorplan", pr.fp.name if pr.fp else ""), m2(pr.desired_rent or 0),
                       pr.fp.beds if pr.fp else 1, "".join(events)))
    out.append("</Prospects></LeadManagement>")
    return "".join(out)


# ------------------------------------------------------------------------------ ItfServiceRequests

# OpenOrClosed values accepted ([I]: the WSDL names the parameter, no capture shows its values) -> statuses served.
SERVICE_REQUEST_FILTERS = {"open": ("open",), "closed": ("closed",), "all": ("open", "closed"),
                           "both": ("open", "closed"), "": ("open", "closed")}


def _sr_stamp(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S")


def op_service_requests(w, p, which):
    """GetServiceRequest_Search: the unit turns (Category `Make Ready`) and resident service requests, open and
    closed in the simulator's history (maintenance.WORK_ORDER_MONTHS)."""
    wanted = SERVICE_REQUEST_FILTERS[which]
    out = ['<ServiceRequests xmlns="">']
    for wo in M.of(w.gen, p).orders:
        if ("open" if wo.is_open else "closed") not in wanted:
            continue
        update = wo.history[-1][1]
        out.append("<ServiceRequest>%s%s%s%s%s%s%s%s%s%s%s<StatusHistory>%s</StatusHistory></ServiceRequest>" % (
            x("ServiceRequestId", wo.id),
            x("PropertyCode", p.pms_id), x("UnitCode", wo.unit.number), x("TenantCode", wo.tenant_code or ""),
            x("Category", wo.category), x("ServiceRequestBriefDescription", wo.brief),
            x("ServiceRequestFullDescription", wo.full or ""), x("CurrentStatus", wo.status),
            x("ServiceRequestDate", _sr_stamp(wo.opened_time)), x("UpdateDate", _sr_stamp(update)),
            x("Priority", "Normal"),
            "".join('<Status Type="%s" TimeStamp="%s" />' % (attr(st), _sr_stamp(t)) for st, t in wo.history)))
    out.append("</ServiceRequests>")
    return "".join(out)


# ------------------------------------------------------------------------------ ItfVendorInvoicing

# GetInvoiceRegister's date-range parameters, in WSDL order, as (from, to) pairs; what each one filters on.
INVOICE_RANGES = [("InvoicePostMonthFrom", "InvoicePostMonthTo", "post_month"),
                  ("InvoiceFromDate", "InvoiceToDate", "invoice_date"),
                  ("InvoiceCreationFromDate", "InvoiceCreationToDate", "created"),
                  ("InvoiceLastModifiedFromDate", "InvoiceLastModifiedToDate", "created")]


def invoice_register(h, reply, w, p, op_el):
    """GetInvoiceRegister ([I]: no capture of its response exists; the parameters are the WSDL's). Every range given
    must be whole (both ends, parseable, from <= to) and at least one must be; post months compare by month. The
    optional VendorId / InvoiceNumber narrow the register; the other optional filters are accepted and ignored."""
    ranges = []
    for a, b, field in INVOICE_RANGES:
        ra, rb = (text(op_el, a, "") or "").strip(), (text(op_el, b, "") or "").strip()
        if not ra and not rb:
            continue
        fa, fb = parse_dt(ra), parse_dt(rb)
        if fa is None or fb is None:
            return reply(error_messages("%s and %s must both be dates (got '%s', '%s')." % (a, b, ra, rb)))
        if field == "post_month":
            fa, fb = dt.date(fa.year, fa.month, 1), dt.date(fb.year, fb.month, 1)
        if fa > fb:
            return reply(error_messages("%s is after %s." % (a, b)))
        ranges.append((field, fa, fb))
    if not ranges:
        return reply(error_messages("At least one date range (post month, invoice date, creation or last modified) "
                                    "is required."))
    vendor = (text(op_el, "VendorId", "") or "").strip()
    number = (text(op_el, "InvoiceNumber", "") or "").strip()
    picked = [inv for inv in INV.of(w.gen, p)
              if all(lo <= getattr(inv, field) <= hi for field, lo, hi in ranges)
              and (not vendor or inv.vendor_id == vendor) and (not number or inv.number == number)]
    return reply(op_invoice_register(p, picked))


def op_invoice_register(p, picked):
    """`InvoiceRegister/Invoice{header, Details/Detail{GL account, amount, description}}` ([I])."""
    out = ['<InvoiceRegister xmlns="">']
    for inv in picked:
        details = "".join("<Detail>%s</Detail>" % "".join([
            x("DetailId", lid), x("GLAccountNumber", account), x("GLAccountName", name), x("Amount", m2(c)),
            x("Description", desc), x("PropertyCode", p.pms_id)]) for lid, account, name, c, desc in inv.lines)
        out.append("<Invoice>%s<Details>%s</Details></Invoice>" % ("".join([
            x("InvoiceRegisterId", inv.id), x("InvoiceNumber", inv.number), x("PropertyCode", p.pms_id),
            x("VendorId", inv.vendor_id), x("VendorName", inv.vendor_name), x("InvoiceDate", mdy(inv.invoice_date)),
            x("PostMonth", inv.post_month.strftime("%m/%Y")), x("DueDate", mdy(inv.due_date)),
            x("InvoiceTotal", m2(inv.total_cents)), x("Status", "Posted")]), details))
    out.append("</InvoiceRegister>")
    return "".join(out)
