#!/usr/bin/env bats
# make compare / micro/compare: two runs side by side, checked against the
# fixture runs in tests/fixtures/compare (README.md there has the table
# worked out by hand) and a golden output.

load test_helper/common-setup
load test_helper/quickrun

# The edited copies of the online run that tests compare, one a line: NAME,
# a tab, and the jq filter that makes it of online/run.json.  setup_file
# makes them all with one jq (a $( ), a mkdir and a jq each were three
# processes a copy, some forty in all).
VARIANTS='devtools	.conditions.devtools = "authorized" | .conditions.sip = "disabled" | .conditions["run.count"] = "40"
gate-a	.conditions.os = "Linux" | .conditions.os_name = "Debian GNU/Linux 12 (bookworm)" | .conditions.os_build = "n/a" | .conditions["gate.active"] = "1" | .conditions["gate.latency_ms"] = "20" | .conditions["gate.workers"] = "1" | .conditions["gate.key"] = "inode" | .conditions["gate.exempt"] = "0"
gate-b	.conditions.os = "Linux" | .conditions.os_name = "Debian GNU/Linux 12 (bookworm)" | .conditions.os_build = "n/a" | .conditions["gate.active"] = "1" | .conditions["gate.latency_ms"] = "20" | .conditions["gate.workers"] = "1" | .conditions["gate.key"] = "inode" | .conditions["gate.exempt"] = "1"
nolisten	.conditions += {fanotify_listeners: "none", agents: "none"}
clamav	.conditions += {fanotify_listeners: "clamonacc (1)", agents: "ClamAV on-access scanning (clamonacc)"}
negative	(.cases[] | select(.name == "script-via-sh") | .configs[0].penalty_ms.median) = -0.3 | (.cases[] | select(.name == "script-via-sh") | .penalty_ms.median) = -0.3
extra	.cases[0].services = {"XprotectService": {"cpu_s": 3.0}} | .logs = {"refused": false}
sized-a	.cases |= map(if .name == "exe" then .configs = [(.configs[0] | .pad_bytes = 16384), (.configs[0] | .pad_bytes = 1048576 | .penalty_ms.median = 4)] else . end)
sized-b	.cases |= map(if .name == "exe" then .configs = [(.configs[0] | .pad_bytes = 16384), (.configs[0] | .pad_bytes = 1048576 | .penalty_ms.median = 40), (.configs[0] | .pad_bytes = 8388608)] else . end)
other	.schema = "something-else"
nothreads	del(.cases[1].configs[0].threads)
badverdict	.cases[0].verdict = "maybe"
moved	(.cases[] | select(.name == "exe") | .headline.threads) = 8
sized	(.cases[] | select(.name == "exe") | .headline.pad_bytes) = 1048576
storm	.conditions += {"checker.state": "storm", "checker.record": "machine", "checker.assess": "accepted", "checker.syspolicyd_cpu_pct": "20.0", "checker.syspolicyd_rss_kb": "204800", "checker.rate": "440.0", "checker.log_lines": "26400", "checker.driver": "/Applications/Codex.app/Contents/MacOS/Codex"}
well	.conditions += {"checker.state": "well", "checker.record": "machine", "checker.assess": "accepted", "checker.syspolicyd_cpu_pct": "0.0", "checker.syspolicyd_rss_kb": "139264", "checker.rate": "0.0", "checker.log_lines": "2"}'

setup_file() {
	local names=() dirs=() prog="" name filter doc i=0
	while IFS='	' read -r name filter; do
		names+=("$name")
		dirs+=("$BATS_FILE_TMPDIR/$name")
		prog="$prog($filter), "
	done <<<"$VARIANTS"
	mkdir -p "${dirs[@]}"
	while IFS= read -r doc; do
		printf '%s\n' "$doc" >"${dirs[i]}/run.json"
		i=$((i + 1))
	done < <(jq -c "${prog}empty" "$BATS_TEST_DIRNAME/fixtures/compare/online/run.json")
	[ "$i" = "${#names[@]}" ] || { echo "jq made $i of ${#names[@]} variants" >&2; return 1; }
}

setup() {
	_common_setup
	[ -x "$BIN/compare" ] || fail "$BIN/compare is missing: run 'make micro/bin/compare'"
	CF="$FIXTURES/compare"
}

