#!/usr/bin/env bats
# make measure against the known truth (issue 26, item 5): under the
# calibration gate (20 ms, one worker, key inode) a workload that compiles
# and runs 40 new programs, runs 10 old ones again and reads one script with
# sh.  The measure must count exactly the new launches the gate held (its
# log), its B must lie within 20% of the gate's own summed hold time, and
# its share must be B / W.  On the ungated control L is none and there is no
# share.  Needs Linux and root (fanotify); skips elsewhere, saying why.

load ../test_helper/common-setup

setup_file() {
	gate_probe
}

setup() {
	_common_setup
	[ -z "$GATE_SKIP" ] || skip "$GATE_SKIP"
	command -v cc >/dev/null || skip "no C compiler"
	_run_folders_setup
	P="$D/proj"
	mkdir -p "$P/old"
	# ten old programs, made and run before the measure, in a folder below
	# DIR: the gate, which holds only what was made after it started, lets
	# them through (on a Mac they were checked long ago)
	local j
	for j in 0 1 2 3 4 5 6 7 8 9; do
		printf 'int main(void) { return 0; } /* old %d */\n' "$j" >"$P/old/o$j.c"
		cc -o "$P/old/o$j" "$P/old/o$j.c"
		"$P/old/o$j"
	done
	rm -f "$P"/old/*.c
	cat >"$P/workload.sh" <<'EOF'
#!/bin/sh
# 40 new programs compiled and run, 10 old ones run again, one script read by sh
set -e
i=0
while [ "$i" -lt 40 ]; do
	printf 'int main(void) { return 0; } /* program %d */\n' "$i" >"p$i.c"
	cc -o "p$i" "p$i.c"
	"./p$i"
	i=$((i + 1))
done
for o in old/*; do "./$o"; done
printf 'echo read, not run\n' >script.sh
sh script.sh
EOF
	sleep 0.05 # the old files' birth before the command's start, on a coarse clock
}

# measure_workload [GATE]: the workload measured in $P; $M the measure
measure_workload() {
	rm -f "$P"/p[0-9]* "$P/script.sh"
	rm -rf "${RESULTS:?}"/*
	if [ -n "${1:-}" ]; then
		run --separate-stderr bash -c 'cd "$1" && exec sh "$ROOT/scripts/measure" --gate "$2" -- sh workload.sh' _ "$P" "$1"
	else
		run --separate-stderr bash -c 'cd "$1" && exec sh "$ROOT/scripts/measure" -- sh workload.sh' _ "$P"
	fi
	assert_success
	assert_equal "$output" "read, not run"
	M=$(dirname "$(find "$RESULTS" -mindepth 2 -maxdepth 2 -name measure.json)")
	[ -f "$M/measure.json" ] || fail "no measure: $stderr"
}

field() {
	jq -r "$1" "$M/measure.json"
}

@test "under the gate: N is exactly the launches it held, B within 20% of its hold time, the share B / W" {
	local try held held_s b ok
	for try in 1 2; do
		measure_workload 'latency=20 workers=1 key=inode'
		# the truth, from the gate's own log: new programs it held, and
		# the time it held everything
		held=$(jq -s '[.[] | select(.result == "miss" and .event == "exec")] | length' "$M/gate.log")
		held_s=$(jq -s '[.[] | select(.result != "exempt") | .held_ms] | add / 1000' "$M/gate.log")
		assert_equal "$held" 40
		assert_equal "$(field .fresh_launches)" "$held"
		assert_equal "$(field .fresh_source)" fanotify
		assert_equal "$(field .gate.held_launches)" "$held"
		b=$(field .checker_busy_s.median)
		ok=$(jq -n --argjson b "${b/null/-1}" --argjson h "$held_s" '($b - $h | fabs) <= 0.2 * $h')
		if [ "$(field .penalty_verdict)" = slowdown ] && [ "$(field .checks_queue)" = serialised ] && [ "$ok" = true ]; then
			break
		fi
		echo "# try $try: L $(field .penalty_verdict) $(field .penalty_ms.median) ms, $(field .checks_queue); B $b s against the gate's $held_s s: once more" >&3
	done
	assert_equal "$(field .penalty_verdict)" slowdown
	assert_equal "$(field .checks_queue)" serialised
	assert_equal "$(field .checks_at_once)" 1
	assert_equal "$ok" true
	# the share is B / W, below 100%: the command waited for the checks
	# and did everything else too
	assert_equal "$(jq -r '(.share.median - .checker_busy_s.median / .wall_s) | fabs < 1e-4' "$M/measure.json")" true
	assert_equal "$(field .share_capped)" false
	assert_equal "$(jq -r --argjson h "$held_s" '.wall_s > $h' "$M/measure.json")" true
	# the 10 old programs and the script read by sh are not new launches
	[ "$(field .fresh.old_executions)" -ge 10 ]
	[[ "$(field '.fresh.first_programs[].path')" != *script.sh* ]]
	echo "# W $(field .wall_s) s, N $(field .fresh_launches), L $(field .penalty_ms.median) ms [$(field .penalty_ms.ci_low), $(field .penalty_ms.ci_high)], B $b s (gate held $held_s s), share $(field .share.median)" >&3
}

@test "the ungated control: N still counted, L none, no busy time and no share" {
	local try
	for try in 1 2 3; do
		measure_workload
		[ "$(field .penalty_verdict)" = inconclusive ] || break
		echo "# try $try: L inconclusive ($(field .probe.reason)): once more" >&3
	done
	assert_equal "$(field .fresh_launches)" 40
	assert_equal "$(field .penalty_verdict)" none
	assert_equal "$(field .penalty_ms)" null
	assert_equal "$(field .checker_busy_s)" null
	assert_equal "$(field .share)" null
	assert_equal "$(field .gate)" null
	[[ "$stderr" == *"  L  none: the probe saw no first-launch penalty here"* ]]
	[[ "$stderr" == *"no busy time, and no share"* ]]
	echo "# W $(field .wall_s) s, N $(field .fresh_launches), L none ($(field .probe.reason))" >&3
}

@test "execwatch: a number a process of the command had, given to another's child, is not the command's" {
	[ -w /proc/sys/kernel/ns_last_pid ] || skip "cannot choose the next process number here (/proc/sys/kernel/ns_last_pid)"
	local W="$BATS_TEST_TMPDIR/w" p try got=""
	mkdir -p "$W"
	printf '#!/bin/sh\nexit 0\n' >"$W/tpl"
	chmod +x "$W/tpl"
	# the command: a child that ends at once (its number then free), then
	# a wait during which another process gets that number and runs a
	# program made after the command started
	(cd "$W" && exec "$BIN/execwatch" --out "$W/x.tsv" -- sh -c \
		'sh -c "echo \$\$ >pid"; sleep 4') &
	local xw=$!
	for try in $(seq 1 50); do
		[ -s "$W/pid" ] && break
		sleep 0.05
	done
	p=$(cat "$W/pid")
	cp "$W/tpl" "$W/new"
	for try in $(seq 1 100); do
		echo $((p - 1)) >/proc/sys/kernel/ns_last_pid
		# exec: bats' traps would make the subshell fork once more
		got=$(exec sh -c 'echo $$; exec "$1"' sh "$W/new") && [ "$got" = "$p" ] && break
		got=""
	done
	wait "$xw"
	[ -n "$got" ] || skip "another process took number $p first, 100 times"
	echo "# process number $p of the command's, then another's: $(grep -E '^(fresh_launches|outside)' "$W/x.tsv" | tr '\t\n' '= ')" >&3
	assert_equal "$(awk -F '\t' '$1 == "fresh_launches" { print $2 }' "$W/x.tsv")" 0
	# another's new program (others on the machine may run theirs too)
	[ "$(awk -F '\t' '$1 == "outside" { print $2 }' "$W/x.tsv")" -ge 1 ]
	run grep -c "	$W/new\$" "$W/x.tsv"
	assert_output 0
}
