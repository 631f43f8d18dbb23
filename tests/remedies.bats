#!/usr/bin/env bats
# make remedies (issue 42): the placements side by side on the simulator
# (seeded: exact counts), the table's marks and the kill rate's exact
# interval (the unit tests of micro/stats/remedies.c and killrate.c, the
# latter's known values from docs/remedies.md), run.json, report.md,
# feedback.txt and make compare carrying the table, the placements table
# (cases/placements) and bad input.

load test_helper/common-setup
load test_helper/quickrun

# The file's runs, each made once (the simulator at 150 ms a check, one
# worker, seed 7: a few seconds each) and read by the tests: make remedies
# with the cache keyed by inode and by path, and the kill rate at 64
# launches, T=2.  Each keeps its stdout, stderr and status.
setup_file() {
	local name
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/unit-killrate micro/bin/unit-remedies >/dev/null
	schema_validator_keep
	SHARED=$BATS_FILE_TMPDIR
	export SHARED
	[ -n "${EXECLAG_TEMPLATES:-}" ] || export EXECLAG_TEMPLATES="$BATS_RUN_TMPDIR/templates"
	for name in inode path full; do
		mkdir -p "$SHARED/$name/results" "$SHARED/$name/tmp"
		case $name in
		inode) set -- --launcher "sim:latency=150 workers=1 key=inode seed=7" ;;
		path) set -- --launcher "sim:latency=150 workers=1 key=path seed=7" ;;
		full) set -- --launcher "sim:latency=150 workers=1 key=inode seed=7" --count 64 --threads 2 ;;
		esac
		TMPDIR="$SHARED/$name/tmp" sh "$BATS_TEST_DIRNAME/../scripts/remedies" \
			--results "$SHARED/$name/results" "$@" >"$SHARED/$name/out" 2>"$SHARED/$name/err" </dev/null
		echo "$?" >"$SHARED/$name/status"
	done
}

setup() {
	_common_setup
}

@test "the kill rate's interval at known values, its words; 0 of 3,840 at most 0.08%, 5 the 0.04-0.31%" {
	# (was: "the kill rate's Clopper-Pearson interval at known values, and its words")
	run_both -0 "$BIN/unit-killrate"
	refute_output --partial "not ok"
	assert_line --regexp '^1\.\.[0-9]+$'
	# (was: "0 kills of 3,840 say at most 0.08%, never never; 5 of 3,840 the two-sided 0.04-0.31%")
	run_both -0 "$BIN/unit-killrate" 0 3840
	assert_output "at most 0.08%"
	run_both -0 "$BIN/unit-killrate" 5 3840
	assert_output "0.04–0.31%"
}

