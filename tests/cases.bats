#!/usr/bin/env bats
# A case is one file (issue 25, item 4): cases/X.case says how it is made
# (kind, one of mkfresh's), where it runs (platforms), its place in the
# order shown (order=), what each platform expects (expect_macos,
# expect_linux) and whether hyperfine cross-checks it; the order analyze and
# aggregate show is generated from the files at build time
# (scripts/tool/casegen into micro/bin/gen/cases_gen.h; docs/formats.md,
# "Case files").  No case is added to the kit: one is added to a copy.

load test_helper/common-setup
load test_helper/quickrun

setup_file() {
	_common_setup
	twin_kit
}

setup() {
	_common_setup
	_run_folders_setup
	K="$BATS_FILE_TMPDIR/kit"
	. "$ROOT/scripts/lib/cases"
}

# case_values: each case file's name, kind, order=, expect_macos and
# expect_linux as the first test wants them, by case_val; the cases that
# hyperfine cross-checks added to hf (the caller's)
case_values() {
	local f c
	for f in "$ROOT"/cases/*.case; do
		c=${f##*/}
		c=${c%.case}
		case_val "$ROOT/cases" "$c" name
		assert_equal "$_cv" "$c"
		case_val "$ROOT/cases" "$c" kind
		[ -n "$_cv" ] || fail "$c: no kind"
		case_val "$ROOT/cases" "$c" order
		case $_cv in [1-9]*) ;; *) fail "$c: no order=" ;; esac
		case_val "$ROOT/cases" "$c" expect_macos
		case $_cv in penalty | none | small | killed | unknown) ;; *) fail "$c: expect_macos '$_cv'" ;; esac
		case_val "$ROOT/cases" "$c" expect_linux
		assert_equal "$_cv" none
		# hyperfine cross-checks the cases whose file says so
		case_val "$ROOT/cases" "$c" hyperfine
		[ "$_cv" != yes ] || hf="$hf$c "
	done
}

