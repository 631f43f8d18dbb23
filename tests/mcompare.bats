#!/usr/bin/env bats
# micro/mcompare (make compare A= B= of two measures, through scripts/compare):
# two measures side by side, W, N, L, B and the conditions that differ, and
# how much the command's time changed.  The measures are micro/measure's,
# made here from fixed results of the command's run, the unified log and the
# services (mac_measure: tests/test_helper/mac-measure.bash), with the brief
# fixture mac-penalty as the probe; tests/measure.bats makes them end to end.

load test_helper/common-setup
load test_helper/mac-measure
load test_helper/quickrun

setup() {
	_common_setup
	_run_folders_setup
	for p in measure mcompare analyze; do
		[ -x "$BIN/$p" ] || fail "$BIN/$p is missing: run 'make build'"
	done
}

@test "make compare of two measures: W, N, L, B and the change; a Mac's and one over ssh, app and start" {
	# make compare of two measures lines up W, N, L and B and says how much the command's time changed; a Mac's and one over ssh, the app and how each was started
	# (one test for both: a bats test costs some 0.2 s of CPU here before it
	# does anything, and both compare measures of the same probe)
	# A: a Mac's measure tagged before, of 1.03 s, 9 to 12 checks, L the
	# probe's and the services' CPU (XprotectService 3.78 s between the
	# samples); B, tagged after: 0.01 s, no new program, no probe (L unknown)
	local a="$RESULTS/20260410T100000Z-aaaaaa-before" b="$RESULTS/20260410T100500Z-bbbbbb-after" l
	printf '%s\n' 'execlag-services	1' 'sample	before	2026-04-10T10:00:00Z' \
		'service	before	syspolicyd	555.14	1	168=555.14' 'service	before	XprotectService	2555.77	1	612=2555.77' \
		'sample	after	2026-04-10T10:00:02Z' \
		'service	after	syspolicyd	555.45	1	168=555.45' 'service	after	XprotectService	2559.55	2	612=2558.80,100234=0.75' \
		>"$D/services.tsv"
	MM_OUT=$a MM_WALL_NS=1031362695 MM_SERVICES="$D/services.tsv" mac_measure "${a##*/}"
	mkdir -p "$b/raw"
	printf 'execlag-execwatch\t1\nwall_ns\t6778506\nstatus\texit\t0\nuser_us\t1\nsys_us\t1\nwatch\ton\nfresh_launches\t0\nfresh_execs\t0\nold_execs\t2\noutside\t0\nunplaced\t0\noverflow\t0\n' \
		>"$b/raw/exec.tsv"
	sed 's/^os=.*/os=Linux/' "$probe/conditions.txt" >"$b/conditions.txt"
	run_sep -0 "$BIN/measure" --out "$b" --watch "$b/raw/exec.tsv" --conditions "$b/conditions.txt" \
		--dir /Users/u/src/app --id "${b##*/}" --probe-how none --probe-note "no comparable run" -- true
	run_sep make -s --no-print-directory -C "$ROOT" compare A=before B=after RESULTS="$RESULTS"
	assert_success
	kit_untraced assert_line --regexp '^W +1\.[0-9]{2} s \(exit 0\) +0\.[0-9]{2} s \(exit 0\)$'
	kit_untraced assert_line --regexp '^N +9 to 12 +'
	# the probe's L (one jq for its three figures)
	local median low high
	{ read -r median && read -r low && read -r high; } < <(jq -r '.cases[] | select(.name == "exe") | .penalty_ms | .median, .ci_low, .ci_high' "$probe/run.json")
	printf -v want '^L +%.2f ms \\[%.2f, %.2f\\] +unknown$' "$median" "$low" "$high"
	kit_untraced assert_line --regexp "$want"
	kit_untraced assert_line --regexp '^B +1\.[0-9]{2} to 1\.[0-9]{2} s \[1\.[0-9]{2}, 1\.[0-9]{2}\] +0\.00 s \[0\.00, 0\.00\]$'
	kit_untraced assert_line --regexp '^XprotectService CPU +3\.78 s +-$'
	kit_untraced assert_line --regexp "^The command's time changed by -[01]\.[0-9]{2} s \(-[0-9.]+%\): 1\.[0-9]{2} s in A, 0\.[0-9]{2} s in B\.$"
	# a run and a measure are not compared (scripts/compare's refusal: the
	# entry through make is the one above)
	run_sep sh "$ROOT/scripts/compare" -- before "$probe"
	assert_failure
	[[ "$stderr" == *"holds no measure.json"* ]]
	# a Mac's measure and one made over ssh: the app and how each was started
	mac_measure plain
	mac_measure ssh ssh=yes started_via=ssh,Terminal
	run_both -0 "$BIN/mcompare" -- "$D/plain" "$D/ssh"
	kit_untraced assert_line --regexp '^responsible app +Terminal \(Developer Tools: denied\) +Terminal \(Developer Tools: denied\)$'
	kit_untraced assert_line --regexp '^started +Terminal +ssh, Terminal$'
	kit_untraced assert_line "  ssh: no -> yes"
	kit_untraced assert_line --regexp '^N +9 to 12 +9 to 12$'
}
