#!/usr/bin/env bats
# make aggregate / micro/aggregate: many runs' run.json into one table
# (Markdown and CSV) and one summary plot; bad files are skipped with a
# warning, never a crash.  Fixtures: tests/fixtures/aggregate/ (README.md).

load test_helper/common-setup
load test_helper/quickrun

setup_file() {
	# the python3 PATH gives, by its own path: a version manager's shim
	# (pyenv) is a dozen processes a call
	AGG_PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || AGG_PY=""
	[ -x "$AGG_PY" ] || AGG_PY=python3
	export AGG_PY
}

setup() {
	_common_setup
	[ -x "$BIN/aggregate" ] || fail "$BIN/aggregate is missing: run 'make micro/bin/aggregate'"
	AGG="$FIXTURES/aggregate"
	OUT="$BATS_TEST_TMPDIR/aggregate"
}

# A scratch folder of runs: copies of fixture runs NAME…, and nothing else
# (a test may make one more than once).  A fixture run's folder holds its
# run.json alone: one cp -R copies them all (a process, not two a run)
scratch() {
	local n srcs=()
	D="$BATS_TEST_TMPDIR/runs"
	[ ! -e "$D" ] || rm -rf "$D"
	mkdir -p "$D"
	for n in "$@"; do srcs+=("$AGG/$n"); done
	cp -R "${srcs[@]}" "$D/"
}

# table_rows: rows, how many of $lines (run_sep's) are a table's run rows,
# "| " and a digit first (what grep -c '^| [0-9]' of the output counted,
# without its three processes); called by kit_untraced (no trace a line)
table_rows() {
	local l
	rows=0
	for l in "${lines[@]}"; do
		if [[ $l == '| '[0-9]* ]]; then rows=$((rows + 1)); fi
	done
}

# svg_attr FILE PATTERN ATTR: ATTR of every element line matching PATTERN
svg_attr() { grep -E "$2" "$1" | sed -n "s/.* $3=\"\([^\"]*\)\".*/\1/p"; }

# A finished run as repro leaves it: run.json, report.md, raw/.
run_folder() {
	R="$BATS_TEST_TMPDIR/results/20250301T120000Z-c0ffee"
	mkdir -p "$R/raw"
	cp "$AGG/linux-control/run.json" "$R/run.json"
	printf '# the run'"'"'s own report\n' >"$R/report.md"
	printf 'sample\n' >"$R/raw/x.csv"
}

# (one make aggregate for the golden files and the warnings: two tests ran
# the same command before)
@test "make aggregate on the fixtures: golden table, files, warnings; a .partial passed over; depth; cells" {
	# (was: "make aggregate on the fixtures: the golden table and files, one warning a bad file, and on")
	# make aggregate on the fixture runs prints the expected table (golden), writes the same files, warns once about each bad file and goes on
	run_sep make -C "$ROOT" -s --no-print-directory aggregate DIR=tests/fixtures/aggregate OUT="$OUT"
	assert_success
	diff -u "$AGG/golden/aggregate.md" <(printf '%s\n' "$output")
	diff -u "$AGG/golden/aggregate.md" "$OUT.md"
	diff -u "$AGG/golden/aggregate.csv" "$OUT.csv"
	[ -s "$OUT.svg" ]
	[ -z "$(find "$BATS_TEST_TMPDIR" -name '*.tmp.*')" ] || fail "temporary files left"
	# the warnings: each bad file once, naming it and why
	[ "${#stderr_lines[@]}" -eq 2 ] || fail "stderr: $stderr"
	[[ "${stderr_lines[0]}" == "aggregate: warning: tests/fixtures/aggregate/bad-corrupt/run.json: not valid JSON (line "*"; skipped" ]] ||
		fail "${stderr_lines[0]}"
	assert_equal "${stderr_lines[1]}" "aggregate: warning: tests/fixtures/aggregate/bad-v2/run.json: schema_version 2 is not the version this kit reads (1); use the kit that wrote it; skipped"
	kit_untraced assert_output --partial "2 files were skipped"
	kit_untraced table_rows
	assert_equal "$rows" $((2 * 6))
	# (was: "a run still being made (a hidden .partial folder) is passed over, without a warning")
	[ -f "$AGG/.20250301T130000Z-777777.partial/run.json" ]
	run_sep "$BIN/aggregate" --dir "$AGG" --out "$OUT"
	assert_success
	kit_untraced refute_output --partial "777777"
	[[ "$stderr" != *partial* ]] || fail "$stderr"
	# (was: "runs are found at any depth, rows in path order")
	run_both "$BIN/aggregate" --dir "$AGG" --out "$OUT" --quiet
	assert_success
	# lab/room2/mac-m2 is two folders down, and first by path
	assert_equal "$(sed -n 2p "$OUT.csv" | cut -d, -f1,2)" "1,20250301T110000Z-abcdef"
	# (was: "each case cell holds the penalty, its interval, the verdict and the serialisation")
	run_both "$BIN/aggregate" --dir "$AGG" --out "$OUT"
	assert_success
	kit_untraced assert_output --partial "| 150.00 [130.01, 169.99] slowdown, serialised |"
	kit_untraced assert_output --partial "| 20.00 [17.34, 22.66] slowdown |"
	kit_untraced assert_output --partial "| not run |"
	kit_untraced assert_output --partial "| 20 ms, 1 worker, key inode |"
	kit_untraced assert_output --partial "| SIP enabled, assessments enabled, Developer Tools denied, online (VPN) |"
	kit_untraced assert_output --partial "| Apple M1 Pro | MacBookPro18,1 | macOS 14.4.1 | 10 (8P+2E) |"
}