# variant NAME: the folder of setup_file's copy of the online run edited by
# VARIANTS' filter NAME, in v (no process)
variant() {
	v="$BATS_FILE_TMPDIR/$1"
	[ -f "$v/run.json" ] || fail "no variant $1"
}

# one_line_exit_2: the last run failed with status 2, one line on stderr
# naming the program, nothing on stdout.
one_line_exit_2() {
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ "${stderr_lines[0]}" == compare:* ]] || fail "stderr: $stderr"
}

@test "the expected table: make compare of online and offline, and the two runs found by id under --results" {
	# (was: "make compare on the online and offline fixture runs prints the expected table")
	run_sep make -s --no-print-directory -C "$ROOT" compare A="$CF/online" B="$CF/offline"
	assert_success
	assert_equal "$stderr" ""
	diff -u "$CF/online-offline.expected" <(printf '%s\n' "$output") || fail "output differs from online-offline.expected"
	# (was: "a run is found by its id under --results")
	mkdir -p "$BATS_TEST_TMPDIR/results"
	cp -R "$CF/online" "$BATS_TEST_TMPDIR/results/20260301T101500Z-a1b2c3"
	cp -R "$CF/offline" "$BATS_TEST_TMPDIR/results/20260301T103000Z-d4e5f6"
	run_both -0 "$BIN/compare" --results "$BATS_TEST_TMPDIR/results" 20260301T101500Z-a1b2c3 20260301T103000Z-d4e5f6
	diff -u "$CF/online-offline.expected" <(printf '%s\n' "$output") || fail "output differs"
}

# (one compare of the online and offline runs read by what were five
# tests, each running it again)
@test "online vs offline: penalties, B/A, flips, the conditions that differ, a toggle; sized for people" {
	# (was: "online vs offline: penalties, intervals, B/A, flipped verdicts, the conditions that differ, a toggle")
	# online vs offline: each configuration's penalties with intervals and the ratio B/A; the flipped verdicts and the cases in one run; the network conditions differ and no other; how to toggle by hand
	run_both -0 "$BIN/compare" "$CF/online" "$CF/offline"
	# each configuration in both runs shows both penalties with intervals and the ratio B/A
	kit_untraced assert_line --regexp '^exe \* +1 +all +152\.30 \[140\.10, 170\.20\] +35\.10 \[30\.00, 41\.00\] +0\.23 +slowdown \(same\)$'
	kit_untraced assert_line --regexp '^exe +8 +all +980\.50 \[900\.00, 1100\.25\] +250\.00 \[230\.00, 270\.00\] +0\.25 +slowdown \(same\)$'
	kit_untraced assert_line --regexp '^script \* +1 +all +121\.00 \[110\.50, 130\.00\] +0\.40 \[0\.10, 0\.90\] +0\.0033 +slowdown → none \(flipped\)$'
	kit_untraced assert_line --regexp '^script-via-sh \* +1 +all +0\.10 \[-0\.20, 0\.40\] +0\.05 \[-0\.10, 0\.30\] +0\.50 +none \(same\)$'
	# the verdicts that flipped are named, and the cases in only one run are listed
	kit_untraced assert_line "Verdicts that flipped (2 of 5 configurations in both runs):"
	kit_untraced assert_line "  script T=1 all: slowdown → none (121.00 → 0.40 ms)"
	kit_untraced assert_line "  script T=8 all: slowdown → inconclusive (800.00 → 2.00 ms)"
	# the summary leads: it comes before the table
	assert_equal "${lines[3]}" "Verdicts that flipped (2 of 5 configurations in both runs):"
	kit_untraced assert_line "Only in A: dylib T=1 all"
	kit_untraced assert_line "Only in B: exe-hardlink T=1 all"
	# the conditions that differ are the network ones and no other
	kit_untraced assert_line "Conditions that differ: network online → offline; network_interface en0 → none"
	kit_untraced refute_line --partial "Run settings that differ"
	# the report says how to toggle Developer Tools, the network and SIP (Recovery only) by hand
	kit_untraced assert_output --partial "System Settings › Privacy & Security ›
  Developer Tools"
	kit_untraced assert_output --partial "only makes Terminal appear in that list"
	kit_untraced assert_output --partial "turn Wi-Fi off"
	kit_untraced assert_output --partial "can only be changed from Recovery"
	kit_untraced assert_line "Then re-run with A's settings: make repro CASES=exe,script,script-via-sh,dylib THREADS=1,8 COUNT=20"
	kit_untraced assert_line "and compare: make compare A=20260301T101500Z-a1b2c3 B=<the new run>"
	kit_untraced refute_output --partial "Calibration gate"
	# (was: "output sized for people: no row twice, and a case whose headline moved is named once")
	# every table row once: the per-case table that repeated them is gone
	# (the rows grep -E '^[a-z-]+ (\* )? +[0-9]+ ' finds, any twice as sort |
	# uniq -d names them: by the shell, a row a line of $lines)
	local row_re='^[a-z-]+ (\* )? +[0-9]+ ' row rows=$'\n' twice=""
	for row in "${lines[@]}"; do
		[[ $row =~ $row_re ]] || continue
		case $rows in
		*$'\n'"$row"$'\n'*) twice=$twice$row$'\n' ;;
		*) rows=$rows$row$'\n' ;;
		esac
	done
	[ "$rows" != $'\n' ] || fail "no table rows in the output"
	assert_equal "$twice" ""
	kit_untraced refute_line --partial "Per case"
	kit_untraced refute_line --partial "Headlines that differ"
	[ "${#lines[@]}" -le 36 ] || fail "${#lines[@]} lines"
	# B's exe verdict taken from T=8: named, once
	variant moved
	run_both -0 "$BIN/compare" "$CF/online" "$v"
	kit_untraced assert_line "Headlines that differ (T/class A → B): exe 1/all → 8/all"
	# the same T and class, another size: moved too
	variant sized
	run_both -0 "$BIN/compare" "$CF/online" "$v"
	kit_untraced assert_line "Headlines that differ (T/class A → B): exe 1/all → 1/all 1 MiB"
}

