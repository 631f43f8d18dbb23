#!/usr/bin/env bats
# The kit against known truth: runs under the calibration gate (Linux,
# root, fanotify) must show exactly what the gate was set to do, and a plain
# run must show nothing.  Skips, saying why, where the gate cannot run.

load ../test_helper/common-setup

# settled_run NAME ARGS...: repro_run, run again once if noise left a
# verdict inconclusive (see inconclusive_cases); prints the run folder
settled_run() {
	local name=$1 dir noisy
	dir=$(repro_run "$@")
	noisy=$(inconclusive_cases "$dir/run.json" 2>/dev/null)
	if [ -n "$noisy" ]; then
		echo "# $name: inconclusive ($noisy) on a busy machine; running it again once" >&3
		rm -rf "${RUNS:?}/$name"
		dir=$(repro_run "$@")
	fi
	printf '%s\n' "$dir"
}

setup_file() {
	_common_setup
	gate_probe
	make -C "$ROOT" -s build >/dev/null
	export RUNS="$BATS_FILE_TMPDIR/runs"
	mkdir -p "$RUNS"
	[ -z "$GATE_SKIP" ] || return 0
	# The quick profile under each cache key, with a single answering worker,
	# its counts fixed (one 95% interval each: the patterns and the key are
	# checked against the truth; sequential stopping has a test of its own).
	settled_run inode --sequential 0 --gate 'latency=20 workers=1 key=inode' >/dev/null
	settled_run path --sequential 0 --gate 'latency=20 workers=1 key=path' >/dev/null
	settled_run content --sequential 0 --gate 'latency=20 workers=1 key=content' >/dev/null
	# A scan-on-open scanner with a content cache (as ClamAV): any open of an
	# artifact's bytes before its first launch would be cached and hide the
	# penalty.  T=1 only: the question is what is opened, not scaling.
	settled_run onopen --sequential 0 --threads 1 --gate 'latency=20 workers=1 key=content on=open' >/dev/null
}

setup() {
	_common_setup
	RUNS="$BATS_FILE_TMPDIR/runs"
	D="$BATS_TEST_TMPDIR"
}

need_gate() { [ -z "$GATE_SKIP" ] || skip "$GATE_SKIP"; }

run_of() { ls -d "$RUNS/$1"/*/ 2>/dev/null | head -n 1; }

# key_is RUN KEY: the cache key inferred from the run is KEY.  Where noise
# left one of the three legs it is read from (exe-hardlink, exe-copy,
# exe-rewrite) inconclusive, the kit says undetermined, which is honest:
# then KEY or undetermined, never another key (as tests/live/clamav.bats),
# and KEY_SOFT=1 tells patterns_hold to leave P3 (the same inference) out.
key_is() {
	local c v soft=''
	KEY_SOFT=''
	for c in exe-hardlink exe-copy exe-rewrite; do
		v=$(field "$1" "$c" .verdict)
		[ "$v" != inconclusive ] || soft="$soft $c"
	done
	echo "# cache key: $(jq -r '"\(.inferred.cache_key) — \(.inferred.reason)"' "$1/run.json")${soft:+ (inconclusive:$soft)}" >&3
	if [ -n "$soft" ]; then
		[[ "$(jq -r '.inferred.cache_key' "$1/run.json")" =~ ^($2|undetermined)$ ]] ||
			{ fail "key $(jq -r '.inferred.cache_key' "$1/run.json"), want $2 or undetermined"; return 1; }
		KEY_SOFT=1
	else
		assert_equal "$(jq -r '.inferred.cache_key' "$1/run.json")" "$2"
	fi
}

# patterns_hold RUN: every applicable pattern test passes on the run (P3
# left out where key_is said KEY_SOFT)
patterns_hold() {
	local f files=''
	for f in "$ROOT"/checks/pattern/*.bats; do
		[ -z "${KEY_SOFT:-}" ] || [ "${f##*/}" != P3-cache-key.bats ] || continue
		files="$files $f"
	done
	# shellcheck disable=SC2086 # the pattern files, no blanks in their paths
	RUN="$1" run bats --tap $files
	# shown as TAP comments, so the nested results are not counted as ours
	printf '%s\n' "$output" | grep -v '^1\.\.' | sed 's/^/# /' >&3
	assert_success
	refute_output --partial "not ok"
}

# field RUN CASE JQ: one value from a case of a run
field() { jq -r --arg c "$2" ".cases[] | select(.name == \$c) | $3" "$1/run.json"; }

