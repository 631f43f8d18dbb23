#!/usr/bin/env bats
# make compare / micro/compare: two runs side by side, checked against the
# fixture runs in tests/fixtures/compare (README.md there has the table
# worked out by hand) and a golden output.

load test_helper/common-setup

setup() {
	_common_setup
	[ -x "$BIN/compare" ] || fail "$BIN/compare is missing: run 'make micro/bin/compare'"
	CF="$FIXTURES/compare"
}

# variant NAME JQ-FILTER: a copy of the online run edited by jq, in
# $BATS_TEST_TMPDIR/NAME (its path is printed).
variant() {
	mkdir -p "$BATS_TEST_TMPDIR/$1"
	jq "$2" "$CF/online/run.json" >"$BATS_TEST_TMPDIR/$1/run.json"
	printf '%s\n' "$BATS_TEST_TMPDIR/$1"
}

# one_line_exit_2: the last run failed with status 2, one line on stderr
# naming the program, nothing on stdout.
one_line_exit_2() {
	assert_equal "$status" 2
	assert_equal "$output" ""
	assert_equal "${#stderr_lines[@]}" 1
	[[ "${stderr_lines[0]}" == compare:* ]] || fail "stderr: $stderr"
}

@test "make compare on the online and offline fixture runs prints the expected table" {
	run --separate-stderr make -s --no-print-directory -C "$ROOT" compare A="$CF/online" B="$CF/offline"
	assert_success
	assert_equal "$stderr" ""
	diff -u "$CF/online-offline.expected" <(printf '%s\n' "$output") || fail "output differs from online-offline.expected"
}

# (one compare of the online and offline runs read by what were four
# tests, each running it again)
@test "online vs offline: penalties, intervals, B/A, flipped verdicts, the conditions that differ, a toggle" {
	# online vs offline: each configuration's penalties with intervals and the ratio B/A; the flipped verdicts and the cases in one run; the network conditions differ and no other; how to toggle by hand
	run -0 "$BIN/compare" "$CF/online" "$CF/offline"
	# each configuration in both runs shows both penalties with intervals and the ratio B/A
	assert_line --regexp '^exe \* +1 +all +152\.30 \[140\.10, 170\.20\] +35\.10 \[30\.00, 41\.00\] +0\.23 +slowdown \(same\)$'
	assert_line --regexp '^exe +8 +all +980\.50 \[900\.00, 1100\.25\] +250\.00 \[230\.00, 270\.00\] +0\.25 +slowdown \(same\)$'
	assert_line --regexp '^script \* +1 +all +121\.00 \[110\.50, 130\.00\] +0\.40 \[0\.10, 0\.90\] +0\.0033 +slowdown → none \(flipped\)$'
	assert_line --regexp '^script-via-sh \* +1 +all +0\.10 \[-0\.20, 0\.40\] +0\.05 \[-0\.10, 0\.30\] +0\.50 +none \(same\)$'
	# the verdicts that flipped are named, and the cases in only one run are listed
	assert_line "Verdicts that flipped (2 of 5 configurations in both runs):"
	assert_line "  script T=1 all: slowdown → none (121.00 → 0.40 ms)"
	assert_line "  script T=8 all: slowdown → inconclusive (800.00 → 2.00 ms)"
	# the summary leads: it comes before the table
	assert_equal "${lines[3]}" "Verdicts that flipped (2 of 5 configurations in both runs):"
	assert_line "Only in A: dylib T=1 all"
	assert_line "Only in B: exe-hardlink T=1 all"
	# the conditions that differ are the network ones and no other
	assert_line "Conditions that differ: network online → offline; network_interface en0 → none"
	refute_line --partial "Run settings that differ"
	# the report says how to toggle Developer Tools, the network and SIP (Recovery only) by hand
	assert_output --partial "System Settings › Privacy & Security ›
  Developer Tools"
	assert_output --partial "only makes Terminal appear in that list"
	assert_output --partial "turn Wi-Fi off"
	assert_output --partial "can only be changed from Recovery"
	assert_line "Then re-run with A's settings: make repro CASES=exe,script,script-via-sh,dylib THREADS=1,8 COUNT=20"
	assert_line "and compare: make compare A=20260301T101500Z-a1b2c3 B=<the new run>"
	refute_output --partial "Calibration gate"
}

@test "Developer Tools, SIP and run settings that differ are named too" {
	local b
	b=$(variant devtools '.conditions.devtools = "authorized" | .conditions.sip = "disabled" | .conditions["run.count"] = "40"')
	run -0 "$BIN/compare" "$CF/online" "$b"
	assert_line "Conditions that differ: sip enabled → disabled; devtools denied → authorized"
	assert_line "Run settings that differ: run.count 20 → 40"
	assert_line --partial "- Developer Tools (A: denied, B: authorized): System Settings › Privacy & Security ›"
}