@test "conditions that differ: Developer Tools, SIP, run settings, the gate's, a fanotify listener or agent" {
	# (was: "Developer Tools, SIP and run settings that differ are named too")
	variant devtools
	run_both -0 "$BIN/compare" "$CF/online" "$v"
	kit_untraced assert_line "Conditions that differ: sip enabled → disabled; devtools denied → authorized"
	kit_untraced assert_line "Run settings that differ: run.count 20 → 40"
	kit_untraced assert_line --partial "- Developer Tools (A: denied, B: authorized): System Settings › Privacy & Security ›"
	# (was: "Linux gate runs: the gate settings that differ are named and the gate toggle is explained")
	local a b
	variant gate-a
	a=$v
	variant gate-b
	b=$v
	run_both -0 "$BIN/compare" "$a" "$b"
	kit_untraced assert_line "Conditions that differ: gate.exempt 0 → 1"
	kit_untraced assert_line "- Calibration gate (Linux, root; A: gate on, B: gate on): change one setting per"
	# the gate needs root: the hint says sudo
	kit_untraced assert_line "Then re-run with A's settings: sudo make repro CASES=exe,script,script-via-sh,dylib THREADS=1,8 COUNT=20 GATE='latency=20 workers=1 key=inode exempt=0'"
	kit_untraced assert_line --partial "A  20260301T101500Z-a1b2c3  Debian GNU/Linux 12 (bookworm), model MacBookPro18,1, network online, calibration gate: latency 20 ms, workers 1, key inode, exempt 0"
	kit_untraced refute_output --partial "Recovery"
	# (was: "a fanotify listener or an agent that came or went is a condition that differs")
	variant nolisten
	a=$v
	variant clamav
	b=$v
	run_both -0 "$BIN/compare" "$a" "$b"
	kit_untraced assert_output --partial "fanotify_listeners none → clamonacc (1); agents none → ClamAV on-access scanning (clamonacc)"
}