# The gate log's median hold of exec misses, in ms.
. "$BATS_TEST_DIRNAME/../../scripts/lib/median"
held_median() {
	jq -r 'select(.result == "miss" and .event == "exec") | .held_ms' "$1/gate.log" | median
}

# within PENALTY TRUTH: |penalty - truth| <= max(20% of truth, 1 ms)
within() {
	awk -v p="$1" -v t="$2" 'BEGIN { d = p - t; if (d < 0) d = -d; tol = 0.2 * t; if (tol < 1) tol = 1; exit !(d <= tol) }'
}

@test "gate key=inode workers=1: every applicable pattern holds and the key inferred is inode" {
	need_gate
	r=$(run_of inode)
	[ -f "$r/run.json" ]
	key_is "$r" inode
	assert_equal "$(jq -r '.gate.key' "$r/run.json")" inode
	grep -q 'calibration gate' "$r/report.md"
	patterns_hold "$r"
}

@test "sequential stopping: a 150 ms queue is certain at the first looks, serialised, the penalty within 5%" {
	# make repro's default; certain at the first look at T=1 (8 of 20) and after 8 sharp rounds at T=2 (16 of 20)
	need_gate
	local r p
	r=$(repro_run seq --gate 'latency=150 workers=1 key=inode' --cases exe --threads 1,2)
	[ -f "$r/run.json" ] || fail "$(tail -n 3 "$RUNS/seq.out")"
	assert_equal "$(jq -r '.conditions["run.sequential"]' "$r/run.json")" 1
	assert_equal "$(field "$r" exe '.configs[] | select(.threads == 1) | .sequential | "\(.launched) of \(.planned): \(.stopped)"')" "8 of 20: slowdown"
	# one worker: each round of two costs about 300 ms more, a queue, and
	# the rounds are sharp enough to stop before the 10 of a small cost
	# (the loose case that waits for 10: tests/launch.bats)
	assert_equal "$(field "$r" exe '.configs[] | select(.threads == 2) | .sequential | "\(.launched) \(.stopped)"')" "16 slowdown"
	assert_equal "$(field "$r" exe .verdict)" slowdown
	assert_equal "$(field "$r" exe .serialisation)" serialised
	[[ "$(field "$r" exe .reason)" == *"(a 99.22% interval: look 1 of 4)" ]] || fail "$(field "$r" exe .reason)"
	grep -q '^- exe T=1 all: 8 of 20 artifacts (looks at 8,12,16,20+40,60), stopped: slowdown certain\.$' "$r/report.md"
	# the artifacts were made as the looks needed them: 8 for T=1, and for
	# T=2 up to the look each block reached (8, 12, 16), none past the stop
	assert_equal "$(awk -F '\t' '$1 == "n" { print $2 }' "$r/raw/exe-t1-all.manifest")" 8
	assert_equal "$(awk -F '\t' '$1 == "n" { print $2 }' "$r/raw/exe-t2-all.manifest")" 16
	grep -q '^execlag: \[1/2\] exe T=1 class=all: making 8 fresh artifacts (more, up to 20, if its looks need them; up to 60 to settle an interval across the floor)$' "$RUNS/seq.out" ||
		fail "$(grep 'making' "$RUNS/seq.out")"
	# stopping early does not bias the estimate: within 5% of the hold
	p=$(field "$r" exe .penalty_ms.median)
	echo "# 150 ms gate, sequential: exe penalty $p ms at T=1; $(field "$r" exe .serialisation_reason)" >&3
	awk -v p="$p" 'BEGIN { exit !(p > 142.5 && p < 157.5) }' || fail "penalty $p ms, want 150 ± 5%"
}

@test "gate key=path: every applicable pattern holds and the key inferred is path" {
	need_gate
	r=$(run_of path)
	key_is "$r" path
	patterns_hold "$r"
}

@test "gate key=content: every applicable pattern holds and the key inferred is content" {
	need_gate
	r=$(run_of content)
	key_is "$r" content
	patterns_hold "$r"
}

@test "a plain run (no gate) satisfies the no-penalty expectation of every pattern" {
	[ "$(uname -s)" = Linux ] || skip "the plain control is Linux"
	r=$(settled_run plain --cases exe,script,script-via-sh,exe-hardlink,exe-copy,exe-rewrite,dylib,system-copy)
	assert_equal "$(jq -r '.conditions["gate.active"]' "$r/run.json")" 0
	patterns_hold "$r"
}

