#!/usr/bin/env python3
"""Man pages for the Debian package, generated from `ownerdash --help` and each command's `--help`.

    python3 scripts/package/manpages.py BINARY OUTDIR [--date YYYY-MM-DD]

Writes OUTDIR/ownerdash.1 (the command list, the installed files), one page per command
(`report lease-status` -> ownerdash-report-lease-status.1) and one per group of subcommands (ownerdash-report.1).
The help text is the source: it is generated from the commands' own declarations, so the pages cannot drift from
the binary they are packaged with. Its shape (Command.swift `help`, CLI.swift `overview` and `groupHelp`):

    OVERVIEW: <abstract>
    USAGE: <synopsis>
    <discussion paragraphs; lines indented by two spaces are examples, kept as printed>
    ARGUMENTS AND OPTIONS: / GLOBAL OPTIONS: / COMMANDS: / SUBCOMMANDS:
      <label>  <help>      (the label padded with spaces; at least two before the help)
    <closing lines, after a blank line (the overview's "See ..."), which join the description>

A help text in another shape is an error rather than a page that silently drops part of it.
"""
import argparse
import datetime
import os
import re
import subprocess
import sys

SECTION_NAMES = {
    "ARGUMENTS AND OPTIONS:": "OPTIONS",
    "GLOBAL OPTIONS:": "GLOBAL OPTIONS",
    "COMMANDS:": "COMMANDS",
    "SUBCOMMANDS:": "SUBCOMMANDS",
}

# What the package installs where (scripts/package.sh); said once on ownerdash(1).
FILES = [
    ("/etc/ownerdash/report_definitions.json",
     "The property registry and report catalogue the systemd units pass to --config (a conffile: edit it)."),
    ("/etc/ownerdash/ownerdash.env",
     "Secrets and endpoints for the nightly ingest, read by systemd (EnvironmentFile=); mode 0600, root."),
    ("/var/lib/ownerdash/data",
     "The data directory of the systemd units (OWNERDASH_DATA_DIR): landing zone, raw databases, unified.db."),
    ("/usr/share/ownerdash",
     "The example registry and the PMS simulator that ownerdash demo runs (python3)."),
    ("/lib/systemd/system/ownerdash-ingest.timer",
     "The nightly ingest (ownerdash-ingest.service), off until enabled with systemctl enable --now."),
]


class HelpShapeError(Exception):
    """The help text is not in the shape this converter knows."""