@test "the CSV's shape; no host or user names; without --out the files go into DIR; a second run reads none" {
	# (was: "the CSV is one header and one line per run, every line as wide as the header")
	run_both "$BIN/aggregate" --dir "$AGG" --out "$OUT" --quiet
	assert_success
	run_both "$AGG_PY" -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
widths = {len(r) for r in rows}
print(len(rows) - 1, widths.pop() if len(widths) == 1 else "ragged")
print(rows[0][12], rows[6][4], rows[6][27])' "$OUT.csv"
	assert_success
	kit_untraced assert_line --index 0 "6 58"
	kit_untraced assert_line --index 1 "script.penalty_ms macOS 14.4.1 149.995"
	# (was: "host and user names in a run's conditions never reach the table, the CSV or the plot")
	scratch mac-m1pro linux-control
	jq '.conditions += {"host": "alices-macbook", "user": "alice", "terminal": "alice-term", "workdir": "/Users/alice/x"}' \
		"$AGG/mac-m1pro/run.json" >"$D/mac-m1pro/run.json"
	run_both "$BIN/aggregate" --dir "$D" --out "$OUT"
	assert_success
	! grep -ri alice "$OUT.md" "$OUT.csv" "$OUT.svg" || fail "a host or user name reached the outputs"
	kit_untraced refute_output --partial alice
	# (was: "without --out the files go into DIR as aggregate.md, .csv and .svg")
	scratch linux-control linux-gate
	run_both "$BIN/aggregate" --dir "$D/" --quiet
	assert_success
	kit_untraced assert_output ""
	[ -s "$D/aggregate.md" ]
	[ -s "$D/aggregate.csv" ]
	[ -s "$D/aggregate.svg" ]
	grep -qxF '![Penalty per case and machine, log scale](aggregate.svg)' "$D/aggregate.md"
	# (was: "a second aggregate over the same folder reads no output of the first")
	scratch linux-control
	"$BIN/aggregate" --dir "$D" --quiet
	run_sep "$BIN/aggregate" --dir "$D"
	assert_success
	[ -z "$stderr" ]
	kit_untraced assert_output --partial "— 1 run"
}

