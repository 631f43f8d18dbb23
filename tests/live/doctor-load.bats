#!/usr/bin/env bats
# make doctor on the control (Linux, nothing that holds a new program) with a
# CPU hog on each core, 20 times: it must never call a penalty there, and it
# prints how many of the 20 said none, how many unclear, and how long each
# took (a measurement, not a timing assertion; docs/method.md, "make
# doctor's probe").  Skips where something holds launches here.

load ../test_helper/common-setup

setup() {
	_common_setup
	export TMPDIR="$BATS_TEST_TMPDIR"
	make -C "$ROOT" -s micro/bin/mkfresh micro/bin/launch micro/bin/analyze micro/bin/advise \
		micro/bin/devtools >/dev/null
}

teardown() {
	[ -z "${HOGS:-}" ] || kill $HOGS 2>/dev/null || true
}

@test "the control under a CPU hog on each core: 20 doctors, never a penalty; the count of none" {
	# the kit's own gate and execwatch (other tests') mark only their own
	# folders; anything else may hold this test's launches
	run -0 sh "$ROOT/scripts/probe/sysinfo"
	local others
	others=$(printf '%s\n' "$output" | sed -n 's/^fanotify_listeners=//p' | tr ',' '\n' |
		sed 's/^ *//' | grep -v -e '^gate (' -e '^execwatch (' -e '^none$' -e '^not read' || true)
	[ -z "$others" ] || skip "something may hold launches here: fanotify listeners $others"
	local i n=${DOCTOR_RUNS:-20} none=0 unclear=0 other=0 t0 t1 times="" over5=0 progs
	HOGS=""
	for i in $(seq 1 "$(getconf _NPROCESSORS_ONLN)"); do
		sh -c 'while :; do :; done' &
		HOGS="$HOGS $!"
	done
	for i in $(seq 1 "$n"); do
		t0=$(date +%s%N)
		run sh "$ROOT/scripts/doctor"
		t1=$(date +%s%N)
		[ "$status" != 1 ] || fail "run $i: a penalty on the control: ${lines[${#lines[@]} - 1]}"
		case $status in 0) none=$((none + 1)) ;; 3) unclear=$((unclear + 1)) ;; *) other=$((other + 1)) ;; esac
		times="$times $(( (t1 - t0) / 100000000 ))"
		[ $(( (t1 - t0) / 1000000 )) -le 5000 ] || over5=$((over5 + 1))
		# how many programs its looks took (8 ... 128 on Linux)
		progs=$(printf '%s\n' "$output" | sed -n 's/^probe: \([0-9]*\) new programs.*/\1/p')
		echo "# run $i: exit $status in $(( (t1 - t0) / 1000000 )) ms, ${progs:-no} programs: ${lines[${#lines[@]} - 1]}" >&3
	done
	echo "# doctor under a hog on each core: none in $none of $n, unclear $unclear, other $other; $over5 took over 5 s (tenths of s:$times); load $(cut -d' ' -f1-3 /proc/loadavg)" >&3
}