def escape(text):
    """Text as roff: a backslash printed as one, every '-' a minus (options stay copyable), a break point after '|',
    non-ASCII as \\[uXXXX], and a line that would start with a control character made literal."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\e")
        elif ch == "-":
            out.append("\\-")
        elif ch == "|":
            # A break point after each choice: `box_score|rent_roll|...` is one long word otherwise.
            out.append("|\\:")
        elif ord(ch) > 127:
            out.append("\\[u%04X]" % ord(ch))
        else:
            out.append(ch)
    line = "".join(out)
    return "\\&" + line if line.startswith((".", "'")) else line


def parse_help(text):
    """(abstract, synopsis, discussion lines, [(section title, [(label, help)])]) of one help text."""
    lines = text.rstrip("\n").split("\n")
    if not lines or not lines[0].startswith("OVERVIEW: "):
        raise HelpShapeError("the help does not start with 'OVERVIEW: ': %r" % (lines[:1],))
    abstract = lines[0][len("OVERVIEW: "):].strip()
    index = 1
    while index < len(lines) and not lines[index].strip():
        index += 1
    if index >= len(lines) or not lines[index].startswith("USAGE: "):
        raise HelpShapeError("no 'USAGE: ' line after the overview")
    synopsis = lines[index][len("USAGE: "):].strip()
    index += 1
    discussion = []
    sections = []
    while index < len(lines):
        line = lines[index]
        if line in SECTION_NAMES:
            entries = []
            index += 1
            while index < len(lines) and lines[index].strip():
                match = re.match(r"^  (\S(?:\S| (?! ))*)(?: {2,}(.*))?$", lines[index])
                if not match:
                    raise HelpShapeError("an entry of %s is not '  LABEL  HELP': %r" % (line, lines[index]))
                entries.append((match.group(1), (match.group(2) or "").strip()))
                index += 1
            sections.append((SECTION_NAMES[line], entries))
            continue
        if sections and line.strip() and discussion and discussion[-1].strip():
            # Text after the sections (the overview's closing "See ..." lines) joins the description, as its own
            # paragraph.
            discussion.append("")
        discussion.append(line)
        index += 1
    while discussion and not discussion[0].strip():
        discussion.pop(0)
    while discussion and not discussion[-1].strip():
        discussion.pop()
    return abstract, synopsis, discussion, sections


def paragraphs(lines):
    """The discussion as roff: blank-line-separated paragraphs filled, two-space-indented lines kept as printed."""
    out = []
    prose = []
    example = []

    def flush():
        if prose:
            out.append(".PP")
            out.append(escape(" ".join(part.strip() for part in prose)))
            prose.clear()
        if example:
            out.extend([".PP", ".RS 2", ".nf"] + [escape(part) for part in example] + [".fi", ".RE"])
            example.clear()

    for line in lines:
        if not line.strip():
            flush()
        elif line.startswith("  "):
            if prose:
                flush()
            example.append(line[2:])
        else:
            if example:
                flush()
            prose.append(line)
    flush()
    return out


def page_name(words):
    """`["report", "lease-status"]` -> `ownerdash-report-lease-status`."""
    return "-".join(["ownerdash"] + list(words))


def header(name, source, abstract, version, date):
    """The comment, .TH and NAME of a page; `source` is the command line whose help it is made from."""
    title = name.upper()
    description = abstract[:-1] if abstract.endswith(".") else abstract
    return [
        '.\\" Generated by scripts/package/manpages.py from `%s --help`; do not edit.' % source,
        '.TH %s 1 "%s" "ownerdash %s" "OwnerDash manual"' % (escape(title), date, escape(version)),
        # Ragged right and no hyphenation, as --help prints: justified long option lists leave gaps groff warns
        # about, and a hyphenated `--par-allel` is not an option to copy.
        ".ad l",
        ".nh",
        ".SH NAME",
        "%s \\- %s" % (escape(name), escape(description)),
    ]


def entries_section(title, entries, reference=None):
    """One `.SH` of `label  help` entries; `reference(label)` names a page to point to, if any."""
    out = [".SH " + escape(title)]
    for label, help_text in entries:
        out += [".TP", "\\fB%s\\fR" % escape(label)]
        text = help_text
        if reference:
            text = "%s See %s(1)." % (text, reference(label)) if text else "See %s(1)." % reference(label)
        out.append(escape(text))
    return out


def command_page(words, help_text, version, date):
    """The page of one command (or group) from its --help."""
    abstract, synopsis, discussion, sections = parse_help(help_text)
    name = page_name(words)
    out = header(name, " ".join(["ownerdash"] + list(words)), abstract, version, date)
    out += [".SH SYNOPSIS", "\\fB%s\\fR" % escape(synopsis)]
    out += [".SH DESCRIPTION", ".PP", escape(abstract)] + paragraphs(discussion)
    for title, entries in sections:
        reference = (lambda label: page_name(words + [label])) if title == "SUBCOMMANDS" else None
        out += entries_section(title, entries, reference)
    out += [".SH SEE ALSO", "\\fBownerdash\\fR(1)"]
    return "\n".join(out) + "\n"


def overview_page(help_text, commands, version, date):
    """ownerdash(1): the command list (each pointing to its page), the installed files."""
    abstract, synopsis, discussion, sections = parse_help(help_text)
    out = header("ownerdash", "ownerdash", abstract, version, date)
    out += [".SH SYNOPSIS", "\\fB%s\\fR" % escape(synopsis), ".br", "\\fBownerdash \\-\\-version\\fR"]
    out += [".SH DESCRIPTION", ".PP", escape(abstract)] + paragraphs(discussion)
    for title, entries in sections:
        reference = (lambda label: page_name(label.split())) if title == "COMMANDS" else None
        out += entries_section(title, entries, reference)
    out += [".SH FILES"]
    for path, text in FILES:
        out += [".TP", "\\fI%s\\fR" % escape(path), escape(text)]
    out += [".SH SEE ALSO"]
    out.append(",\n".join("\\fB%s\\fR(1)" % escape(page_name(words)) for words in commands))
    return "\n".join(out) + "\n"


def command_words(overview_help):
    """The commands `ownerdash --help` lists, as word lists (`["report", "lease-status"]`), and their groups."""
    _, _, _, sections = parse_help(overview_help)
    listed = dict(sections).get("COMMANDS")
    if not listed:
        raise HelpShapeError("ownerdash --help lists no COMMANDS")
    commands = [label.split() for label, _ in listed]
    groups = []
    for words in commands:
        if len(words) > 1 and [words[0]] not in groups:
            groups.append([words[0]])
    return commands, groups


def run_help(binary, words):
    result = subprocess.run([binary] + list(words) + ["--help"], capture_output=True, text=True)
    if result.returncode != 0:
        raise HelpShapeError("%s %s --help exited %d: %s" % (binary, " ".join(words), result.returncode,
                                                             result.stderr.strip()[:300]))
    return result.stdout


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binary")
    parser.add_argument("outdir")
    parser.add_argument("--date", default=datetime.date.today().isoformat(),
                        help="the pages' date (the package passes the commit's, so a rebuild is identical)")
    args = parser.parse_args(argv)
    version = subprocess.run([args.binary, "--version"], capture_output=True, text=True, check=True).stdout.split()[-1]
    overview = run_help(args.binary, [])
    commands, groups = command_words(overview)
    os.makedirs(args.outdir, exist_ok=True)
    pages = {"ownerdash": overview_page(overview, groups + commands, version, args.date)}
    for words in groups + commands:
        pages[page_name(words)] = command_page(words, run_help(args.binary, words), version, args.date)
    for name, text in pages.items():
        with open(os.path.join(args.outdir, name + ".1"), "w", encoding="ascii") as page:
            page.write(text)
    print("%d man pages in %s" % (len(pages), args.outdir))


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except HelpShapeError as error:
        sys.exit("manpages.py: %s" % error)