@test "case files: name, kind, order, expectations; casegen's refusals; feedback.txt told from the kind" {
	# (was: "every case file has its name, a kind, its own order= and what macOS and Linux expect")
	local hf=""
	# each value by the case files' one reader, in this shell (case_val
	# sets _cv: no $( ) a value, each a fork of bats' bash), without bats'
	# trap (case_val's loop over each file's lines, some 2,500 commands)
	kit_untraced case_values
	# each with a comment naming docs/formats.md (one grep: the files without)
	assert_equal "$(grep -L '^# .*docs/formats.md' "$ROOT"/cases/*.case)" ""
	# the order the kit has always shown, now from the files
	run_both -0 sh "$ROOT/scripts/tool/casegen" --list "$ROOT/cases"
	local words=($output) # (the words, as $(echo $output) gave them)
	assert_equal "${words[*]}" "script script-via-sh exe exe-copy exe-clone exe-hardlink exe-freshlink exe-rewrite exe-overwrite exe-samebytes exe-touch exe-assessed system-copy dylib quarantined suite"
	# the built table is the generated one, and git ignores it
	make -C "$ROOT" -s micro/bin/gen/cases_gen.h
	run_both -0 sh "$ROOT/scripts/tool/casegen" "$ROOT/cases"
	local gen=""
	IFS= read -r -d '' gen <"$ROOT/micro/bin/gen/cases_gen.h" || :
	while [ "${gen%$'\n'}" != "$gen" ]; do gen=${gen%$'\n'}; done # (as $(cat) gave it)
	assert_equal "$output" "$gen"
	if command -v git >/dev/null && git -C "$ROOT" rev-parse 2>/dev/null; then
		git -C "$ROOT" check-ignore -q micro/bin/gen/cases_gen.h
	fi
	assert_equal "$hf" "exe script "
	# (was: "casegen refuses a case file with no order, an order taken twice or a name not its file's")
	local c="$D/cases"
	bad() { # bad WHAT: casegen on $c fails with one line naming WHAT
		run_sep sh "$ROOT/scripts/tool/casegen" "$c"
		assert_equal "$status" 2
		assert_equal "${#stderr_lines[@]}" 1
		[[ "$stderr" == *"$1"* ]] || fail "stderr: $stderr"
		kit_untraced assert_output ""
	}
	cp -R "$ROOT/cases" "$c"
	sed -i.bak '/^order=/d' "$c/exe.case"
	bad "exe.case: order= is not a whole number"
	cp "$ROOT/cases/exe.case" "$c/exe.case"
	sed 's/^name=exe$/name=exe-two/' "$ROOT/cases/exe.case" >"$c/exe-two.case"
	bad "two cases at one place in the order, order=30: exe"
	sed 's/^order=30$/order=31/' "$ROOT/cases/exe.case" >"$c/exe-two.case"
	bad "name=exe is not the file's name, exe-two"
	printf 'name=exe-two\norder=31\n' >"$c/exe-two.case"
	bad "exe-two.case: no kind="
	rm -f "$c"/*.bak "$c/exe-two.case"
	run_both -0 sh "$ROOT/scripts/tool/casegen" "$c"
	# (was: "feedback.txt says what a new case's artifacts are from its kind, not its name")
	# online's exe case renamed exe-twin (kind exe stays): fbtext, which reads
	# only run.json, says of it what it says of exe
	local r="$BATS_TEST_TMPDIR/twin"
	mkdir -p "$r"
	sed 's/"name": *"exe"/"name": "exe-twin"/' "$FIXTURES/compare/online/run.json" >"$r/run.json"
	grep -q '"exe-twin"' "$r/run.json" || fail "the fixture's exe case was not renamed"
	run_both -0 "$BIN/fbtext" --run "$r"
	kit_untraced assert_output --partial "exe-twin (a new executable built with cc, unique bytes each"
	kit_untraced refute_output --partial "a case of the kit"
}


# twin_kit: K, a copy of the kit (its programs with their times, so only
# what the case order touches is rebuilt) with one case file added,
# exe-twin (kind exe, order 25), nothing else edited.  Made once, for the
# file's tests (setup_file): they only read it.
twin_kit() {
	local K="$BATS_FILE_TMPDIR/kit"
	mkdir -p "$K"
	cp -Rp "$ROOT/Makefile" "$ROOT"/*.mk "$ROOT/micro" "$ROOT/scripts" "$ROOT/checks" "$ROOT/cases" "$K/"
	[ ! -d "$ROOT/.cache" ] || ln -s "$ROOT/.cache" "$K/.cache"
	cat >"$K/cases/exe-twin.case" <<'EOF'
# A case is this one file (docs/formats.md, "Case files").
name=exe-twin
kind=exe
order=25
platforms=any
expect_macos=penalty
expect_linux=none
hypothesis=A second freshly compiled executable is assessed on its first launch like the first.
count_quick=20
count_full=40
EOF
	make -C "$K" -s micro/bin/analyze micro/bin/aggregate
	grep -q '"exe-twin"' "$K/micro/bin/gen/cases_gen.h"
}

# run_json VAR: the one RESULTS/*/run.json (ls's), else fail
run_json() {
	local _j=("$RESULTS"/*/run.json)
	[ "${#_j[@]}" = 1 ] && [ -e "${_j[0]}" ] || fail "not one run.json in $RESULTS: ${_j[*]}"
	printf -v "$1" '%s' "${_j[0]}"
}

@test "a new case is one file: exe-twin runs end to end in its place; the cache key inferred without exe" {
	# (was: "a new case is one file: exe-twin, kind exe, order 25, runs end to end in its place")
	local j out
	LAUNCHER='sim:latency=150 workers=1 key=inode seed=7' run_both -0 sh "$K/scripts/repro" --cases exe-twin,exe --threads 1
	out=$output
	# (the run's one run.json, by the shell's glob: no ls)
	run_json j
	# order=25 puts it before exe (30); by name it would follow exe
	# (the three answers from one jq, a line each)
	local names kv v1 words
	{ read -r names && read -r kv && read -r v1; } < <(jq -r '([.cases[] | .name] | join(",")), (.cases[0] | [.kind, .verdict] | join(" ")), .cases[1].verdict' "$j")
	assert_equal "$names" "exe-twin,exe"
	assert_equal "$kv" "exe slowdown"
	assert_equal "$v1" slowdown
	# the terminal table: a row for it, above exe's
	assert_equal "$(printf '%s\n' "$out" | awk '$2 == 1 && $3 == "all" { printf "%s %s,", $1, $NF }')" "exe-twin slowdown,exe slowdown,"
	# make check's reader and its exercise 2 (every case's verdict) see it
	run_both -0 "$K/micro/bin/runfield" --run "$j" 'cases/*/name'
	words=($output) # (the words, as $(echo $output) gave them)
	assert_equal "${words[*]}" "exe-twin exe"
	run_both -0 sh "$K/scripts/check" --run "${j%/*}" --exercise 2
	kit_untraced assert_line --regexp '^ +exe-twin: penalty 150\.[0-9]+ ms .*, slowdown$'
	# aggregate's columns in the same order
	run_both -0 "$K/micro/bin/aggregate" --dir "$RESULTS" --out "$D/agg"
	kit_untraced assert_output --partial '| condition | exe-twin | exe | key |'
	# the kit itself, without the file, knows no exe-twin: an unknown case
	# follows the known ones, by name
	cp -R "${j%/*}" "$D/run"
	run_both -0 "$BIN/analyze" --run "$D/run"
	assert_equal "$(jq -r '[.cases[] | .name] | join(",")' "$D/run/run.json")" "exe,exe-twin"
	# (was: "the cache key is inferred with a new case of kind exe where no case is named exe")
	# (a results folder of its own: the run above is in RESULTS)
	RESULTS="$D/results-key"
	mkdir -p "$RESULTS"
	LAUNCHER='sim:latency=150 workers=1 key=inode seed=7' run_both -0 sh "$K/scripts/repro" \
		--cases exe-twin,exe-hardlink,exe-copy,exe-rewrite --threads 1
	# (the run's one run.json, by the shell's glob: no ls)
	run_json j
	assert_equal "$(jq -r '.inferred.cache_key' "$j")" inode
}