@test "Linux gate runs: the gate settings that differ are named and the gate toggle is explained" {
	local linux='.conditions.os = "Linux" | .conditions.os_name = "Debian GNU/Linux 12 (bookworm)"
		| .conditions.os_build = "n/a"
		| .conditions["gate.active"] = "1" | .conditions["gate.latency_ms"] = "20"
		| .conditions["gate.workers"] = "1" | .conditions["gate.key"] = "inode"'
	local a b
	a=$(variant gate-a "$linux | .conditions[\"gate.exempt\"] = \"0\"")
	b=$(variant gate-b "$linux | .conditions[\"gate.exempt\"] = \"1\"")
	run -0 "$BIN/compare" "$a" "$b"
	assert_line "Conditions that differ: gate.exempt 0 → 1"
	assert_line "- Calibration gate (Linux, root; A: gate on, B: gate on): change one setting per"
	# the gate needs root: the hint says sudo
	assert_line "Then re-run with A's settings: sudo make repro CASES=exe,script,script-via-sh,dylib THREADS=1,8 COUNT=20 GATE='latency=20 workers=1 key=inode exempt=0'"
	assert_line --partial "A  20260301T101500Z-a1b2c3  Debian GNU/Linux 12 (bookworm), model MacBookPro18,1, network online, calibration gate: latency 20 ms, workers 1, key inode, exempt 0"
	refute_output --partial "Recovery"
}

@test "the same chip under macOS and Asahi Linux: said so, each case's penalty side by side" {
	run -0 "$BIN/compare" "$CF/mac-m1" "$CF/asahi-m1"
	assert_line "Same chip (Apple M1), different OS (macOS → Fedora Linux Asahi Remix 40 (KDE Plasma)): each case's penalty under both, side by side."
	assert_line --regexp '^exe \* +1 +all +152\.30 \[140\.10, 170\.20\] +0\.02 \[-0\.03, 0\.06\] .* slowdown → none \(flipped\)$'
	assert_line --regexp '^script \* +1 +all +121\.00 \[110\.50, 130\.00\] +0\.02 \[-0\.04, 0\.08\] .* slowdown → none \(flipped\)$'
	assert_output --partial "os Darwin → Linux"
	# two runs of one machine name no chip line; two chips are named as such
	run -0 "$BIN/compare" "$CF/online" "$CF/offline"
	refute_output --partial "chip"
	run -0 "$BIN/compare" "$CF/online" "$CF/asahi-m1"
	assert_line "Different chips (Apple M1 Pro → Apple M1): the penalties compare machines as well as settings."
}

@test "a fanotify listener or an agent that came or went is a condition that differs" {
	a=$(variant nolisten '.conditions += {fanotify_listeners: "none", agents: "none"}')
	b=$(variant clamav '.conditions += {fanotify_listeners: "clamonacc (1)", agents: "ClamAV on-access scanning (clamonacc)"}')
	run -0 "$BIN/compare" "$a" "$b"
	assert_output --partial "fanotify_listeners none → clamonacc (1); agents none → ClamAV on-access scanning (clamonacc)"
}

@test "a run compared with itself is allowed: nothing flips, nothing differs" {
	run --separate-stderr "$BIN/compare" "$CF/online" "$CF/online"
	assert_success
	assert_equal "$stderr" ""
	assert_line "Verdicts that flipped: none (of 6 configurations in both runs)"
	assert_line --partial "Conditions that differ: none"
	assert_line --regexp '^exe \* +1 +all +152\.30 \[140\.10, 170\.20\] +152\.30 \[140\.10, 170\.20\] +1\.00 +slowdown \(same\)$'
	refute_line --partial "Only in"
}