@test "at T=1 the penalty is within 20% or 1 ms of the gate's own held time, at 20 ms" {
	need_gate
	r=$(run_of inode)
	truth=$(held_median "$r")
	p=$(jq -r '.cases[] | select(.name == "exe") | .configs[] | select(.threads == 1) | .penalty_ms.median' "$r/run.json")
	echo "# 20 ms gate: penalty $p ms, gate held $truth ms" >&3
	within "$p" "$truth"
}

@test "at T=1 the penalty is within 20% or 1 ms of the gate's own held time, at 5 ms" {
	need_gate
	r=$(settled_run lat5 --gate 'latency=5 workers=1 key=inode' --cases exe --threads 1)
	truth=$(held_median "$r")
	p=$(field "$r" exe .penalty_ms.median)
	echo "# 5 ms gate: penalty $p ms, gate held $truth ms" >&3
	within "$p" "$truth"
	assert_equal "$(field "$r" exe .verdict)" slowdown
}

@test "workers=1: the first pass does not scale with threads and the verdict names the serialisation" {
	need_gate
	r=$(run_of inode)
	s=$(jq -r '[.cases[] | select(.name == "exe") | .scaling[] | select(.class == "all")] | max_by(.threads) | .first' "$r/run.json")
	echo "# workers=1: first-pass scaling at T=cores x$s" >&3
	awk -v s="$s" 'BEGIN { exit !(s <= 1.25) }'
	assert_equal "$(field "$r" exe .serialisation)" serialised
	run grep -E '^exe: slowdown \(serialised\)' "$RUNS/inode.out"
	assert_success
}

@test "workers >= cores: the first pass scales like the repeat pass" {
	need_gate
	ncpu=$(getconf _NPROCESSORS_ONLN)
	[ "$ncpu" -gt 1 ] || skip "needs more than one core"
	r=$(settled_run parallel --gate "latency=20 workers=$ncpu key=inode" --cases exe)
	s=$(jq -r '[.cases[] | select(.name == "exe") | .scaling[] | select(.class == "all")] | max_by(.threads) | .first' "$r/run.json")
	echo "# workers=$ncpu: first-pass scaling at T=$ncpu x$s" >&3
	awk -v s="$s" 'BEGIN { exit !(s > 1.25) }'
	assert_equal "$(field "$r" exe .serialisation)" parallel
}

@test "exempt=1: the kit's own launches pass the gate and no case has a penalty" {
	need_gate
	r=$(settled_run exempt --gate 'latency=20 workers=1 key=inode exempt=1' --cases exe,script,dylib --threads 1)
	patterns_hold "$r"
	assert_equal "$(jq '[.cases[] | select(.verdict != "none")] | length' "$r/run.json")" 0
	# the gate saw the launches and let them through as exempt
	[ "$(grep -c '"result":"exempt"' "$r/gate.log")" -gt 0 ]
}

@test "per_mb=2: the kit's slope over SIZE is within 20% of the gate's 2 ms per MiB; a hard link's none" {
	# the gate's hold grows 2 ms per MiB
	need_gate
	local r slope
	r=$(settled_run sizes --gate 'latency=2 workers=1 key=inode per_mb=2' --cases exe,exe-hardlink,dylib \
		--threads 1 --sizes 16k,1m,8m)
	assert_equal "$(jq -r '.gate.per_mb_ms' "$r/run.json")" 2
	validate_run_json "$r/run.json"
	for c in exe dylib; do
		slope=$(field "$r" "$c" '.size_slopes[0].ms_per_mib')
		echo "# per_mb=2: $c penalty $(field "$r" "$c" '[.configs[] | "\(.pad_bytes): \(.penalty_ms.median)"] | join(", ")') ms; slope $slope [$(field "$r" "$c" .size_slopes[0].low), $(field "$r" "$c" .size_slopes[0].high)] ms per MiB" >&3
		assert_equal "$(field "$r" "$c" .size_slopes[0].sizes)" 3
		assert_equal "$(field "$r" "$c" .size_slopes[0].verdict)" slowdown
		awk -v s="$slope" 'BEGIN { exit !(s > 1.6 && s < 2.4) }' || fail "$c: slope $slope ms per MiB, want 2 ± 20%"
	done
	# a hard link of a known inode is never held, at any size: no growth
	# (none, or on a busy machine an interval too wide to say so)
	case $(field "$r" exe-hardlink .size_slopes[0].verdict) in
	none | inconclusive) ;;
	*) fail "exe-hardlink: $(field "$r" exe-hardlink .size_slopes[0].reason)" ;;
	esac
	# the plot shows each size, the report the slope
	grep -q '>exe, 8 MiB<' "$r/plot-launch.svg"
	grep -q '^  Size (T=1, class all): slowdown — the penalty grows' "$r/report.md"
}

