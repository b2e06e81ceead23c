# SPDX-License-Identifier: GPL-2.0-only
"""Tests of check_layers.py on small planted trees: each forbidden include
is reported, each allowed one is not."""
import os
import tempfile
import unittest

import check_layers


def tree(files):
    root = tempfile.mkdtemp()
    for path, text in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(text)
    return root


class CheckLayersTest(unittest.TestCase):
    def test_variant_including_an_executor_is_reported(self):
        root = tree({"model/variants/v.cc": '#include "model/sched/explore_executor.h"\n'})
        self.assertEqual(len(check_layers.violations(root)), 1)

    def test_variant_including_the_kernel_api_is_fine(self):
        root = tree({"model/variants/v.cc": '#include "model/kernel/page.h"\n#include "reader/image.h"\n'})
        self.assertEqual(check_layers.violations(root), [])

    def test_mm_including_a_variant_is_reported(self):
        root = tree({"model/mm/readahead.cc": '#include "model/variants/read_path.h"\n'})
        self.assertEqual(len(check_layers.violations(root)), 1)

    def test_scheduler_including_the_kernel_is_reported(self):
        root = tree({"model/sched/explorer.cc": '#include "model/kernel/kernel.h"\n'})
        self.assertEqual(len(check_layers.violations(root)), 1)

    def test_kernel_sees_only_the_scheduler_api(self):
        root = tree({"model/kernel/kernel.h": '#include "model/sched/executor.h"\n',
                     "model/kernel/page.cc": '#include "model/sched/explorer.h"\n'})
        found = check_layers.violations(root)
        self.assertEqual(len(found), 1)
        self.assertIn("page.cc", found[0])

    def test_kernel_internals_stay_in_the_kernel_layer(self):
        root = tree({"model/kernel/page.cc": '#include "model/kernel/kernel_internal.h"\n',
                     "hw_emul/dev.cc": '#include "model/kernel/kernel_internal.h"\n',
                     "model/kernel/tests/a_test.cc": '#include "model/kernel/kernel_internal.h"\n',
                     "harness/x_test.cc": '#include "model/kernel/kernel_internal.h"\n'})
        self.assertEqual(len(check_layers.violations(root)), 2)

    def test_reader_sees_nothing_of_the_model(self):
        root = tree({"reader/image.cc": '#include "model/base/report.h"\n'})
        self.assertEqual(len(check_layers.violations(root)), 1)

    def test_the_command_line_sees_only_the_harness_and_the_reader(self):
        root = tree({"cli/cmd_a.cc": '#include "model/kernel/kernel.h"\n',
                     "cli/cmd_b.cc": '#include "hw_emul/profile.h"\n',
                     "cli/cmd_c.cc": '#include "model/sched/schedule_trace.h"\n',
                     "cli/cmd_d.cc": '#include "harness/verify/verify.h"\n#include "reader/image.h"\n'})
        found = check_layers.violations(root)
        self.assertEqual(len(found), 3)
        self.assertFalse(any("cmd_d.cc" in f for f in found))

    def test_the_top_floor_sees_only_the_harness_and_the_reader(self):
        model = ['model/kernel/kernel.h', 'model/sched/explorer.h', 'model/base/rng.h',
                 'model/variants/read_path.h', 'model/mm/file_read.h', 'hw_emul/profile.h',
                 'model/linux/source_build.h']
        files = {}
        for floor in ("bench/sim", "proptests", "fuzz", "cli"):
            for i, inc in enumerate(model):
                files[f"{floor}/lib_{i}.cc"] = f'#include "{inc}"\n'
            files[f"{floor}/ok.cc"] = '#include "harness/scenario_builder.h"\n#include "reader/image.h"\n'
        found = check_layers.violations(tree(files))
        self.assertEqual(len(found), 4 * len(model))
        self.assertFalse(any("ok.cc" in f for f in found))

    def test_the_top_floor_has_no_test_exemption(self):
        root = tree({"bench/sim/rt_test.cc": '#include "model/kernel/mutex.h"\n',
                     "proptests/p_proptest.cc": '#include "model/kernel/page.h"\n',
                     "fuzz/x_main.cc": '#include "model/linux/source_build.h"\n',
                     "bench/sim/b_bench.cc": '#include "hw_emul/block_device.h"\n',
                     "cli/testing/t_test.cc": '#include "model/sched/explorer.h"\n',
                     "harness/h_test.cc": '#include "model/sched/explorer.h"\n'})
        found = check_layers.violations(root)
        self.assertEqual(len(found), 5)
        self.assertFalse(any("harness/" in f for f in found))

    def test_tests_may_cross_layers(self):
        root = tree({"model/kernel/tests/a_test.cc": '#include "model/sched/explorer.h"\n'})
        self.assertEqual(check_layers.violations(root), [])


if __name__ == "__main__":
    unittest.main()