@test "B/A is '-' when A has no positive penalty" {
	local a
	a=$(variant negative '(.cases[] | select(.name == "script-via-sh") | .configs[0].penalty_ms.median) = -0.3
		| (.cases[] | select(.name == "script-via-sh") | .penalty_ms.median) = -0.3')
	run -0 "$BIN/compare" "$a" "$CF/offline"
	assert_line --regexp '^script-via-sh \* +1 +all +-0\.30 \[-0\.20, 0\.40\] +0\.05 \[-0\.10, 0\.30\] +- +none \(same\)$'
}

@test "a run is found by its id under --results" {
	mkdir -p "$BATS_TEST_TMPDIR/results"
	cp -R "$CF/online" "$BATS_TEST_TMPDIR/results/20260301T101500Z-a1b2c3"
	cp -R "$CF/offline" "$BATS_TEST_TMPDIR/results/20260301T103000Z-d4e5f6"
	run -0 "$BIN/compare" --results "$BATS_TEST_TMPDIR/results" 20260301T101500Z-a1b2c3 20260301T103000Z-d4e5f6
	diff -u "$CF/online-offline.expected" <(printf '%s\n' "$output") || fail "output differs"
}

@test "fields added by newer kits are read past, not required" {
	local a
	a=$(variant extra '.cases[0].services = {"XprotectService": {"cpu_s": 3.0}} | .logs = {"refused": false}')
	run -0 "$BIN/compare" "$a" "$CF/offline"
	assert_line --regexp '^exe \* +1 +all +152\.30 \[140\.10, 170\.20\] +35\.10 \[30\.00, 41\.00\] +0\.23 +slowdown \(same\)$'
}

# (four ways a run cannot be read, one test)
@test "a missing, unfinished, other-version or corrupt run: one clear line each, exit 2" {
	# a missing run, a folder that is not a finished run (no run.json), a run of another schema version, a corrupt run.json: one clear line each, exit 2
	# a missing run: one clear line, exit 2
	run --separate-stderr "$BIN/compare" "$BATS_TEST_TMPDIR/no-such-run" "$CF/offline"
	one_line_exit_2
	assert_equal "$stderr" "compare: A: $BATS_TEST_TMPDIR/no-such-run: no such run (neither a run folder nor a run.json)"
	run --separate-stderr make -s --no-print-directory -C "$ROOT" compare A="$CF/online" B="$BATS_TEST_TMPDIR/no-such-run"
	assert_equal "$status" 2
	[[ "${stderr_lines[0]}" == "compare: B: "* ]] || fail "stderr: $stderr"
	# a folder that is not a finished run (no run.json): one clear line, exit 2
	mkdir -p "$BATS_TEST_TMPDIR/unfinished"
	run --separate-stderr "$BIN/compare" "$CF/online" "$BATS_TEST_TMPDIR/unfinished"
	one_line_exit_2
	assert_equal "$stderr" "compare: B: $BATS_TEST_TMPDIR/unfinished: no run.json in this folder (not a finished run)"
	# a run of another schema version: one clear line, exit 2
	run --separate-stderr "$BIN/compare" "$CF/online" "$CF/schema2"
	one_line_exit_2
	assert_equal "$stderr" "compare: B: $CF/schema2/run.json: schema_version 2 is not the version this kit reads (1); use the kit that wrote it"
	# a corrupt run.json: one clear line, exit 2
	run --separate-stderr "$BIN/compare" "$CF/corrupt" "$CF/online"
	one_line_exit_2
	[[ "$stderr" == "compare: A: $CF/corrupt/run.json: not valid JSON (line "* ]] || fail "stderr: $stderr"
}

@test "a run.json of another program or missing a field: one line naming it, exit 2" {
	local a
	a=$(variant other '.schema = "something-else"')
	run --separate-stderr "$BIN/compare" "$a" "$CF/online"
	one_line_exit_2
	assert_equal "$stderr" "compare: A: $a/run.json: not an execlag run.json (schema is not \"execlag-run\")"
	a=$(variant nothreads 'del(.cases[1].configs[0].threads)')
	run --separate-stderr "$BIN/compare" "$CF/online" "$a"
	one_line_exit_2
	assert_equal "$stderr" "compare: B: $a/run.json: cases[1].configs[0].threads is missing or not a whole number >= 1"
	a=$(variant badverdict '.cases[0].verdict = "maybe"')
	run --separate-stderr "$BIN/compare" "$CF/online" "$a"
	one_line_exit_2
	assert_equal "$stderr" "compare: B: $a/run.json: cases[0].verdict is missing or not slowdown, none, inconclusive or hang"
}

@test "not two runs, or an unknown option: one clear line, exit 2; --help exits 0" {
	run --separate-stderr "$BIN/compare" "$CF/online"
	one_line_exit_2
	run --separate-stderr "$BIN/compare" "$CF/online" "$CF/offline" "$CF/online"
	one_line_exit_2
	run --separate-stderr "$BIN/compare" --frobnicate "$CF/online" "$CF/offline"
	one_line_exit_2
	run --separate-stderr make -s --no-print-directory -C "$ROOT" compare
	assert_equal "$status" 2
	assert_equal "${stderr_lines[0]}" "compare: give two runs, A and B: compare A B, or make compare A=<run> B=<run>"
	run --separate-stderr "$BIN/compare" -- "$CF/online" "$CF/offline" "$CF/online"
	one_line_exit_2
	# after --, a name starting with '-' is a run, not an option
	run --separate-stderr "$BIN/compare" -- --frobnicate "$CF/offline"
	one_line_exit_2
	assert_equal "$stderr" "compare: A: --frobnicate: no such run (neither a run folder nor a run.json)"
	run -0 "$BIN/compare" --help
	assert_line --index 0 "usage: compare [--results DIR] [--] A B"
}

@test "the fixture runs are exactly what make-fixtures writes" {
	mkdir -p "$BATS_TEST_TMPDIR/gen"
	cp "$CF/make-fixtures" "$BATS_TEST_TMPDIR/gen/"
	run -0 sh "$BATS_TEST_TMPDIR/gen/make-fixtures"
	local d
	for d in online offline schema2 corrupt; do
		cmp "$CF/$d/run.json" "$BATS_TEST_TMPDIR/gen/$d/run.json" || fail "$d/run.json differs from what make-fixtures writes"
	done
}

@test "configurations at several sizes (SIZE) are matched size by size, and named with it" {
	# A: exe at 16 KiB and 1 MiB; B: the same two, the 1 MiB one slower, and 8 MiB
	sized='.cases |= map(if .name == "exe" then .configs = [(.configs[0] | .pad_bytes = 16384),
		(.configs[0] | .pad_bytes = 1048576 | .penalty_ms.median = PEN)] + EXTRA else . end)'
	a=$(variant a "$(printf '%s' "$sized" | sed 's/PEN/4/; s/EXTRA/[]/')")
	b=$(variant b "$(printf '%s' "$sized" | sed 's/PEN/40/; s/EXTRA/[(.configs[0] | .pad_bytes = 8388608)]/')")
	run -0 "$BIN/compare" "$a" "$b"
	assert_line --regexp '^exe +1 +all 1 MiB +4\.00 \[[-0-9., ]+\] +40\.00 \[[-0-9., ]+\] +10\.00 '
	assert_line --regexp '^exe +1 +all 16 KiB '
	assert_line --partial "Only in B: exe T=1 all 8 MiB"
}

