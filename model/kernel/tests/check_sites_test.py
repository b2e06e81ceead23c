# SPDX-License-Identifier: GPL-2.0-only
"""Every check site of the kernel layer names a contract of the registry.

Scans the kernel layer's sources (and the harness's oracle) for the calls
that make reports (Bug, Warn, Record, DebugBug, Lint): each must pass a
Check:: value (or forward the `check` parameter of a helper); every Check
value has exactly one registry entry (contracts.cc) and at least one site.
"""
import os
import re
import sys
import unittest

ROOT = os.path.join(os.environ.get("TEST_SRCDIR", ""), "squashlab")
if not os.path.isdir(os.path.join(ROOT, "model")):
    ROOT = "."
SITE_DIRS = ["model/kernel", "model/kernel/checkers", "harness", "harness/verify", "harness/realfuzz"]
CALL = re.compile(r"\b(Bug|Warn|Record|DebugBug|Lint)\(\s*([^,()]*),")
# kernel.cc's old call shapes forward their `kind`; helpers their `check`.
FORWARDED = {"check", "kind"}


def sources():
    for d in SITE_DIRS:
        full = os.path.join(ROOT, d)
        for name in sorted(os.listdir(full)):
            if name.endswith((".cc", ".h")) and not name.startswith("contracts"):
                with open(os.path.join(full, name)) as f:
                    yield os.path.join(d, name), f.read()


def enumerators():
    with open(os.path.join(ROOT, "model/kernel/checkers/contracts.h")) as f:
        text = f.read()
    body = text[text.index("enum class Check"):]
    body = body[body.index("{") + 1:body.index("};")]
    body = re.sub(r"//[^\n]*", "", body)
    names = [n.strip().split("=")[0].strip() for n in body.split(",")]
    return [n for n in names if n and n not in ("kCount", "kUnattributed")]


class CheckSitesTest(unittest.TestCase):
    def test_every_site_names_a_contract(self):
        bad = []
        for path, text in sources():
            for m in CALL.finditer(text):
                arg = m.group(2).strip()
                if re.fullmatch(r"(Check|ReportKind) \w+", arg):
                    continue  # a declaration
                if arg.startswith("Check::k") or arg in FORWARDED:
                    continue
                line = text.count("\n", 0, m.start()) + 1
                bad.append(f"{path}:{line}: {m.group(1)}({arg}, ...)")
        self.assertEqual(bad, [], "check sites without a contract")

    def test_every_contract_has_one_entry_and_a_site(self):
        with open(os.path.join(ROOT, "model/kernel/checkers/contracts.cc")) as f:
            table = f.read()
        used = set()
        for _, text in sources():
            used |= set(re.findall(r"Check::(k\w+)", text))
        for name in enumerators():
            self.assertEqual(table.count("{C::" + name + ","), 1,
                             name + ": registry entries")
            self.assertIn(name, used, name + ": no check site uses it")


if __name__ == "__main__":
    sys.exit(unittest.main())