@test "one chip under two OSes; a run against itself; B/A '-'; newer fields read past; sizes matched" {
	# (was: "the same chip under macOS and Asahi Linux: said so, each case's penalty side by side")
	run_both -0 "$BIN/compare" "$CF/mac-m1" "$CF/asahi-m1"
	kit_untraced assert_line "Same chip (Apple M1), different OS (macOS → Fedora Linux Asahi Remix 40 (KDE Plasma)): each case's penalty under both, side by side."
	kit_untraced assert_line --regexp '^exe \* +1 +all +152\.30 \[140\.10, 170\.20\] +0\.02 \[-0\.03, 0\.06\] .* slowdown → none \(flipped\)$'
	kit_untraced assert_line --regexp '^script \* +1 +all +121\.00 \[110\.50, 130\.00\] +0\.02 \[-0\.04, 0\.08\] .* slowdown → none \(flipped\)$'
	kit_untraced assert_output --partial "os Darwin → Linux"
	# two runs of one machine name no chip line; two chips are named as such
	run_both -0 "$BIN/compare" "$CF/online" "$CF/offline"
	kit_untraced refute_output --partial "chip"
	run_both -0 "$BIN/compare" "$CF/online" "$CF/asahi-m1"
	kit_untraced assert_line "Different chips (Apple M1 Pro → Apple M1): the penalties compare machines as well as settings."
	# (was: "a run compared with itself is allowed: nothing flips, nothing differs")
	run_sep "$BIN/compare" "$CF/online" "$CF/online"
	assert_success
	assert_equal "$stderr" ""
	kit_untraced assert_line "Verdicts that flipped: none (of 6 configurations in both runs)"
	kit_untraced assert_line --partial "Conditions that differ: none"
	kit_untraced assert_line --regexp '^exe \* +1 +all +152\.30 \[140\.10, 170\.20\] +152\.30 \[140\.10, 170\.20\] +1\.00 +slowdown \(same\)$'
	kit_untraced refute_line --partial "Only in"
	# (was: "B/A is '-' when A has no positive penalty")
	variant negative
	run_both -0 "$BIN/compare" "$v" "$CF/offline"
	kit_untraced assert_line --regexp '^script-via-sh \* +1 +all +-0\.30 \[-0\.20, 0\.40\] +0\.05 \[-0\.10, 0\.30\] +- +none \(same\)$'
	# (was: "fields added by newer kits are read past, not required")
	variant extra
	run_both -0 "$BIN/compare" "$v" "$CF/offline"
	kit_untraced assert_line --regexp '^exe \* +1 +all +152\.30 \[140\.10, 170\.20\] +35\.10 \[30\.00, 41\.00\] +0\.23 +slowdown \(same\)$'
	# (was: "configurations at several sizes (SIZE) are matched size by size, and named with it")
	# A: exe at 16 KiB and 1 MiB; B: the same two, the 1 MiB one slower, and 8 MiB
	local a
	variant sized-a
	a=$v
	variant sized-b
	run_both -0 "$BIN/compare" "$a" "$v"
	kit_untraced assert_line --regexp '^exe +1 +all 1 MiB +4\.00 \[[-0-9., ]+\] +40\.00 \[[-0-9., ]+\] +10\.00 '
	kit_untraced assert_line --regexp '^exe +1 +all 16 KiB '
	kit_untraced assert_line --partial "Only in B: exe T=1 all 8 MiB"
}

