"""scripts/package/manpages.py: help text in, man pages out that man renders without a warning.

The help texts are the golden ones of Tests/OwnerDashCLITests/Snapshots (kept equal to the binary's by
SnapshotTests). With OWNERDASH_BINARY set (scripts/test.sh sets it to the build), every page of that binary is also
generated and rendered, so a command whose help the converter cannot read fails CI, not the next packaging.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import manpages  # noqa: E402

SNAPSHOTS = os.path.join(HERE, "..", "..", "..", "Tests", "OwnerDashCLITests", "Snapshots")


def snapshot(name):
    with open(os.path.join(SNAPSHOTS, name), encoding="utf-8") as f:
        return f.read()


def man_warnings(page_path):
    """What `man --warnings` says about a page (lintian's check), or None without man."""
    if not shutil.which("man"):
        return None
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80")
    result = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", page_path], capture_output=True, text=True,
                            env=env)
    return result.stderr.strip()


def rendered(page_path):
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="200")
    return subprocess.run(["man", "-l", page_path], capture_output=True, text=True, env=env, check=True).stdout


class ParseHelpTests(unittest.TestCase):
    def test_a_commands_help_splits_into_abstract_synopsis_discussion_and_options(self):
        abstract, synopsis, discussion, sections = manpages.parse_help(snapshot("ingest-help.txt"))
        self.assertEqual(abstract, "Fetch, load and sync the selected properties as one recorded run.")
        self.assertTrue(synopsis.startswith("ownerdash ingest [--property KEY ...]"))
        self.assertTrue(discussion[0].startswith("One run: fetch"))
        self.assertEqual([title for title, _ in sections], ["OPTIONS", "GLOBAL OPTIONS"])
        options = dict(sections)["OPTIONS"]
        self.assertIn(("--parallel N", "downloads at a time, 1-32 (default 4)"), options)
        # A label as wide as the column still parts from its help at two spaces.
        self.assertIn(("--trigger ingest|schedule", "recorded as the run's trigger (default: $OWNERDASH_TRIGGER, else ingest)"),
                      options)
        self.assertIn(("--help", "show this help"), dict(sections)["GLOBAL OPTIONS"])

    def test_the_overview_lists_one_and_two_word_commands_and_their_groups(self):
        commands, groups = manpages.command_words(snapshot("help.txt"))
        self.assertEqual(commands[0], ["ingest"])
        self.assertIn(["report", "lease-status"], commands)
        self.assertIn(["sheet", "dump"], commands)
        self.assertIn(["report"], groups)
        self.assertNotIn(["ingest"], groups)

    def test_help_in_another_shape_is_an_error_not_a_page_missing_part_of_it(self):
        with self.assertRaises(manpages.HelpShapeError):
            manpages.parse_help("Usage: ownerdash ingest\n")
        with self.assertRaises(manpages.HelpShapeError):
            manpages.parse_help("OVERVIEW: x.\n\nno usage line\n")
        with self.assertRaises(manpages.HelpShapeError):
            manpages.parse_help("OVERVIEW: x.\n\nUSAGE: ownerdash x\n\nARGUMENTS AND OPTIONS:\nnot indented\n")


class EscapeTests(unittest.TestCase):
    def test_roff_control_characters_are_made_literal(self):
        self.assertEqual(manpages.escape(".hidden"), "\\&.hidden")
        self.assertEqual(manpages.escape("'quote"), "\\&'quote")
        self.assertEqual(manpages.escape("a\\b"), "a\\eb")
        self.assertEqual(manpages.escape("--data-dir"), "\\-\\-data\\-dir")
        self.assertEqual(manpages.escape("OwnerDash \u2014 RealPage"), "OwnerDash \\[u2014] RealPage")
        self.assertEqual(manpages.escape("a|b"), "a|\\:b")


class PageTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.directory)

    def write(self, name, text):
        path = os.path.join(self.directory, name + ".1")
        with open(path, "w", encoding="ascii") as f:
            f.write(text)
        return path

    def test_a_command_page_renders_its_help_without_a_warning(self):
        page = self.write("ownerdash-ingest", manpages.command_page(["ingest"], snapshot("ingest-help.txt"), "0.1.0",
                                                                    "2026-01-02"))
        if man_warnings(page) is None:
            self.skipTest("man (man-db) is not installed")
        self.assertEqual(man_warnings(page), "")
        text = rendered(page)
        self.assertIn("ownerdash-ingest - Fetch, load and sync the selected properties as one recorded run", text)
        self.assertIn("--parallel N", text)
        self.assertIn("--notices-webhook URL", text)
        self.assertIn("ownerdash 0.1.0", text)

    def test_the_overview_page_points_to_every_commands_page(self):
        help_text = snapshot("help.txt")
        commands, groups = manpages.command_words(help_text)
        page = self.write("ownerdash", manpages.overview_page(help_text, groups + commands, "0.1.0", "2026-01-02"))
        if man_warnings(page) is None:
            self.skipTest("man (man-db) is not installed")
        self.assertEqual(man_warnings(page), "")
        text = rendered(page)
        for words in commands:
            self.assertIn(manpages.page_name(words) + "(1)", text)
        self.assertIn("/etc/ownerdash/report_definitions.json", text)

    @unittest.skipUnless(os.environ.get("OWNERDASH_BINARY"), "OWNERDASH_BINARY is not set (scripts/test.sh sets it)")
    def test_every_page_of_the_built_binary_renders_without_a_warning(self):
        binary = os.environ["OWNERDASH_BINARY"]
        manpages.main([binary, self.directory, "--date", "2026-01-02"])
        pages = sorted(os.listdir(self.directory))
        commands, groups = manpages.command_words(manpages.run_help(binary, []))
        self.assertEqual(len(pages), 1 + len(commands) + len(groups))
        for name in pages:
            warnings = man_warnings(os.path.join(self.directory, name))
            if warnings is None:
                self.skipTest("man (man-db) is not installed")
            self.assertEqual(warnings, "", name)


if __name__ == "__main__":
    unittest.main()