@test "output sized for people: no row twice, and a case whose headline moved is named once" {
	local b
	run -0 "$BIN/compare" "$CF/online" "$CF/offline"
	# every table row once: the per-case table that repeated them is gone
	assert_equal "$(printf '%s\n' "$output" | grep -E '^[a-z-]+ (\* )? +[0-9]+ ' | sort | uniq -d)" ""
	refute_line --partial "Per case"
	refute_line --partial "Headlines that differ"
	[ "${#lines[@]}" -le 36 ] || fail "${#lines[@]} lines"
	# B's exe verdict taken from T=8: named, once
	b=$(variant moved '(.cases[] | select(.name == "exe") | .headline.threads) = 8')
	run -0 "$BIN/compare" "$CF/online" "$b"
	assert_line "Headlines that differ (T/class A → B): exe 1/all → 8/all"
	# the same T and class, another size: moved too
	b=$(variant sized '(.cases[] | select(.name == "exe") | .headline.pad_bytes) = 1048576')
	run -0 "$BIN/compare" "$CF/online" "$b"
	assert_line "Headlines that differ (T/class A → B): exe 1/all → 1/all 1 MiB"
}

# The checker's health before any launch (issue 43): a storming checker
# before the relief, a well one after, as make doctor asks for; a run of an
# older kit has none, and a pair of such runs shows no checker at all.
@test "the checker's state and figures of two runs side by side: before and after the relief" {
	local a b
	a=$(variant storm '.conditions += {"checker.state": "storm", "checker.record": "machine",
		"checker.assess": "accepted", "checker.syspolicyd_cpu_pct": "20.0", "checker.syspolicyd_rss_kb": "204800",
		"checker.rate": "440.0", "checker.log_lines": "26400",
		"checker.driver": "/Applications/Codex.app/Contents/MacOS/Codex"}')
	b=$(variant well '.conditions += {"checker.state": "well", "checker.record": "machine",
		"checker.assess": "accepted", "checker.syspolicyd_cpu_pct": "0.0", "checker.syspolicyd_rss_kb": "139264",
		"checker.rate": "0.0", "checker.log_lines": "2"}')
	run -0 "$BIN/compare" "$a" "$b"
	assert_line 'The checker before any launch (docs/method.md, "When the checker is sick"):'
	assert_line --regexp '^state +storm +well$'
	assert_line --regexp '^record +machine +machine$'
	assert_line --regexp '^assessment +accepted +accepted$'
	assert_line --regexp '^syspolicyd +20\.0% CPU, 204800 KiB +0\.0% CPU, 139264 KiB$'
	assert_line --regexp "^log +440\.0 a second not the kit's, 26400 lines in all +0\.0 a second not the kit's, 2 lines in all$"
	assert_line --regexp '^driver +/Applications/Codex\.app/Contents/MacOS/Codex +-$'
	run -0 "$BIN/compare" "$CF/online" "$b"
	assert_line --regexp '^state +\(not read: an older kit\) +well$'
	run -0 "$BIN/compare" "$CF/online" "$CF/offline"
	refute_line --partial "The checker before any launch"
}
