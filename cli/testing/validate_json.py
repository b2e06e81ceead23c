#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""This file checks JSON outputs against their JSON Schema.

usage: validate_json.py SCHEMA DOC...

Each DOC must validate; and, so that a schema that accepts anything cannot
pass, a copy of each DOC with one required property removed must not.
Exits 1 on the first problem.
"""
import copy
import json
import sys

import jsonschema


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    for path in argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        for e in errors[:10]:
            print("%s: %s: %s" % (path, "/".join(map(str, e.path)) or "(top)", e.message))
        if errors:
            return 1
        for key in schema.get("required", []):
            broken = copy.deepcopy(doc)
            del broken[key]
            if validator.is_valid(broken):
                print("%s: the schema accepts the document without '%s'" % (path, key))
                return 1
        print("%s: valid against %s" % (path, argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
