"""SOAP helpers shared by the RPX and Yardi endpoints."""

import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
SOAP12 = "http://www.w3.org/2003/05/soap-envelope"


class SoapError(Exception):
    pass


def local(tag):
    return tag.rsplit("}", 1)[-1] if "}" in tag else tag


def parse_envelope(body):
    """-> (operation element, soap version ns). Raises SoapError on anything malformed."""
    if not body.strip():
        raise SoapError("Request body is empty.")
    if b"<!DOCTYPE" in body[:2000].upper() or b"<!ENTITY" in body.upper():
        raise SoapError("DTDs are not allowed.")
    try:
        root = ET.fromstring(body)
    except ET.ParseError as e:
        raise SoapError("There is an error in the XML document: %s" % e)
    if local(root.tag) != "Envelope":
        raise SoapError("The root element is not a SOAP Envelope.")
    ns = root.tag[1:].split("}")[0] if root.tag.startswith("{") else ""
    if ns not in (SOAP11, SOAP12):
        raise SoapError("Unknown SOAP envelope namespace '%s'." % ns)
    bodies = [c for c in root if local(c.tag) == "Body"]
    if not bodies:
        raise SoapError("SOAP Body is missing.")
    ops = list(bodies[0])
    if not ops:
        raise SoapError("SOAP Body is empty.")
    return ops[0], ns


def child(el, name):
    """First descendant-or-child with the given local name (case-insensitive)."""
    if el is None:
        return None
    name = name.lower()
    for c in el.iter():
        if c is not el and local(c.tag).lower() == name:
            return c
    return None


def text(el, name, default=None):
    c = child(el, name)
    if c is None or c.text is None:
        return default
    return c.text.strip()


def x(name, value):
    """<name>escaped value</name>; empty value -> <name />"""
    if value is None or value == "":
        return "<%s />" % name
    return "<%s>%s</%s>" % (name, escape(str(value)), name)


def attr(v):
    return escape(str(v), {'"': "&quot;"})