# shared NAME: the file's run NAME (setup_file) as bats' run --separate-stderr
# gives a command: status, output (stdout), stderr, lines and stderr_lines
# (as $( ) and bats read them: the trailing newlines dropped); its folder
# in RUNDIR (the last, as ls sorts).  Read by the shell, no process (it was
# a sh, three cats, an ls and a tail a call).
shared() {
	local d="$SHARED/$1" r
	status=""
	read -r status <"$d/status" || true
	output="" stderr=""
	IFS= read -r -d '' output <"$d/out" || true
	while [ "${output%$'\n'}" != "$output" ]; do output=${output%$'\n'}; done
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
	IFS= read -r -d '' stderr <"$d/err" || true
	while [ "${stderr%$'\n'}" != "$stderr" ]; do stderr=${stderr%$'\n'}; done
	IFS=$'\n' read -d '' -r -a stderr_lines <<<"$stderr" || true
	RUNDIR=""
	for r in "$d/results"/*/; do
		[ ! -d "$r" ] || RUNDIR=$r
	done
}

@test "make remedies (simulated, key inode): a row a placement, the hard link to use, plain lines last" {
	shared inode
	assert_success
	# the table: its header and a row for each placement the kit has, in the table's order
	assert_line --regexp '^placement +first launch ms \[95% CI\] +saves ms \[95% CI\] +killed +kill rate \(95%\) +verdict$'
	assert_line --regexp '^exe +150\.[0-9]+ \[[0-9.]+, [0-9.]+\] +- +0 of 8 +at most 31\.24% +slowdown$'
	assert_line --regexp '^exe-hardlink +0\.[0-9]+ \[-?[0-9.]+, [0-9.]+\] +150\.[0-9]+ \[[0-9.]+, [0-9.]+\] +0 of 8 +at most 31\.24% +none +use here$'
	assert_line --regexp '^exe-copy +1[45][0-9]\.[0-9]+ .* slowdown'
	# one plain line a placement, with who does it and the source
	assert_line --regexp '^exe-hardlink, a hard link to a launched file, made long before: first launch .* ms, saves .* ms against a new file, killed 0 of 8 \(at most 31\.24%\); who does it: uv --link-mode hardlink \(astral-sh/uv#18577\)'
	assert_line --regexp '^exe, a new file \(the baseline\): .*go test: .*golang/go#77349.*Homebrew'
	# the last two: use here, avoid
	[[ "${lines[${#lines[@]} - 3]}" == "use here: exe-hardlink "* ]] || fail "use: ${lines[${#lines[@]} - 3]}"
	# an inode-keyed checker never checks new bytes written into a launched
	# file's inode: the overwrite is the one to avoid, for what it is
	[[ "${lines[${#lines[@]} - 2]}" == "avoid: exe-overwrite (changed code never checked"* ]] ||
		fail "avoid: ${lines[${#lines[@]} - 2]}"
	[[ "${lines[${#lines[@]} - 1]}" == "execlag: results in "* ]]
	# no plain lines of make repro's after it
	refute_line --regexp '^(cost|queue|cause|do): '
	# run.json carries it, as the schema says
	run_both -0 jq -r '.conditions["run.role"], .remedies.use, (.remedies.avoid | length),
		([.remedies.rows[].placement] | join(",")), .remedies.rows[1].kills.of,
		.remedies.rows[0].baseline' "$RUNDIR/run.json"
	assert_output "remedies
exe-hardlink
1
exe,exe-hardlink,exe-freshlink,exe-copy,exe-rewrite,exe-overwrite,exe-samebytes,exe-touch,exe-assessed
8
true"
	[ -n "$(schema_skip_reason)" ] || run_both -0 validate_run_json "$RUNDIR/run.json"
	# report.md: the table and the same plain lines, after the plain answer
	run_both -0 grep -c '^## Remedies: where a build puts a program$' "$RUNDIR/report.md"
	run_both -0 grep -E '^\| exe-hardlink \| 0\.[0-9]+ \[.*\] \| 0 of 8 \| at most 31\.24% \| none \| use here \|$' "$RUNDIR/report.md"
	run_both -0 grep '^- use here: exe-hardlink ' "$RUNDIR/report.md"
	run_both -0 grep '^- avoid: exe-' "$RUNDIR/report.md"
}

@test "make remedies (simulated, key path): the rename over keeps the path, so it is the one to use" {
	shared path
	assert_success
	run_both -0 jq -r '.remedies.use, ([.remedies.rows[] | select(.verdict == "none") | .placement] | join(","))' "$RUNDIR/run.json"
	# the rename over and the placements at the launched file's own path
	# (the overwrite's new bytes go unchecked there: not the one to use)
	assert_output "exe-rewrite
exe-rewrite,exe-overwrite,exe-samebytes,exe-touch"
}

@test "make remedies FULL=1 at COUNT=64: one placement, every artifact, T=2, its kill rate's bound" {
	shared full
	assert_success
	assert_line "execlag: the kill rate of exe-freshlink: 64 launches, 2 at once"
	assert_line --regexp '^exe-freshlink +-?0\.[0-9]+ .* +0 of 64 +at most 4\.58% +none +use here$'
	run_both -0 jq -r '.conditions["run.count"], .conditions["run.threads"], .remedies.rows[0].kills.of,
		.remedies.rows[0].kills.ci_high' "$RUNDIR/run.json"
	assert_output "64
2
64
0.0457297"
}

@test "make remedies refuses a bad FULL, COUNT or PLACEMENT in one line, exit 2, nothing made" {
	_run_folders_setup
	FULL=2 run_sep sh "$ROOT/scripts/remedies"
	assert_failure 2
	assert_equal "$stderr" "execlag: FULL '2' is not 0 or 1"
	COUNT=5 run_sep sh "$ROOT/scripts/remedies"
	assert_failure 2
	assert_equal "$stderr" "execlag: COUNT '5' is not a whole number from 6 to 100000"
	run_sep sh "$ROOT/scripts/remedies" --full --placement 'x;y'
	assert_failure 2
	[[ "$stderr" == "execlag: PLACEMENT 'x;y' is no placement that runs here (placements: exe "* ]] || fail "$stderr"
	PLACEMENT=exe-copy run_sep sh "$ROOT/scripts/remedies"
	assert_failure 2
	assert_equal "$stderr" "execlag: PLACEMENT goes with FULL=1 or COUNT (the kill rate of one placement)"
	assert_empty "$D/results"
}

@test "the table's marks: the lowest cost with no kill seen to use; a kill or unchecked code to avoid" {
	run_both -0 "$BIN/unit-remedies"
	refute_output --partial "not ok"
}

@test "feedback.txt carries the remedies table; compare sets two tables side by side" {
	local a b
	shared inode
	a=$RUNDIR
	shared path
	b=$RUNDIR
	# fbtext (make feedback refuses a simulated run: this one's launcher made spawn)
	jq '.conditions.launcher = "spawn"' "$a/run.json" >"$BATS_TEST_TMPDIR/run.json"
	run_both -0 "$BIN/fbtext" --run "$BATS_TEST_TMPDIR/run.json"
	assert_line "Where a build puts a program (make remedies): each placement's first launch"
	assert_line --regexp '^exe-hardlink +0\.[0-9]+ .* +0 of 8 +at most 31\.24% +none +use here$'
	assert_line --regexp '^- use here: exe-hardlink '
	refute_line --regexp '^.*remedies.*(not worded|fields)'
	run_both -0 "$BIN/compare" "$a" "$b"
	assert_line "Remedies (make remedies): each placement's first launch (ms) and kills, A and B"
	assert_line --regexp '^exe-rewrite +150\.[0-9]+ +0\.[0-9]+ +0 of 8 +0 of 8 +(avoid|-) +use here$'
	assert_line "use here: A exe-hardlink, B exe-rewrite (changed)"
	# a run that is not make remedies' has no table
	mkdir -p "$BATS_TEST_TMPDIR/plain"
	jq 'del(.remedies)' "$b/run.json" >"$BATS_TEST_TMPDIR/plain/run.json"
	run_both -0 "$BIN/compare" "$a" "$BATS_TEST_TMPDIR/plain"
	assert_line "use here: A exe-hardlink, B no table (changed)"
	# and a table that is not one is refused, naming it
	jq '.remedies.rows[0].kills = 3' "$b/run.json" >"$BATS_TEST_TMPDIR/plain/run.json"
	run_sep "$BIN/compare" "$a" "$BATS_TEST_TMPDIR/plain"
	assert_failure 2
	assert_equal "$stderr" "compare: B: $BATS_TEST_TMPDIR/plain/run.json: remedies.rows[0] is not a placement's row (placement, what, verdict, kills, mark)"
}

@test "the placements table: casegen makes its rows, and refuses a row it cannot read in one line" {
	run_both -0 sh "$ROOT/scripts/tool/casegen" --placements "$ROOT/cases"
	assert_line --regexp '^	PLACEMENT\("exe", 1, 0, "a new file \(the baseline\)", "go test: .*"\) \\$'
	assert_line --regexp '^	PLACEMENT\("exe-overwrite", 0, 1, '
	mkdir -p "$BATS_TEST_TMPDIR/c"
	cp "$ROOT/cases/kinds" "$ROOT/cases/exe.case" "$BATS_TEST_TMPDIR/c/"
	printf 'exe baseline a new file | go test\nexe-x sometimes a thing | who\n' >"$BATS_TEST_TMPDIR/c/placements"
	run_sep sh "$ROOT/scripts/tool/casegen" --placements "$BATS_TEST_TMPDIR/c"
	assert_failure 2
	assert_equal "$stderr" "casegen: $BATS_TEST_TMPDIR/c/placements:2: role is baseline, inplace or plain: sometimes"
	printf 'exe baseline a new file with no tools\n' >"$BATS_TEST_TMPDIR/c/placements"
	run_sep sh "$ROOT/scripts/tool/casegen" --placements "$BATS_TEST_TMPDIR/c"
	assert_failure 2
	assert_equal "$stderr" "casegen: $BATS_TEST_TMPDIR/c/placements:1: not CASE ROLE WHAT | TOOLS: exe baseline a new file with no tools"
	printf 'exe plain a new file | who\n' >"$BATS_TEST_TMPDIR/c/placements"
	run_sep sh "$ROOT/scripts/tool/casegen" --placements "$BATS_TEST_TMPDIR/c"
	assert_failure 2
	assert_equal "$stderr" "casegen: $BATS_TEST_TMPDIR/c/placements: not one baseline row but 0"
}

@test "make remedies' placements share one launched base: made once; linked, fresh-linked, copied from" {
	# mkfresh as make remedies' run has it (EXECLAG_SHARED_BASE=1), three
	# placements into one work folder: one base, the hard links its inode
	local w=$BATS_TEST_TMPDIR/w
	mkdir -p "$w"
	for k in exe-copy exe-hardlink exe-rewrite exe-freshlink; do
		EXECLAG_SHARED_BASE=1 run_both -0 "$BIN/mkfresh" --kind "$k" --count 2 --dir "$w" --prefix "$k" \
			--manifest "$BATS_TEST_TMPDIR/$k.manifest" --simulated
	done
	run_both -0 find "$w" -name '*base*'
	assert_output "$w/shared-base-s0"
	# (the same inode, and not, by the shell's -ef: one folder, one device)
	[ "$w/exe-hardlink-0000" -ef "$w/shared-base-s0" ]
	[ ! "$w/exe-copy-0000" -ef "$w/shared-base-s0" ]
	# the fresh hard links are made, at their launch, from that shared base
	# (their manifest's link_from), and every launch runs (a link_from
	# naming a base that was never made had every one fail: ENOENT)
	assert_equal "$(awk -F'\t' '$1 == "link_from" { print $2 }' "$BATS_TEST_TMPDIR/exe-freshlink.manifest")" \
		"$(cd "$w" && pwd -P)/shared-base-s0"
	run_both -0 "$BIN/launch" --manifest "$BATS_TEST_TMPDIR/exe-freshlink.manifest" --out "$BATS_TEST_TMPDIR/s.tsv" \
		--quiet --passes first
	assert_equal "$(awk -F'\t' '$1 == "sample" && ($6 != 0 || $8 != 0)' "$BATS_TEST_TMPDIR/s.tsv")" ""
	assert_equal "$(grep -c '^sample	' "$BATS_TEST_TMPDIR/s.tsv")" 2
	# any other run: a base a case and configuration, as before
	rm -rf "$w" && mkdir -p "$w"
	for k in exe-copy exe-hardlink; do
		EXECLAG_SHARED_BASE=0 run_both -0 "$BIN/mkfresh" --kind "$k" --count 2 --dir "$w" --prefix "$k" \
			--manifest "$BATS_TEST_TMPDIR/$k.manifest" --simulated
	done
	run_both -0 sh -c 'find "$1" -name "*base*" | sort' _ "$w"
	assert_output "$w/exe-copy-base
$w/exe-hardlink-base"
}

@test "make remedies (simulated, kill=0.25): the placements checked count their kills, and are to avoid" {
	mkdir -p "$BATS_TEST_TMPDIR/results" "$BATS_TEST_TMPDIR/tmp"
	TMPDIR="$BATS_TEST_TMPDIR/tmp" run_sep sh "$ROOT/scripts/remedies" --results "$BATS_TEST_TMPDIR/results" \
		--launcher 'sim:latency=150 workers=1 key=inode kill=0.25 seed=7'
	assert_success
	# a quarter of the held checks refused, the n-th when floor(n/4) grows:
	# 5 of each paying placement's 20 first launches; the links pay nothing
	assert_line --regexp '^exe +149\.[0-9]+ .* +5 of 20 +8\.65–49\.11% +slowdown +avoid$'
	assert_line --regexp '^exe-copy +1[45][0-9]\.[0-9]+ .* +5 of 20 +8\.65–49\.11% +slowdown +avoid$'
	assert_line --regexp '^exe-hardlink +.* +0 of 8 +at most 31\.24% +none +use here$'
	assert_line "avoid: exe (killed 5 of 20: 8.65–49.11%), exe-copy (killed 5 of 20: 8.65–49.11%), exe-rewrite (killed 5 of 20: 8.65–49.11%), exe-overwrite (changed code never checked: its new bytes cost no check where a new file pays), exe-assessed (killed 5 of 20: 8.65–49.11%)"
	run_both -0 jq -r '[.remedies.rows[] | "\(.placement):\(.kills.killed)/\(.kills.of)"] | join(" ")' \
		"$(ls -d "$BATS_TEST_TMPDIR"/results/*/)run.json"
	assert_output "exe:5/20 exe-hardlink:0/8 exe-freshlink:0/8 exe-copy:5/20 exe-rewrite:5/20 exe-overwrite:0/60 exe-samebytes:0/20 exe-touch:0/20 exe-assessed:5/20"
}