@test "every=3: each launch in the work folder costs 3 ms more; without it, the gate's round trip alone" {
	# measured against the reference outside it
	need_gate
	local r base c cost held over want
	# a fixed count: the every-launch cost is estimated from all 20 pairs
	# (sequential stopping would end at 8, once the 10 ms penalty is certain),
	# beside a run of its own without every
	r=$(settled_run every --gate 'latency=10 workers=1 key=inode every=3' --cases exe,script,dylib --threads 1 --count 20)
	base=$(settled_run every0 --gate 'latency=10 workers=1 key=inode' --cases exe,script,dylib --threads 1 --count 20)
	assert_equal "$(jq -r '.gate.every_ms' "$r/run.json")" 3
	for c in exe script dylib; do
		# a dylib launch is two events in the work folder: its host's exec
		# and the library's open
		held=1
		[ "$c" != dylib ] || held=2
		want=$((3 * held))
		cost=$(field "$r" "$c" .every_launch.cost_ms.median)
		# the gate's own round trip per held event, measured without every
		over=$(field "$base" "$c" .every_launch.cost_ms.median)
		# the gate without every holds nothing, but each launch in the work
		# folder still waits for the gate's answer: a few tenths of a ms on
		# a quiet machine, which the 1 ms floor hides (none, or inconclusive
		# where noise leaves the interval across it), and several ms where
		# the machine is loaded and the gate waits for a core (CI once saw a
		# dylib's two events cost [2.79, 6.18] ms at load 7.7).  That cost
		# is real, so a slowdown there is a true verdict; what must hold is
		# that it is the round trip alone: well under the cost with every=3
		case $(field "$base" "$c" .every_launch.verdict) in
		none | inconclusive) ;;
		slowdown)
			echo "# every=3: $c without every: $(field "$base" "$c" .every_launch.reason) (the gate's round trip on a busy machine)" >&3
			awk -v c="$cost" -v o="$over" -v w="$want" 'BEGIN { exit !(o < c - 0.5 * w) }' ||
				fail "$c: without every $over ms, with every=3 $cost ms: the hold does not show above the round trip"
			;;
		*) fail "$c: without every, $(field "$base" "$c" .every_launch.reason)" ;;
		esac
		echo "# every=3: $c costs $cost ms more per launch than the reference, $over without every; truth $want ($held held event(s)); first-launch penalty $(field "$r" "$c" .penalty_ms.median) ms" >&3
		assert_equal "$(field "$r" "$c" .every_launch.verdict)" slowdown
		# the truth is the hold plus the gate's own round trip per held
		# event (0.06-0.7 ms here, measured without every: more under
		# SANITIZE=1); subtracting that separate, noisy run's median only
		# adds its noise, so the cost is held to the hold ± 20%, with room
		# above it for the round trip: 0.5 ms per held event, or twice the
		# cost measured without every where that is more (sanitized
		# programs make the round trip longer, and that run measures it)
		awk -v c="$cost" -v w="$want" -v h="$held" -v o="$over" 'BEGIN {
			rt = 0.5 * h; if (2 * o > rt) rt = 2 * o
			exit !(c > 0.8 * w && c < 1.2 * w + rt) }' ||
			fail "$c: every-launch cost $cost ms ($over without every), want $want ± 20% (+ the round trip: 0.5 ms per held event, or twice the cost without every)"
		# the first launch pays the latency on top, and the pair still shows it
		awk -v p="$(field "$r" "$c" .penalty_ms.median)" 'BEGIN { exit !(p > 8 && p < 12) }' ||
			fail "$c: penalty $(field "$r" "$c" .penalty_ms.median) ms, want 10 ± 20%"
	done
	run grep -E '^exe: every launch in the work folder costs [0-9.]+ ms more than outside' "$RUNS/every.out"
	assert_success
}

