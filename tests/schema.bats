#!/usr/bin/env bats
# docs/run.schema.json: every run.json analyze writes from the fixtures is
# valid, and a run.json with a field missing or of the wrong type is not.

load test_helper/common-setup

# The changed run.json files the tests below validate, one a line: NAME, a
# tab, and the jq filter that makes it of the verdicts fixture's run.json.
MUTATIONS='any-key	.conditions["new.key"] = "x"
no-verdict	del(.cases[0].verdict)
no-pairs	del(.cases[0].configs[0].pairs)
no-thresholds	del(.thresholds)
ratio-string	.cases[0].ratio = "6.86"
median-string	.cases[0].configs[0].first.median_ms = "24"
verdict-maybe	.cases[0].verdict = "maybe"
os-number	.conditions.os = 1
case-extra	.cases[0].extra = 1
key-mtime	.inferred.cache_key = "mtime"
version-2	.schema_version = 2'

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
	[ -z "$(schema_skip_reason)" ] || return 0 # setup skips
	# every mutation by one jq, a document a line, each into its file
	local F="$BATS_FILE_TMPDIR" prog="" filter names=() i=0 doc rc=0
	mkdir "$F/mutated"
	while IFS='	' read -r name filter; do
		names+=("$name")
		prog="$prog($filter), "
	done <<<"$MUTATIONS"
	jq -c "${prog}empty" "$F/verdicts/run.json" >"$F/mutated.lines"
	while IFS= read -r doc; do
		printf '%s\n' "$doc" >"$F/mutated/${names[i]}.json"
		i=$((i + 1))
	done <"$F/mutated.lines"
	[ "$i" = "${#names[@]}" ] || { echo "jq made $i of ${#names[@]} mutations" >&2; return 1; }
	# python's validator (validate-run.py) checks them all at once, with
	# every fixture's run.json (a python start and its import of jsonschema
	# is a third of a second): a file is invalid where its name starts a
	# line of errors (validate-run.py, for more than one file)
	if [ "$(schema_validator)" = python ]; then
		validate_run_json "$F"/*/run.json "$F"/mutated/*.json >"$F/validated.out" || rc=$?
		echo "$rc" >"$F/validated.status"
	fi
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

# validated FILE: status and output as "run validate FILE" sets them: from
# setup_file's one validation of every file where python made it (status
# 3 where its errors name FILE, else 0; output all of them), else by
# validating FILE alone
validated() {
	local out=""
	if [ -f "$BATS_FILE_TMPDIR/validated.status" ]; then
		IFS= read -r -d '' out <"$BATS_FILE_TMPDIR/validated.out" || :
		case $'\n'$out in
		*$'\n'"$1: "*) status=3 ;;
		*) status=0 ;;
		esac
		output=$out
	else
		run validate "$1"
	fi
}

# assert_invalid NAME: the file setup_file made of the verdicts fixture's
# run.json with MUTATIONS' filter NAME is invalid
assert_invalid() {
	validated "$BATS_FILE_TMPDIR/mutated/$1.json"
	[ "$status" -eq 3 ] || fail "want status 3 (invalid), got $status: $output"
}

@test "valid: the schema is a JSON Schema; every fixture's run.json; the gate block or null; any condition" {
	# (was: "the schema is itself a valid JSON Schema")
	if [ -f "$BATS_FILE_TMPDIR/validated.status" ]; then
		# setup_file's validator checked the schema against its metaschema
		# before any file (validate-run.py: check_schema, which raises, a
		# status 1, on a schema that is not one; 3 is "a file is invalid",
		# the mutations'), so no python of its own: its draft read by jq
		assert_equal "$(cat "$BATS_FILE_TMPDIR/validated.status")" 3
		[[ "$(jq -r '."$schema"' "$SCHEMA")" =~ draft(/2020-12|-07)/schema ]] || fail "\$schema: $(jq -r '."$schema"' "$SCHEMA")"
	else
		run "$SCHEMA_PY" -c '
import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.validators.validator_for(s).check_schema(s)
print(s["$schema"])' "$SCHEMA"
		assert_success
		kit_untraced assert_output --regexp 'draft(/2020-12|-07)/schema'
	fi
	# (was: "every fixture's run.json validates")
	local f files=()
	for f in "$BATS_FILE_TMPDIR"/*/run.json; do files+=("$f"); done
	[ "${#files[@]}" -ge 7 ] || fail "only ${#files[@]} run.json files were made"
	if [ -f "$BATS_FILE_TMPDIR/validated.status" ]; then
		# setup_file's one validator for them all and the mutations: no
		# fixture's file is named, and each file counts: one made invalid
		# (an unknown field in a case) fails them all, named
		for f in "${files[@]}"; do
			validated "$f"
			[ "$status" -eq 0 ] || fail "$output"
		done
		assert_equal "$(cat "$BATS_FILE_TMPDIR/validated.status")" 3
		validated "$BATS_FILE_TMPDIR/mutated/case-extra.json"
		kit_untraced assert_output --partial "$BATS_FILE_TMPDIR/mutated/case-extra.json: cases/0: "
	else
		# one validator for them all; a file that is not valid is named
		run validate_run_json "${files[@]}"
		[ "$status" -eq 0 ] || fail "$output"
		# each file counts: one made invalid fails them all, named
		jq '.cases[0].extra = 1' "${files[2]}" >"$BATS_TEST_TMPDIR/bad.json"
		run validate_run_json "${files[@]}" "$BATS_TEST_TMPDIR/bad.json"
		assert_equal "$status" 3
		kit_untraced assert_output --partial "$BATS_TEST_TMPDIR/bad.json: cases/0: "
	fi
	# (was: "the gate block validates when present and as null")
	validated "$BATS_FILE_TMPDIR/scaling/run.json"
	assert_equal "$status" 0
	assert_equal "$(jq -r '.gate | type' "$BATS_FILE_TMPDIR/scaling/run.json" "$BATS_FILE_TMPDIR/verdicts/run.json")" "object
null"
	# (was: "conditions may carry any key, as a string")
	validated "$BATS_FILE_TMPDIR/mutated/any-key.json"
	assert_equal "$status" 0
}

@test "invalid: no verdict, pairs, thresholds; string ratio, median, os; a bad verdict, field, key, version" {
	# (was: "invalid: a case without its verdict")
	assert_invalid no-verdict
	# (was: "invalid: a config without pairs")
	assert_invalid no-pairs
	# (was: "invalid: no thresholds")
	assert_invalid no-thresholds
	# (was: "invalid: a ratio that is a string")
	assert_invalid ratio-string
	# (was: "invalid: a median that is a string")
	assert_invalid median-string
	# (was: "invalid: a verdict outside the three")
	assert_invalid verdict-maybe
	# (was: "invalid: a condition value that is a number")
	assert_invalid os-number
	# (was: "invalid: an unknown field in a case")
	assert_invalid case-extra
	# (was: "invalid: an unknown cache key")
	assert_invalid key-mtime
	# (was: "invalid: the wrong schema_version")
	assert_invalid version-2
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
	# (its first line, by the shell's read: no head)
	local first=""
	IFS= read -r first <"$BATS_TEST_TMPDIR/args" || true
	assert_equal "$first" "--schemafile $ROOT/docs/run.schema.json $f"
	rm "$b/check-jsonschema"
	assert_equal "$(schema_validator)" ""
	[[ "$(schema_skip_reason)" == *"brew install check-jsonschema"* ]]
}
