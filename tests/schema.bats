#!/usr/bin/env bats
# docs/run.schema.json: every run.json analyze writes from the fixtures is
# valid, and a run.json with a field missing or of the wrong type is not.

load test_helper/common-setup

setup_file() {
	_common_setup
	schema_validator_keep
	[ -x "$BIN/analyze" ] || return 0 # setup reports it
	for dir in "$FIXTURES"/analyze/*/; do
		[ -f "$dir/conditions.txt" ] || continue
		name="$(basename "$dir")"
		cp -R "$dir" "$BATS_FILE_TMPDIR/$name"
		"$BIN/analyze" --run "$BATS_FILE_TMPDIR/$name" --quiet
	done
}

setup() {
	_common_setup
	[ -x "$BIN/analyze" ] || fail "$BIN/analyze is missing: run 'make micro/bin/analyze'"
	why=$(schema_skip_reason)
	[ -z "$why" ] || skip "$why"
	SCHEMA="$ROOT/docs/run.schema.json"
}

validate() {
	validate_run_json "$1"
}

# A fixture's run.json changed by a jq filter, in a scratch file.
mutated() {
	jq "$1" "$BATS_FILE_TMPDIR/verdicts/run.json" >"$BATS_TEST_TMPDIR/bad.json"
	printf '%s\n' "$BATS_TEST_TMPDIR/bad.json"
}

assert_invalid() {
	run validate "$1"
	[ "$status" -eq 3 ] || fail "want status 3 (invalid), got $status: $output"
}

@test "the schema is itself a valid JSON Schema" {
	run "$SCHEMA_PY" -c '
import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.validators.validator_for(s).check_schema(s)
print(s["$schema"])' "$SCHEMA"
	assert_success
	assert_output --regexp 'draft(/2020-12|-07)/schema'
}

@test "every fixture's run.json validates" {
	local f files=()
	for f in "$BATS_FILE_TMPDIR"/*/run.json; do files+=("$f"); done
	[ "${#files[@]}" -ge 7 ] || fail "only ${#files[@]} run.json files were made"
	# one validator for them all; a file that is not valid is named
	run validate_run_json "${files[@]}"
	[ "$status" -eq 0 ] || fail "$output"
	# each file counts: one made invalid fails them all, named
	jq '.cases[0].extra = 1' "${files[2]}" >"$BATS_TEST_TMPDIR/bad.json"
	run validate_run_json "${files[@]}" "$BATS_TEST_TMPDIR/bad.json"
	assert_equal "$status" 3
	assert_output --partial "$BATS_TEST_TMPDIR/bad.json: cases/0: "
}

@test "the gate block validates when present and as null" {
	run validate "$BATS_FILE_TMPDIR/scaling/run.json"
	assert_success
	[ "$(jq -r '.gate | type' "$BATS_FILE_TMPDIR/scaling/run.json")" = object ]
	[ "$(jq -r '.gate | type' "$BATS_FILE_TMPDIR/verdicts/run.json")" = null ]
}

@test "conditions may carry any key, as a string" {
	run validate "$(mutated '.conditions["new.key"] = "x"')"
	assert_success
}

@test "invalid: a case without its verdict" {
	assert_invalid "$(mutated 'del(.cases[0].verdict)')"
}

@test "invalid: a config without pairs" {
	assert_invalid "$(mutated 'del(.cases[0].configs[0].pairs)')"
}

@test "invalid: no thresholds" {
	assert_invalid "$(mutated 'del(.thresholds)')"
}

@test "invalid: a ratio that is a string" {
	assert_invalid "$(mutated '.cases[0].ratio = "6.86"')"
}

@test "invalid: a median that is a string" {
	assert_invalid "$(mutated '.cases[0].configs[0].first.median_ms = "24"')"
}

@test "invalid: a verdict outside the three" {
	assert_invalid "$(mutated '.cases[0].verdict = "maybe"')"
}

@test "invalid: a condition value that is a number" {
	assert_invalid "$(mutated '.conditions.os = 1')"
}

@test "invalid: an unknown field in a case" {
	assert_invalid "$(mutated '.cases[0].extra = 1')"
}

@test "invalid: an unknown cache key" {
	assert_invalid "$(mutated '.inferred.cache_key = "mtime"')"
}

@test "invalid: the wrong schema_version" {
	assert_invalid "$(mutated '.schema_version = 2')"
}

@test "without python's jsonschema, run.json is checked with check-jsonschema (exit 1 is 'invalid')" {
	local b="$BATS_TEST_TMPDIR/bin"
	mkdir -p "$b"
	# a python that has no jsonschema module, and a check-jsonschema that
	# records its arguments and answers $FAKE_CJS_RC
	printf '#!/bin/sh\nexit 1\n' >"$b/python3"
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s"\nexit "${FAKE_CJS_RC:-0}"\n' "$BATS_TEST_TMPDIR/args" >"$b/check-jsonschema"
	chmod +x "$b/python3" "$b/check-jsonschema"
	SCHEMA_PY="$b/python3"
	PATH="$b:$PATH"
	assert_equal "$(schema_validator)" check-jsonschema
	f="$BATS_FILE_TMPDIR/verdicts/run.json"
	FAKE_CJS_RC=0 run validate_run_json "$f"
	assert_equal "$status" 0
	FAKE_CJS_RC=1 run validate_run_json "$f"
	assert_equal "$status" 3
	FAKE_CJS_RC=2 run validate_run_json "$f"
	assert_equal "$status" 2
	assert_equal "$(head -n 1 "$BATS_TEST_TMPDIR/args")" "--schemafile $ROOT/docs/run.schema.json $f"
	rm "$b/check-jsonschema"
	assert_equal "$(schema_validator)" ""
	[[ "$(schema_skip_reason)" == *"brew install check-jsonschema"* ]]
}
