#!/usr/bin/env bats
# scripts/probe/logcount: macOS's unified log over a command's window
# (log show, here the fake of tests/fakes/bin/log replaying a state's
# log.out) counted into checks and programs, inside the command's folders,
# outside them and unnamed; nothing of the log kept (docs/measure.md).
# tests/measure.bats checks what make measure makes of the counts.

load test_helper/common-setup

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
	FAKE_STATE="$big" run -0 sh "$ROOT/scripts/probe/logcount" \
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
	FAKE_STATE="$ROOT/tests/fakes/states/measure-long" run -0 sh "$ROOT/scripts/probe/logcount" \
		--start "2026-09-10 11:00:00" --end "2026-09-10 11:16:00" \
		--out "$D/lc/c.tsv" --root /Users/jappleseed/src/app --root "$tmp" --programs "$D/lc/p.txt"
	for kv in performscan=1008 inside=232 outside=512 unplaced=264 checks=496 programs_named=232; do
		grep -qx "${kv%%=*}	${kv#*=}" "$D/lc/c.tsv" || fail "no ${kv%%=*} ${kv#*=} in $(cat "$D/lc/c.tsv")"
	done
	assert_equal "$(wc -l <"$D/lc/p.txt" | tr -d ' ')" 232
	assert_equal "$(grep -c "^$tmp/rustdoctest" "$D/lc/p.txt")" 32
}
