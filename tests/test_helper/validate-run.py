# Validate run.json files against docs/run.schema.json.
# usage: python3 validate-run.py SCHEMA RUN.JSON...
# Exit 0 every file valid, 3 one is invalid (its first errors on stdout,
# each line after the file's name when there are several); anything else is
# a broken check, not a verdict on a file.
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
files = sys.argv[2:]
bad = False
for f in files:
    errors = sorted(cls(schema).iter_errors(json.load(open(f))), key=str)
    for e in errors[:3]:
        where = "/".join(map(str, e.absolute_path)) + ": " + e.message
        print(f + ": " + where if len(files) > 1 else where)
    bad = bad or bool(errors)
sys.exit(3 if bad else 0)