@test "refused in one clear line, exit 2: a missing, unfinished, other or bad run; bad usage; --help is 0" {
	# (was: "a missing, unfinished, other-version or corrupt run: one clear line each, exit 2")
	# a missing run, a folder that is not a finished run (no run.json), a run of another schema version, a corrupt run.json: one clear line each, exit 2
	# a missing run: one clear line, exit 2
	run_sep "$BIN/compare" "$BATS_TEST_TMPDIR/no-such-run" "$CF/offline"
	one_line_exit_2
	assert_equal "$stderr" "compare: A: $BATS_TEST_TMPDIR/no-such-run: no such run (neither a run folder nor a run.json)"
	run_sep make -s --no-print-directory -C "$ROOT" compare A="$CF/online" B="$BATS_TEST_TMPDIR/no-such-run"
	assert_equal "$status" 2
	[[ "${stderr_lines[0]}" == "compare: B: "* ]] || fail "stderr: $stderr"
	# a folder that is not a finished run (no run.json): one clear line, exit 2
	mkdir -p "$BATS_TEST_TMPDIR/unfinished"
	run_sep "$BIN/compare" "$CF/online" "$BATS_TEST_TMPDIR/unfinished"
	one_line_exit_2
	assert_equal "$stderr" "compare: B: $BATS_TEST_TMPDIR/unfinished: no run.json in this folder (not a finished run)"
	# a run of another schema version: one clear line, exit 2
	run_sep "$BIN/compare" "$CF/online" "$CF/schema2"
	one_line_exit_2
	assert_equal "$stderr" "compare: B: $CF/schema2/run.json: schema_version 2 is not the version this kit reads (1); use the kit that wrote it"
	# a corrupt run.json: one clear line, exit 2
	run_sep "$BIN/compare" "$CF/corrupt" "$CF/online"
	one_line_exit_2
	[[ "$stderr" == "compare: A: $CF/corrupt/run.json: not valid JSON (line "* ]] || fail "stderr: $stderr"
	# (was: "a run.json of another program or missing a field: one line naming it, exit 2")
	variant other
	run_sep "$BIN/compare" "$v" "$CF/online"
	one_line_exit_2
	assert_equal "$stderr" "compare: A: $v/run.json: not an execlag run.json (schema is not \"execlag-run\")"
	variant nothreads
	run_sep "$BIN/compare" "$CF/online" "$v"
	one_line_exit_2
	assert_equal "$stderr" "compare: B: $v/run.json: cases[1].configs[0].threads is missing or not a whole number >= 1"
	variant badverdict
	run_sep "$BIN/compare" "$CF/online" "$v"
	one_line_exit_2
	assert_equal "$stderr" "compare: B: $v/run.json: cases[0].verdict is missing or not slowdown, none, inconclusive or hang"
	# (was: "not two runs, or an unknown option: one clear line, exit 2; --help exits 0")
	run_sep "$BIN/compare" "$CF/online"
	one_line_exit_2
	run_sep "$BIN/compare" "$CF/online" "$CF/offline" "$CF/online"
	one_line_exit_2
	run_sep "$BIN/compare" --frobnicate "$CF/online" "$CF/offline"
	one_line_exit_2
	run_sep make -s --no-print-directory -C "$ROOT" compare
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "compare: give two runs, A and B: compare A B, or make compare A=<run> B=<run>"
	run_sep "$BIN/compare" -- "$CF/online" "$CF/offline" "$CF/online"
	one_line_exit_2
	# after --, a name starting with '-' is a run, not an option
	run_sep "$BIN/compare" -- --frobnicate "$CF/offline"
	one_line_exit_2
	assert_equal "$stderr" "compare: A: --frobnicate: no such run (neither a run folder nor a run.json)"
	run_both -0 "$BIN/compare" --help
	kit_untraced assert_line --index 0 "usage: compare [--results DIR] [--] A B"
}

@test "the fixture runs are exactly what make-fixtures writes" {
	mkdir -p "$BATS_TEST_TMPDIR/gen"
	cp "$CF/make-fixtures" "$BATS_TEST_TMPDIR/gen/"
	run_both -0 sh "$BATS_TEST_TMPDIR/gen/make-fixtures"
	local d
	for d in online offline schema2 corrupt; do
		cmp "$CF/$d/run.json" "$BATS_TEST_TMPDIR/gen/$d/run.json" || fail "$d/run.json differs from what make-fixtures writes"
	done
}

# The checker's health before any launch (issue 43): a storming checker
# before the relief, a well one after, as make doctor asks for; a run of an
# older kit has none, and a pair of such runs shows no checker at all.
@test "the checker's state and figures of two runs side by side: before and after the relief" {
	local a b
	variant storm
	a=$v
	variant well
	b=$v
	run_both -0 "$BIN/compare" "$a" "$b"
	kit_untraced assert_line 'The checker before any launch (docs/method.md, "When the checker is sick"):'
	kit_untraced assert_line --regexp '^state +storm +well$'
	kit_untraced assert_line --regexp '^record +machine +machine$'
	kit_untraced assert_line --regexp '^assessment +accepted +accepted$'
	kit_untraced assert_line --regexp '^syspolicyd +20\.0% CPU, 204800 KiB +0\.0% CPU, 139264 KiB$'
	kit_untraced assert_line --regexp "^log +440\.0 a second not the kit's, 26400 lines in all +0\.0 a second not the kit's, 2 lines in all$"
	kit_untraced assert_line --regexp '^driver +/Applications/Codex\.app/Contents/MacOS/Codex +-$'
	run_both -0 "$BIN/compare" "$CF/online" "$b"
	kit_untraced assert_line --regexp '^state +\(not read: an older kit\) +well$'
	# a pair of runs of older kits shows no checker at all: online and
	# offline's compare (the second test) has no line of it either
	run_both -0 "$BIN/compare" "$CF/online" "$CF/offline"
	kit_untraced refute_line --partial "The checker before any launch"
}
