# Validate a run.json against docs/run.schema.json.
# usage: python3 validate-run.py SCHEMA RUN.JSON
# Exit 0 valid, 3 invalid (first errors on stdout); anything else is a
# broken check, not a verdict on the file.
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
errors = sorted(cls(schema).iter_errors(json.load(open(sys.argv[2]))), key=str)
for e in errors[:3]:
    print("/".join(map(str, e.absolute_path)) + ": " + e.message)
sys.exit(3 if errors else 0)
