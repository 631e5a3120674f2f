"""record_churn.py: the records of a whole-state answer the night before held byte for byte are counted unchanged."""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import unittest
import zlib

SCRIPT = os.path.join(os.path.dirname(__file__), "..", "record_churn.py")


def lease_list(*leases: str) -> bytes:
    """A getleaseinfo answer as RPX shapes it, one `Lease` element per lease."""
    return ("<GetLeaseInfo><Leases>" + "".join(leases) + "</Leases></GetLeaseInfo>").encode()


def lease(lease_id: int, rent: str) -> str:
    return f'<Lease type="x"><LeaseID>{lease_id}</LeaseID><Rent>{rent}</Rent></Lease>'


class RecordChurnTests(unittest.TestCase):
    def land(self, data: pathlib.Path, run: str, answers: dict[str, bytes], compress: bool) -> None:
        """Lands `answers` (path as fetched -> bytes) as run `run`, as raw-DEFLATE objects when `compress`."""
        objects = data / "landing" / "objects"
        objects.mkdir(parents=True, exist_ok=True)
        artifacts = []
        for index, (path, content) in enumerate(answers.items()):
            name = f"{run}-{index}.xml" + (".z" if compress else "")
            if compress:
                deflater = zlib.compressobj(3, zlib.DEFLATED, -15)
                content = deflater.compress(content) + deflater.flush()
            (objects / name).write_bytes(content)
            artifacts.append({"path": path, "object": f"objects/{name}"})
        (data / "landing" / run).mkdir(parents=True)
        (data / "landing" / run / "manifest.json").write_text(json.dumps({"artifacts": artifacts}))

    def run_script(self, *arguments: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, SCRIPT, *arguments], capture_output=True, text=True)

    def test_counts_the_records_the_night_before_held(self):
        with tempfile.TemporaryDirectory() as directory:
            data = pathlib.Path(directory)
            self.land(data, "20261129T023000Z-aaaa", {
                "realpage/kalaco/getleaseinfo.xml": lease_list(lease(1, "1200.00"), lease(2, "1300.00"), lease(3, "900.00")),
                "realpage/luna/getleaseinfo.xml": lease_list(lease(7, "800.00")),
            }, compress=True)
            self.land(data, "20261130T023000Z-bbbb", {
                # Lease 2's rent changed, lease 4 is new, lease 3 is gone: 1 of 3 unchanged.
                "realpage/kalaco/getleaseinfo.xml": lease_list(lease(1, "1200.00"), lease(2, "1350.00"), lease(4, "950.00")),
                # The same lease, but another property's answer did not hold it: only its own night before counts.
                "realpage/luna/getleaseinfo.xml": lease_list(lease(7, "800.00"), lease(1, "1200.00")),
            }, compress=False)
            result = self.run_script(directory, "20261129", "20261130")
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertRegex(result.stdout, r"getleaseinfo\.xml\s+5 records,\s+2 unchanged \(40\.0 %")

    def test_a_run_not_landed_is_named(self):
        with tempfile.TemporaryDirectory() as directory:
            result = self.run_script(directory, "20261129", "20261130")
            self.assertEqual(result.returncode, 2)
            self.assertIn("no run '20261129'", result.stderr)


if __name__ == "__main__":
    unittest.main()
