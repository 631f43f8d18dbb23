#!/usr/bin/env bats
# scripts/probe/logcount: macOS's unified log over a command's window
# (log show, here the fake of tests/fakes/bin/log replaying a state's
# log.out) counted into checks and programs, inside the command's folders,
# outside them and unnamed; nothing of the log kept (docs/measure.md).
# tests/measure.bats checks what make measure makes of the counts.

load test_helper/common-setup
load test_helper/quickrun

setup() {
	_common_setup
	D=$BATS_TEST_TMPDIR
	export EXECLAG_LOG="$ROOT/tests/fakes/bin/log"
}

@test "logcount streams: a window of 200,000 checks is counted with nothing of the log kept" {
	local big="$D/bigstate"
	mkdir -p "$big"
	awk 'BEGIN {
		for (i = 0; i < 200000; i++) {
			printf "2026-09-10 10:50:00.100 Df syspolicyd[728:fa0c70] [com.apple.syspolicy.exec:default] GK performScan: PST: (path: %016x), (team: (null)), (id: (null)), (bundle_id: NOT_A_BUNDLE)\n", i
			printf "2026-09-10 10:50:00.250 Df syspolicyd[728:fa0c70] [com.apple.syspolicy.exec:default] GK scan complete: PST: (path: %016x), (team: (null)), (id: (null)), (bundle_id: NOT_A_BUNDLE), 7, 0\n", i
		} }' >"$big/log.out"
	mkdir -p "$D/out"
	FAKE_STATE="$big" run_both -0 sh "$ROOT/scripts/probe/logcount" \
		--start "2026-09-10 10:50:00" --end "2026-09-10 10:51:00" --out "$D/out/c.tsv" --root /x
	grep -qx 'checks	200000' "$D/out/c.tsv"
	grep -qx 'programs	200000' "$D/out/c.tsv"
	# only the counts are written: a few hundred bytes, not the log's 40 MB
	[ "$(wc -c <"$D/out/c.tsv")" -lt 2000 ]
	assert_equal "$(ls -A "$D/out")" c.tsv
}

@test "logcount splits a long window with background checks: named in the folders, outside them, unnamed" {
	# the measure-long state (mkstates): 1008 scans in 16 minutes, 232 named
	# in the project folder and TMPDIR, 512 named outside, 264 named nowhere
	local tmp=/private/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T
	mkdir -p "$D/lc"
	FAKE_STATE="$ROOT/tests/fakes/states/measure-long" run_both -0 sh "$ROOT/scripts/probe/logcount" \
		--start "2026-09-10 11:00:00" --end "2026-09-10 11:16:00" \
		--out "$D/lc/c.tsv" --root /Users/jappleseed/src/app --root "$tmp" --programs "$D/lc/p.txt"
	for kv in performscan=1008 inside=232 outside=512 unplaced=264 checks=496 programs_named=232; do
		grep -qx "${kv%%=*}	${kv#*=}" "$D/lc/c.tsv" || fail "no ${kv%%=*} ${kv#*=} in $(cat "$D/lc/c.tsv")"
	done
	assert_equal "$(wc -l <"$D/lc/p.txt" | tr -d ' ')" 232
	assert_equal "$(grep -c "^$tmp/rustdoctest" "$D/lc/p.txt")" 32
}

# The checker's health (scripts/probe/health): the last minute of every
# syspolicyd line and the kernel's AppleSystemPolicy denials, each line read
# on its own: the program it names, the kit's own, error 24.
@test "logcount --last --checker: the program named most, the kit's own lines apart, error 24, a few quoted" {
	local st="$D/st" c='Df syspolicyd[489:1a2b3c] [com.apple.syspolicy.exec:default]'
	local k='Df kernel[0:2c3d4e] (AppleSystemPolicy) ASP: Security policy would not allow process:'
	mkdir -p "$st" "$D/o"
	cat >"$st/log-last.out" <<EOF
Timestamp               Ty Process[PID:TID]
2026-06-04 14:21:00.100 $c GK process assessment: /var/folders/zz/T/w/own-1 <-- (/bin/sh)
2026-06-04 14:21:00.110 $k 30001, /Applications/A.app/Contents/MacOS/A
2026-06-04 14:21:00.120 $c GK process assessment: /Applications/B.app/Contents/MacOS/B <-- (/sbin/launchd)
2026-06-04 14:21:00.130 $k 30002, /Applications/A.app/Contents/MacOS/A
2026-06-04 14:21:00.140 $c GK process assessment: /Applications/B.app/Contents/MacOS/B <-- (/sbin/launchd)
2026-06-04 14:21:00.150 $c GK Xprotect results: ...,file:///Applications/A.app/Contents/MacOS/A
2026-06-04 14:21:00.160 Df syspolicyd[489:1a2b3c] [com.apple.securityd:security_exception] UNIX error exception: 24
2026-06-04 14:21:00.170 Df syspolicyd[489:1a2b3c] [com.apple.securityd:security_exception] UNIX error exception: 240
2026-06-04 14:21:00.180 $c Failed to generate SecStaticCode for <private> error: 100024
2026-06-04 14:21:00.190 $c Recording cache miss for <private>
EOF
	FAKE_LOG_ARGS="$D/args" FAKE_STATE="$st" run_both -0 sh "$ROOT/scripts/probe/logcount" --last 1m --checker \
		--out "$D/o/c.tsv" --quotes "$D/o/q.txt" --root /private/var/folders/zz/T/w
	for kv in "last=1m" "syspolicyd_lines=8" "own_lines=1" "emfile_lines=2" "asp_lines=2" \
		"top_program=/Applications/A.app/Contents/MacOS/A" "top_program_lines=3" \
		'predicate=process == "syspolicyd" OR (process == "kernel" AND senderImagePath CONTAINS "AppleSystemPolicy")'; do
		grep -qxF "${kv%%=*}	${kv#*=}" "$D/o/c.tsv" || fail "no ${kv%%=*} ${kv#*=} in $(cat "$D/o/c.tsv")"
	done
	run_both grep -c '^start' "$D/o/c.tsv"
	assert_output 0
	# log show was asked for the last minute, not a window
	run_both grep -cx -- --last "$D/args"
	assert_output 1
	run_both grep -cx -- --start "$D/args"
	assert_output 0
	# the first line naming the program named most, error 24's, the other denial
	run_both -0 cat "$D/o/q.txt"
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 --partial "$k 30001, /Applications/A.app"
	assert_line --index 1 --partial "UNIX error exception: 24"
	assert_line --index 2 --partial "error: 100024"
	assert_line --index 3 --partial "$k 30002, /Applications/A.app"
	assert_equal "$(ls -A "$D/o" | tr '\n' ' ')" "c.tsv q.txt "
}

@test "logcount --last: minutes or hours, and not with --start and --end" {
	run_sep sh "$ROOT/scripts/probe/logcount" --last 15s --out "$D/c.tsv"
	assert_equal "$status: $stderr" "2: logcount: --last '15s' is not minutes or hours (1m to 99m, 1h to 99h)"
	run_sep sh "$ROOT/scripts/probe/logcount" --last 1m --start "2026-12-04 10:00:00" \
		--end "2026-12-04 10:00:01" --out "$D/c.tsv"
	assert_equal "$status: $stderr" "2: logcount: --last or --start and --end, not both"
	[ ! -e "$D/c.tsv" ]
}
