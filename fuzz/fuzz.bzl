# SPDX-License-Identifier: GPL-2.0-only
"""squashlab_fuzz_target: one fuzz target, three ways to build and run it.

- `bazel build --config=fuzz //fuzz:NAME`: a libFuzzer binary (the fuzz
  config sets --define=squashlab_fuzz=1, which links -fsanitize=fuzzer);
- `bazel build //fuzz:NAME`: the same source linked with regression_main.cc,
  a plain runner over corpus files and directories;
- `bazel test //fuzz:NAME_corpus_test`: runs the target over its seed corpus
  and the committed regression corpus (tagged "hardening", so test.sh runs it
  again under --config=asan); under --config=fuzz (test.sh runs that too)
  libFuzzer also loads the dictionary and makes `mutations` mutated runs
  from that corpus (run_corpus.sh). `corpus_test = False` for a target whose
  inputs are expected to crash (schedule_async2013_fuzzer: a known-buggy
  variant); such a target needs its own test that its findings persist.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary")
load("//tools/build:copts.bzl", "SQUASHLAB_COPTS")

# Mutated runs of a corpus test's libFuzzer pass: a few seconds for most
# targets under ASan+UBSan; the slow ones ask for fewer (`mutations`).
MUTATIONS = 2000

def squashlab_fuzz_target(
        name,
        srcs,
        deps,
        seed_corpus,
        dictionary,
        local_defines = [],
        corpus_test = True,
        mutations = MUTATIONS,
        fuzzer_flags = []):
    cc_binary(
        name = name,
        srcs = srcs,
        copts = SQUASHLAB_COPTS,
        local_defines = local_defines,
        deps = deps + [":fuzz_input"] + select({
            ":fuzzing": [],
            "//conditions:default": [":regression_main"],
        }),
        linkopts = select({
            # Bazel links with the C driver: ask for UBSan's C++ part (vptr).
            ":fuzzing": ["-fsanitize=fuzzer", "-fsanitize-link-c++-runtime"],
            "//conditions:default": [],
        }),
    )
    if not corpus_test:
        return
    native.sh_test(
        name = name + "_corpus_test",
        size = "medium",
        srcs = ["run_corpus.sh"],
        args = [
            "--dict=$(rootpath %s)" % dictionary,
            "--mutations=%d" % mutations,
        ] + ["--flag=" + f for f in fuzzer_flags] + [
            "$(rootpath :%s)" % name,
            "$(rootpath %s)" % seed_corpus,
            "fuzz/regression",
        ],
        data = [":" + name, seed_corpus, dictionary, ":regression_corpus"],
        tags = ["hardening"],
    )