@test "a gate killed mid-run: the run finishes and the report names the failure" {
	need_gate
	mkdir -p "$RUNS/killed" "$D/tmp"
	TMPDIR="$D/tmp" RESULTS="$RUNS/killed" sh "$ROOT/scripts/repro" \
		--gate 'latency=20 workers=1 key=inode' --cases exe,script,exe-copy --threads 1 \
		>"$D/out" 2>&1 3>&- &
	pid=$!
	# wait for the gate to hold something, then kill it outright
	i=0
	until [ -n "$(find "$RUNS/killed" -name gate.log -size +1 2>/dev/null)" ] || [ $i -ge 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.5
	pkill -KILL -f "micro/bin/gate --dir $D/tmp/"
	rc=0
	wait "$pid" || rc=$?
	assert_equal "$rc" 0
	r=$(run_of killed)
	[ -f "$r/run.json" ]
	grep -qi 'gate.*exited' "$r/report.md"
	jq -e '.conditions["gate.failure"] | test("exited")' "$r/run.json"
	assert_equal "$(find "$D/tmp" -mindepth 1 | wc -l | tr -d ' ')" 0
}

@test "scan on open, content key: no artifact's bytes are opened before its first launch" {
	# the gate's first event for an artifact is that launch, a miss
	need_gate
	local r
	r=$(run_of onopen)
	[ -n "$r" ] || fail "the on=open run did not finish: $(tail -n 3 "$RUNS/onopen.out")"
	assert_equal "$(jq -r '.gate.on' "$r/run.json")" open
	# every artifact of the assessed cases: its first event in the gate's log
	# is its own launch - exec, sh's open of the script, or the host's open
	# of the library - and a miss, so nothing opened the same bytes before
	local c m kind n=0 bad=""
	for c in exe script script-via-sh dylib; do
		case $c in script-via-sh) kind=open ;; dylib) kind=library ;; *) kind=exec ;; esac
		m=$(ls "$r"/raw/"$c"-t1-*.manifest | grep -v "\.ref\.manifest$")
		while IFS= read -r obj; do
			n=$((n + 1))
			got=$(jq -r --arg o "$obj" 'select(.object == $o) | "\(.event) \(.result)"' "$r/gate.log" | head -n 1)
			[ "$got" = "$kind miss" ] || bad="$bad $c:${obj##*/}=($got)"
		done < <(awk -F '\t' '$1 == "artifact" { print $3 }' "$m")
	done
	[ -z "$bad" ] || fail "opened before the first launch:$bad"
	echo "# $n artifacts: the first event of each was its launch, a miss" >&3
	# so the kit sees the penalty of every assessed case, and the key
	for c in exe script script-via-sh dylib; do
		assert_equal "$(field "$r" "$c" .verdict)" slowdown
	done
	assert_equal "$(jq -r '.inferred.cache_key' "$r/run.json")" content
	# hyperfine's first runs (a fresh file renamed in each time, with bytes
	# of its own) see it as well
	if [ "$(jq -r '.hyperfine.status' "$r/run.json")" = done ]; then
		for c in exe script; do
			jq -e --arg c "$c" '.hyperfine.cases[] | select(.case == $c) | .penalty_ms > 15' "$r/run.json" >/dev/null ||
				fail "hyperfine's $c penalty under on=open: $(jq -c --arg c "$c" '.hyperfine.cases[] | select(.case == $c)' "$r/run.json")"
		done
	fi
}

@test "scan on open: P2 (interpreter bypass) does not hold, since sh x.sh reads the file and pays" {
	need_gate
	local r
	r=$(run_of onopen)
	[ -n "$r" ] || fail "the on=open run did not finish"
	RUN="$r" run bats --tap "$ROOT/checks/pattern/P2-interpreter-bypass.bats"
	printf '%s\n' "$output" | grep -v '^1\.\.' | sed 's/^/# /' >&3
	assert_failure
	assert_output --partial "on every open"
	assert_output --regexp "script-via-sh: penalty [0-9.]+ ms .*slowdown — expected none"
}

# grid_verdicts RUN: "case=serialisation" for every case with a slowdown
grid_verdicts() {
	jq -r '[.cases[] | select(.verdict == "slowdown") | "\(.name)=\(.serialisation)"] | join(" ")' "$1/run.json"
}