@test "malformed run.json files each skipped with a warning; no cases a row of 'not run'; nulls shown" {
	# (was: "malformed run.json files are each skipped with a warning, never a crash")
	scratch linux-control
	local j="$AGG/linux-control/run.json" n=0 i l s broken=() dirs=()
	# the fixture run, broken one way each: from one jq, a file a line
	# (read by a loop: a Mac's bash 3.2 has no mapfile)
	while IFS= read -r l; do broken+=("$l"); done < <(jq -c '(.schema = "other"), (.schema_version = "1"), del(.schema_version), (.schema_version = 0),
		(.conditions = []), (.cases = {}), (.cases[0] = 7), (.cases[0].name = 3), del(.cases[1].verdict),
		(.cases[0].penalty_ms = "12"), (.cases[2].penalty_ms.ci_low = "x")' "$j")
	[ "${#broken[@]}" -eq 11 ] || fail "jq: ${#broken[@]} broken runs"
	# the bad run.json files' folders, bad1 to bad17: one mkdir
	for ((i = 1; i <= 6 + ${#broken[@]}; i++)); do dirs+=("$D/bad$i"); done
	mkdir "${dirs[@]}"
	# bad CONTENT...: the next bad run.json, printf's CONTENT (the shell's
	# own write, no process)
	bad() { n=$((n + 1)); printf "$@" >"$D/bad$n/run.json"; }
	bad ''
	bad '[]'
	bad 'null'
	bad '{}'
	bad '\377\376garbage\000'
	# 100000 [ and a newline
	# (by doubling: a Mac's bash 3.2 takes minutes over ${s// /[} of 100000)
	s="["
	while [ ${#s} -lt 100000 ]; do s=$s$s; done
	bad '%s\n' "${s:0:100000}"
	for l in "${broken[@]}"; do bad '%s\n' "$l"; done
	[ "$n" -eq "${#dirs[@]}" ] || fail "$n bad files for ${#dirs[@]} folders"
	run_sep "$BIN/aggregate" --dir "$D" --out "$OUT"
	assert_success
	[ "${#stderr_lines[@]}" -eq "$n" ] || fail "$n bad files, warnings: $stderr"
	for ((i = 1; i <= n; i++)); do
		[[ "$stderr" == *"/bad$i/run.json: "*"; skipped"* ]] || fail "no warning for bad$i: $stderr"
	done
	kit_untraced assert_output --partial "$n files were skipped"
	kit_untraced table_rows
	assert_equal "$rows" 2
	# (was: "a run without cases is a row of 'not run'; null penalties and a case with no interval are shown")
	# (was: "a run without cases (the suite case alone) is a row of 'not run'")
	scratch linux-control linux-gate
	jq '.cases = []' "$AGG/linux-control/run.json" >"$D/linux-control/run.json"
	run_sep "$BIN/aggregate" --dir "$D" --out "$OUT"
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
	kit_untraced assert_output --regexp '\| 1 \| 20250301T120000Z-c0ffee \|.*\| off \| not run \| not run \| not run \| not run \| not run \| not run \| undetermined \|'
	# (was: "null penalties and a case with no interval are shown, not dropped")
	scratch linux-control
	jq '.cases[0].penalty_ms = {"median": null, "ci_low": null, "ci_high": null, "coverage": null}
	    | .cases[0].verdict = "inconclusive"
	    | .cases[1].penalty_ms.ci_low = null | .cases[1].penalty_ms.ci_high = null
	    | .cases[1].verdict = "inconclusive"' "$AGG/linux-control/run.json" >"$D/linux-control/run.json"
	run_both "$BIN/aggregate" --dir "$D" --out "$OUT"
	assert_success
	kit_untraced assert_output --partial "| - inconclusive |"
	kit_untraced assert_output --partial "[no interval] inconclusive |"
}

@test "refused, one line, exit 2: nothing readable, bad usage, an OUT in a run folder; OUT a folder is one" {
	# (was: "no readable run, or bad usage: one line, exit 2, nothing written; --help exits 0")
	# no readable run at all: one line on stderr, exit 2, nothing written; bad usage: one line, exit 2; --help exits 0
	mkdir -p "$BATS_TEST_TMPDIR/empty/a"
	printf '{' >"$BATS_TEST_TMPDIR/empty/a/run.json"
	run_sep "$BIN/aggregate" --dir "$BATS_TEST_TMPDIR/empty" --out "$OUT"
	assert_failure 2
	[ "${#stderr_lines[@]}" -eq 2 ] || fail "$stderr"
	[[ "${stderr_lines[1]}" == "aggregate: $BATS_TEST_TMPDIR/empty: no readable run.json (1 skipped): nothing to aggregate" ]] || fail "stderr: $stderr"
	[ ! -e "$OUT.md" ]
	[ ! -e "$OUT.csv" ]
	[ ! -e "$OUT.svg" ]
	# bad usage is one line on stderr and exit 2; --help exits 0 (one test
	# with the above: both are how aggregate refuses)
	run_both "$BIN/aggregate" --help
	assert_success
	kit_untraced assert_output --partial "usage: aggregate --dir DIR"
	for args in "" "--dir" "--bogus" "--dir $BATS_TEST_TMPDIR/none" "--dir $BATS_FILE_TMPDIR --out"; do
		# shellcheck disable=SC2086
		run_sep "$BIN/aggregate" $args
		assert_failure 2
		[ "${#stderr_lines[@]}" -eq 1 ] || fail "'$args': $stderr"
		[[ "$stderr" == "aggregate: "* ]] || fail "stderr: $stderr"
	done
	run_sep make -C "$ROOT" -s --no-print-directory aggregate
	assert_failure
	[[ "$stderr" == *"aggregate: --dir DIR is required"* ]] || fail "stderr: $stderr"
	# (was: "an OUT inside a run folder is refused, its files untouched; an OUT ending in / or a folder gets them")
	# (was: "an OUT inside a run folder is refused: one line, exit 2, the run's own files untouched")
	scratch linux-control linux-gate
	run_folder
	local before after out
	before=$(cd "$R" && find . -type f | sort | xargs cksum)
	for out in "$R/report" "$R/run" "$R/raw/x" "$R" "$R/" "$R/raw/" \
		"$BATS_TEST_TMPDIR/results/../results/${R##*/}/report"; do
		run_sep "$BIN/aggregate" --dir "$D" --out "$out"
		assert_failure 2
		[ "${#stderr_lines[@]}" -eq 1 ] || fail "--out $out: $stderr"
		[[ "$stderr" == "aggregate: "*"inside the run folder "*"${R##*/}"* ]] || fail "--out $out: $stderr"
	done
	# without OUT, a DIR that is a run folder would get aggregate.* inside it
	run_sep "$BIN/aggregate" --dir "$R"
	assert_failure 2
	[[ "$stderr" == "aggregate: "*"inside the run folder "* ]] || fail "$stderr"
	run_sep make -C "$ROOT" -s --no-print-directory aggregate DIR="$D" OUT="$R/report"
	assert_failure
	[[ "${stderr_lines[0]}" == "aggregate: "*"inside the run folder "* ]] || fail "$stderr"
	after=$(cd "$R" && find . -type f | sort | xargs cksum)
	assert_equal "$after" "$before"
	# (was: "an OUT ending in / or naming a folder gets aggregate.md, .csv, .svg inside it, no hidden .md files")
	scratch linux-control linux-gate
	local o
	for o in "$BATS_TEST_TMPDIR/slash/" "$BATS_TEST_TMPDIR/folder"; do
		mkdir -p "$o"
		run_both "$BIN/aggregate" --dir "$D" --out "$o" --quiet
		assert_success
		[ -s "$o/aggregate.md" ] && [ -s "$o/aggregate.csv" ] && [ -s "$o/aggregate.svg" ] || fail "--out $o: $(ls -A "$o")"
		[ -z "$(find "$o" -name '.*' ! -name . ! -name ..)" ] || fail "--out $o: hidden files $(ls -A "$o")"
		grep -qxF '![Penalty per case and machine, log scale](aggregate.svg)' "$o/aggregate.md"
	done
	mkdir -p "$BATS_TEST_TMPDIR/viamake"
	run_both make -C "$ROOT" -s --no-print-directory aggregate DIR="$D" OUT="$BATS_TEST_TMPDIR/viamake/"
	assert_success
	[ -s "$BATS_TEST_TMPDIR/viamake/aggregate.md" ] || fail "$(ls -A "$BATS_TEST_TMPDIR/viamake")"
	# a folder that is not there: one line, exit 2, nothing written
	for o in "$BATS_TEST_TMPDIR/none/" "$BATS_TEST_TMPDIR/none/agg"; do
		run_sep "$BIN/aggregate" --dir "$D" --out "$o"
		assert_failure 2
		assert_equal "$stderr" "aggregate: $BATS_TEST_TMPDIR/none: no such folder to write the aggregate into"
	done
	[ ! -e "$BATS_TEST_TMPDIR/none" ]
	run_both "$BIN/aggregate" --help
	kit_untraced assert_output --partial "ends in / or names a folder"
}

# (the summary plot and the projector view's floor are one test: one
# aggregate, one rendering, png_ink's three looks from one python)
@test "the summary plot: valid XML, not blank, rows labelled; the projector view: floor, zone, colours" {
	# (was: "the summary plot: valid XML, not blank, rows labelled; the projector view's axis, floor and zone")
	# the summary plot is valid XML, renders not blank, labels every row; the projector view: axis from 0.1 ms, the 1 ms floor drawn, the none zone shaded left of it
	need_tool rsvg-convert librsvg
	local fx top bottom got inks area
	run_both "$BIN/aggregate" --dir "$AGG" --out "$OUT" --quiet
	assert_success
	xmllint --noout "$OUT.svg"
	# one awk for what was a grep each: every label #1..#6, the axis's
	# title and ticks 0.1..10000 (not 0.01), two legend entries; nothing
	# that runs or fetches (any case)
	# shellcheck disable=SC2016 # (awk's $0)
	run_both awk -v want='>#1</text>|>#2</text>|>#3</text>|>#4</text>|>#5</text>|>#6</text>|>penalty, ms (log scale)<|>0.1</text>|>1</text>|>10</text>|>100</text>|>1000</text>|>10000</text>|>macOS, SIP on<|>Linux, gate<' '
		BEGIN { n = split(want, w, "|") }
		{ for (i = 1; i <= n; i++) if (index($0, w[i])) seen[i] = 1 }
		index($0, ">0.01</text>") { print "a tick 0.01" }
		tolower($0) ~ /<script|href|<style|url\(/ { print "runs or fetches: " $0 }
		END { for (i = 1; i <= n; i++) if (!(i in seen)) print "no " w[i] }' "$OUT.svg"
	assert_success
	kit_untraced assert_output ""
	grep -q '>1 ms floor</text>' "$OUT.svg"
	# the floor: the dashed ink line; 0.1 ms at x = 150, 1 ms one decade on
	fx=$(svg_attr "$OUT.svg" '<line .*stroke="#222222" stroke-width="1.5" stroke-dasharray="6 3"' x1 | head -n 1)
	[ -n "$fx" ]
	top=$(svg_attr "$OUT.svg" '<line .*stroke="#222222" stroke-width="1.5" stroke-dasharray="6 3"' y1 | head -n 1)
	bottom=$(svg_attr "$OUT.svg" '<line .*stroke="#222222" stroke-width="1.5" stroke-dasharray="6 3"' y2 | head -n 1)
	grep -q "<text x=\"150.0\" [^>]*>0.1</text>" "$OUT.svg"
	rsvg-convert -f png -o "$BATS_TEST_TMPDIR/a.png" "$OUT.svg"
	# the whole picture in the group colours; then the shade fills the zone
	# left of the floor and stops there: a line each
	inks=$("$AGG_PY" - "$ROOT/tests/test_helper/png_ink.py" "$BATS_TEST_TMPDIR/a.png" \
		156 "${top%.*}" "$(( ${fx%.*} - 3 ))" "${bottom%.*}" \
		"$(( ${fx%.*} + 3 ))" "${top%.*}" 655 "${bottom%.*}" <<'PY'
import runpy, sys
tool, png, r = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.argv = [tool, png, "#D55E00", "#000000"]
runpy.run_path(tool)
for k in (0, 4):
    sys.argv = [tool, png, "--region"] + r[k:k + 4] + ["--tol", "3", "#E3F1E3"]
    runpy.run_path(tool)
PY
	) || fail "png_ink failed"
	IFS=$'\n' read -r -d '' -a inks <<<"$inks" || :
	got=(${inks[0]})
	echo "# aggregate.svg: ${got[0]}x${got[1]}, ${got[2]} drawn pixels" >&3
	[ "${got[2]}" -ge $((got[0] * got[1] / 100)) ] || fail "only ${got[2]} drawn pixels"
	[ "${got[3]}" -ge 40 ] && [ "${got[4]}" -ge 40 ] || fail "group colours barely drawn: ${got[*]}"
	got=(${inks[1]})
	area=$(( (${fx%.*} - 3 - 156) * (${bottom%.*} - ${top%.*}) ))
	[ "${got[3]}" -ge $(( area * 6 / 10 )) ] || fail "the none zone is barely shaded: ${got[3]} of $area pixels"
	got=(${inks[2]})
	assert_equal "${got[3]}" 0
	# (was: "the projector view: a colour per condition, a lane per run in row order, labels in their own column")
	local fills ys n
	# (the same aggregate of the fixtures as the summary plot's, above: $OUT.svg is its)
	# the legend's circles (right of the plot): as many colours as conditions, all different
	fills=$(svg_attr "$OUT.svg" '<circle cx="696.0"' fill)
	n=$(printf '%s\n' "$fills" | wc -l)
	[ "$n" -ge 4 ] || fail "only $n conditions in the legend"
	assert_equal "$(printf '%s\n' "$fills" | sort -u | wc -l)" "$n"
	# and every colour it can give is different from the others, too: one run of
	# each kind of machine and condition it tells apart, a legend of eight colours
	# (their run.json files from one jq, a line each, and one mkdir: a jq
	# and a mkdir each were 16 processes)
	local k=0 kinds="$BATS_TEST_TMPDIR/kinds" c prog="" dirs=() l
	for c in '{os: "Darwin", sip: "enabled", devtools: "denied"}' '{os: "Darwin", sip: "enabled", devtools: "authorized"}' \
		'{os: "Darwin", sip: "disabled", devtools: "denied"}' '{}' \
		'{"gate.active": "1", "gate.latency_ms": "20", "gate.workers": "1", "gate.key": "inode", "gate.exempt": "0"}' \
		'{"gate.active": "1", "gate.latency_ms": "20", "gate.workers": "1", "gate.key": "inode", "gate.exempt": "1"}' \
		'{launcher: "sim:latency=20 seed=1"}' '{os: "FreeBSD"}'; do
		k=$((k + 1))
		dirs+=("$kinds/k$k")
		prog="$prog${prog:+, }(.run_id = \"20250301T12000${k}Z-c0ffee\" | .conditions += $c)"
	done
	mkdir -p "${dirs[@]}"
	k=0
	while IFS= read -r l; do
		k=$((k + 1))
		printf '%s\n' "$l" >"$kinds/k$k/run.json"
	done < <(jq -c "$prog" "$AGG/linux-control/run.json")
	assert_equal "$k" 8
	run_both "$BIN/aggregate" --dir "$kinds" --out "$BATS_TEST_TMPDIR/kinds-agg" --quiet
	assert_success
	for c in "macOS, SIP on" "macOS, Developer Tools" "macOS, other" "Linux" "Linux, gate" "Linux, gate, exempt" "simulated" "other"; do
		grep -qF ">$c</text>" "$BATS_TEST_TMPDIR/kinds-agg.svg" || fail "no legend entry '$c'"
	done
	fills=$(svg_attr "$BATS_TEST_TMPDIR/kinds-agg.svg" '<circle cx="696.0"' fill)
	assert_equal "$(printf '%s\n' "$fills" | sort -u | wc -l | tr -d ' ')" 8
	# labels: one per run and band, right-aligned in one column, never two at one height
	# (the fixtures: 6 runs, 9 cases, as in golden/aggregate.md)
	assert_equal "$(grep -c '<text x="140.0" [^>]*text-anchor="end"[^>]*>#[0-9]' "$OUT.svg")" $((6 * 9))
	ys=$(svg_attr "$OUT.svg" '<text x="140.0" [^>]*>#' y)
	assert_equal "$(printf '%s\n' "$ys" | sort | uniq -d)" ""
	# lanes in row order: in the first band, #1 to #6 from top to bottom
	# shellcheck disable=SC2016 # (awk's $0 and $4)
	run_both awk -F'"' '/<text x="140.0" / && match($0, />#[0-9]+[< ]/) {
		n = substr($0, RSTART + 2, RLENGTH - 3) + 0
		if (!(n in y)) { y[n] = $4 + 0; if (n > 1 && y[n] <= y[n - 1]) bad++ }
	} END { print (bad ? "out of order" : "in order") }' "$OUT.svg"
	kit_untraced assert_output "in order"
	# a run made with TAG=<seat> is labelled with it in the first band
	scratch mac-m1pro linux-control
	jq '.run_id = "20250301T090000Z-a1b2c3-seat7"' "$D/mac-m1pro/run.json" >"$D/x" && mv "$D/x" "$D/mac-m1pro/run.json"
	run_both "$BIN/aggregate" --dir "$D" --out "$OUT" --quiet
	assert_success
	assert_equal "$(grep -c '>#2 seat7</text>' "$OUT.svg")" 1
	grep -q '>#1</text>' "$OUT.svg"
}

@test "one number format, never -0.00; the compact table leads; aggregate and compare fail alike" {
	# (was: "one number format: a penalty that rounds to zero is 0.00, never -0.00; negatives keep their sign")
	scratch mac-m1pro
	jq '(.cases[] | select(.name == "exe") | .penalty_ms) |= (.median = -0.004 | .ci_low = -0.1 | .ci_high = 0.2)' \
		"$D/mac-m1pro/run.json" >"$D/mac-m1pro/run.json.new"
	mv "$D/mac-m1pro/run.json.new" "$D/mac-m1pro/run.json"
	run_both "$BIN/aggregate" --dir "$D" --out "$OUT"
	assert_success
	kit_untraced assert_output --partial "| 0.00 [-0.10, 0.20] "
	kit_untraced refute_output --partial -- "-0.00"
	# (was: "a compact table for a screen leads, a verdict symbol per case; the full table follows")
	# the compact table: machine, condition, and per case the penalty with a verdict symbol
	local compact width
	run_sep "$BIN/aggregate" --dir "$AGG" --out "$OUT"
	assert_success
	kit_untraced assert_line "| # | machine | condition | script | script-via-sh | exe | exe-copy | exe-hardlink | exe-rewrite | system-copy | dylib | quarantined | key |"
	kit_untraced assert_line "| 6 | Apple M1 Pro, macOS 14.4.1 | macOS, SIP on | 120.00 ▲ | 0.00 · | 150.00 ▲ | 150.00 ▲ | 0.00 · | 150.00 ▲ | 0.00 · | 130.00 ▲ | – | inode |"
	kit_untraced assert_line "## Full table"
	# the compact rows come first and are at most half as wide as the full ones
	compact=$(printf '%s\n' "$output" | sed -n '1,/^## Full table/p' | grep '^| [0-9]' | awk '{ if (length($0) > w) w = length($0) } END { print w }')
	width=$(printf '%s\n' "$output" | sed -n '/^## Full table/,$p' | grep '^| [0-9]' | awk '{ if (length($0) > w) w = length($0) } END { print w }')
	echo "# widest row: compact $compact, full $width characters" >&3
	[ "$compact" -le $((width / 2)) ] || fail "compact $compact, full $width"
	# intervals stay in the CSV
	grep -q ',149.995,130.01,169.99,slowdown,' "$OUT.csv"
	# (was: "aggregate and compare read run.json through one reader: the same file fails both in the same words")
	local j="$FIXTURES/aggregate/mac-m1pro/run.json" d="$BATS_TEST_TMPDIR/one"
	mkdir -p "$d/bad"
	jq '.cases[0].configs[0].verdict = "maybe"' "$j" >"$d/bad/run.json"
	run_sep "$BIN/compare" "$j" "$d/bad/run.json"
	assert_failure 2
	assert_equal "$stderr" "compare: B: $d/bad/run.json: cases[0].configs[0].verdict is missing or not slowdown, none, inconclusive or hang"
	cp -R "$FIXTURES/aggregate/mac-m1pro" "$d/good"
	run_sep "$BIN/aggregate" --quiet --dir "$d" --out "$BATS_TEST_TMPDIR/out"
	assert_success
	assert_equal "$stderr" "aggregate: warning: $d/bad/run.json: cases[0].configs[0].verdict is missing or not slowdown, none, inconclusive or hang; skipped"
}