@test "serialisation right at every cost: latency 2, 4, 7 and 20 ms x workers 1 and 2, at T=2" {
	need_gate
	local l w want dir got v c bad="" right tries missing definite bin="$ROOT/micro/bin"
	# Timing physics on the production build.  Under SANITIZE=1 (CI) ASan
	# slows posix_spawn and staggers the two threads' launches by about as
	# much as a 2 ms check, so one worker may meet them one at a time: no
	# queue forms and `serialised` is not there to be seen (the rounds read
	# one check's cost).  The sanitizers' own check is every other test.
	if nm "$bin/launch" 2>/dev/null | grep -q __asan_init; then
		bin="$BATS_FILE_TMPDIR/plain"
		make -s -C "$ROOT" BIN="$bin" SANITIZE= build >/dev/null ||
			fail "cannot build the plain programs into $bin"
		! nm "$bin/launch" | grep -q __asan_init || fail "$bin/launch is sanitized"
		echo "# micro/bin is sanitized: the grid runs a plain build" >&3
	fi
	for l in 2 4 7 20; do
		for w in 1 2; do
			want=serialised
			[ "$w" = 1 ] || want=parallel
			right=" "
			tries=0
			definite=0
			while :; do
				tries=$((tries + 1))
				rm -rf "${RUNS:?}/grid-$l-$w"
				# fixed counts, as the key runs: one check's cost L from all
				# 20 pairs (sequential stopping ends at 8, where L's interval
				# is too wide for parallel to be told)
				dir=$(EXECLAG_BIN="$bin" repro_run "grid-$l-$w" --sequential 0 --cases exe,exe-rewrite,script,dylib --threads 1,2 \
					--gate "latency=$l workers=$w key=inode") ||
					fail "grid $l ms x $w: $(tail -n 3 "$RUNS/grid-$l-$w.out")"
				got=$(grid_verdicts "$dir")
				echo "# latency $l ms, workers $w: $got" >&3
				# a first pass with no idle core decides nothing, and the kit
				# says so ("undetermined — the CPU was saturated")
				for c in $(jq -r '.cases[] | select(.serialisation == "undetermined" and (.serialisation_reason | test("CPU was saturated"))) | .name' "$dir/run.json"); do
					echo "#   $c: $(jq -r --arg c "$c" '.cases[] | select(.name == $c) | .serialisation_reason' "$dir/run.json")" >&3
					right="$right$c "
				done
				# a wrong definite answer is never retried
				for v in $got; do
					case ${v#*=} in
					"$want") right="$right${v%%=*} " definite=1 ;;
					serialised | parallel) bad="$bad $l/$w:$v" ;;
					esac
				done
				[ -z "$bad" ] || fail "wrong serialisation:$bad (want $want)"
				# every case decided right once; noise (undetermined, or a
				# verdict short of slowdown) is measured once more
				missing=""
				for c in exe exe-rewrite script dylib; do
					case $right in *" $c "*) ;; *) missing="$missing $c" ;; esac
				done
				[ -n "$missing" ] || break
				for c in $missing; do
					echo "#   $c: $(jq -r --arg c "$c" '.cases[] | select(.name == $c) | "\(.verdict), \(.serialisation): \(.serialisation_reason)"' "$dir/run.json")" >&3
				done
				if [ "$tries" -ge 2 ]; then
					# the second run: a case may stay undetermined (never wrong)
					# only where the rest of its launch at T=2 is over 1.5 checks
					# long (a script under bash 3.2, the Mac's sh: ~4-5 ms beside
					# a 2 ms check), so its own noise is as large as the queue
					# At 2 and 4 ms, a check is about as long as the launch's own
					# noise where the launcher is sanitized (CI: SANITIZE=1) or
					# the two CPUs contend (the repeat pass's launches slow each
					# other by 1-2 ms, a queue's staggered first launches less):
					# undetermined is accepted there, logged; never a wrong answer.
					for c in $missing; do
						if { [ "$l" = 2 ] || [ "$l" = 4 ]; } && jq -e --arg c "$c" '.cases[] | select(.name == $c) | select(.serialisation == "undetermined" or .verdict != "slowdown")' "$dir/run.json" >/dev/null; then
							echo "#   $c: undetermined at $l ms after two runs (accepted: never a wrong answer)" >&3
							continue
						fi
						jq -e --arg c "$c" '.cases[] | select(.name == $c) | select(.serialisation == "undetermined" and ([.configs[] | select(.threads == 2) | .repeat.median_ms][0] > 1.5 * .configs[0].penalty_ms.median))' "$dir/run.json" >/dev/null ||
							fail "latency $l ms, workers $w: not decided in two runs:$missing"
						echo "#   $c: undetermined, a check short beside the rest of its launch (accepted)" >&3
					done
					break
				fi
				echo "# latency $l ms, workers $w: undecided ($missing) on a busy machine; once more" >&3
			done
			# a saturated CPU excuses a case, not the whole grid point; at 7
			# and 20 ms a check is well above the contention, and decided
			[ "$definite" = 1 ] || [ "$l" -le 4 ] || fail "latency $l ms, workers $w: no case decided (CPU saturated throughout)"
		done
	done
}
