#!/usr/bin/env bats
# micro/launch's plan on the simulator (--launcher sim:...): sequential
# stopping, the extension, the maker along the looks and the samples'
# shape, with fixed seeds, so every count is exact.  The same behaviours on
# real launches are in tests/live/launch.bats.

load test_helper/common-setup
# run_both and run_sep: bats' run and run --separate-stderr, cheaper
load test_helper/quickrun
# meta_of: the samples' meta lines read by the shell
load test_helper/shellread

setup_file() {
	make -C "$BATS_TEST_DIRNAME/.." -s micro/bin/launch micro/bin/analyze >/dev/null
	# the fit's quantiles (setup's), by one awk for the file, not one a test
	FIT_QUANTILES=$(awk 'BEGIN { for (j = 0; j <= 20; j++) printf "%s%.4f", j ? "," : "", 1 + 0.005 * j; print "" }')
	export FIT_QUANTILES
}

setup() {
	_common_setup
	D="$BATS_TEST_TMPDIR"
	# a script's launch costs 1.00 to 1.10 ms here, whatever the machine's
	# own fit says: these tests are about the plan, not the noise
	# (its quantiles setup_file's: 1.0000,1.0050,...,1.1000)
	printf 'execlag-simbase\t1\nscript\t1\t%s\nscript\t2\t%s\n' "$FIT_QUANTILES" "$FIT_QUANTILES" >"$D/fit"
}

# manifest DIR N: N scripts (kind script) that the simulator never runs
# (its loop without bats' debug trap, and one chmod for them all, not one
# a script)
manifest() { kit_untraced _manifest "$@"; }
_manifest() {
	mkdir -p "$1"
	{
		printf 'execlag-manifest\t1\ncase\tt\nkind\tscript\nn\t%s\nworkdir\t%s\n' "$2" "$1"
		i=0
		while [ "$i" -lt "$2" ]; do
			printf '#!/bin/sh\nexit 0\n' >"$1/a-$i.sh"
			printf 'artifact\t%s\t%s\t%s\n' "$i" "$1/a-$i.sh" "$1/a-$i.sh"
			i=$((i + 1))
		done
	} >"$1/m"
	chmod 755 "$1"/a-*.sh
}

# maker DIR: a maker that logs "first count" and makes the scripts asked for
maker() {
	local text
	# (read and printf, the shell's own: no cat)
	IFS= read -r -d '' text <<'MAKER' || :
#!/bin/sh
dir=$1 first=$3 count=$5
echo "$first $count" >>"$dir/made"
n=$((first + count))
{
	printf 'execlag-manifest\t1\ncase\tt\nkind\tscript\nn\t%s\nworkdir\t%s\n' "$n" "$dir"
	i=0
	while [ "$i" -lt "$n" ]; do
		printf '#!/bin/sh\nexit 0\n' >"$dir/a-$i.sh"
		printf 'artifact\t%s\t%s\t%s\n' "$i" "$dir/a-$i.sh" "$dir/a-$i.sh"
		i=$((i + 1))
	done
} >"$dir/m.new" && mv "$dir/m.new" "$dir/m"
MAKER
	printf '%s' "$text" >"$1/maker"
	chmod 755 "$1/maker"
}


sim() { # sim SETTINGS ARGS...: launch on the simulator, 2 CPUs, seed 7
	local s=$1
	shift
	"$BIN/launch" --quiet --launcher "sim:$s cpus=2 seed=7 base=$D/fit" "$@"
}

@test "no penalty stops as none at the first look; a large one as slowdown; T=2 waits for its rounds" {
	manifest "$D/a" 20
	run_both -0 sim latency=0 --sequential --manifest "$D/a/m" --out "$D/none.tsv"
	meta_of v "$D/none.tsv" stopped
	assert_equal "$v" none
	meta_of v "$D/none.tsv" n
	assert_equal "$v" 8
	run_both -0 sim latency=150 --sequential --manifest "$D/a/m" --out "$D/slow.tsv"
	meta_of v "$D/slow.tsv" stopped
	assert_equal "$v" slowdown
	meta_of v "$D/slow.tsv" n
	assert_equal "$v" 8
	# at T=2 a slowdown whose rounds are sharp stops after 8 rounds, 16 artifacts
	run_both -0 sim 'latency=150 workers=1' --sequential --threads 2 --manifest "$D/a/m" --out "$D/s2.tsv"
	meta_of v "$D/s2.tsv" n
	assert_equal "$v" 16
	meta_of v "$D/s2.tsv" stopped
	assert_equal "$v" slowdown
	# and a none only after 10 rounds
	run_both -0 sim latency=0 --sequential --threads 2 --manifest "$D/a/m" --out "$D/n2.tsv"
	meta_of v "$D/n2.tsv" n
	assert_equal "$v" 20
	meta_of v "$D/n2.tsv" stopped
	assert_equal "$v" maximum
}

@test "an interval across the floor at N goes on to 3N with the maker; --extend 1 stops at N" {
	# a 1.5 ms check, and every open held 1 ms, both give or take a factor
	# of e: the pairs lie across the floor
	noisy='latency=1.5 every=1 jitter=1 on=open'
	manifest "$D/x" 8
	maker "$D/x"
	run_both -0 sim "$noisy" --sequential --manifest "$D/x/m" --out "$D/x.tsv" \
		--planned 20 -- "$D/x/maker" "$D/x"
	meta_of v "$D/x.tsv" looks
	assert_equal "$v" 8,12,16,20+40,60
	meta_of v "$D/x.tsv" n
	assert_equal "$v" 60
	# (the maker's log as $(cat) gives it, read by the shell)
	v=""
	IFS= read -r -d '' v <"$D/x/made" || :
	while [ "${v%$'\n'}" != "$v" ]; do v=${v%$'\n'}; done
	assert_equal "$v" $'8 4\n12 4\n16 4\n20 20\n40 20'
	# (the samples counted by one awk: no wc and tr)
	assert_equal "$(awk -F '\t' '$1 == "sample" { n++ } END { print n + 0 }' "$D/x.tsv")" 120
	rm -rf "$D/x"
	manifest "$D/x" 8
	maker "$D/x"
	run_both -0 sim "$noisy" --sequential --extend 1 --manifest "$D/x/m" --out "$D/x1.tsv" \
		--planned 20 -- "$D/x/maker" "$D/x"
	meta_of v "$D/x1.tsv" looks
	assert_equal "$v" 8,12,16,20
	meta_of v "$D/x1.tsv" n
	assert_equal "$v" 20
	meta_of v "$D/x1.tsv" stopped
	assert_equal "$v" maximum
}

@test "the simulator writes the samples the real launcher writes: columns, threads, blocks and order" {
	manifest "$D/s" 12
	"$BIN/launch" --quiet --threads 2 --manifest "$D/s/m" --out "$D/real.tsv"
	sim latency=20 --threads 2 --manifest "$D/s/m" --out "$D/sim.tsv"
	# the same lines but for the launcher's meta and the numbers
	shape() { awk -F '\t' '$1 == "sample" { print $1, $2, $3, $4, NF; next }
		$1 == "pass" { print $1, $2, $4, NF; next }
		$1 == "meta" && $2 != "launcher" && $2 !~ /^idle_/ && $2 != "cpus" { print }
		$1 !~ /^(sample|pass|meta)$/ { print }' "$1"; }
	diff <(shape "$D/real.tsv") <(shape "$D/sim.tsv")
	meta_of v "$D/sim.tsv" launcher
	assert_equal "$v" \
		"sim:latency=20 workers=1 key=inode on=exec every=0 per_mb=0 exempt=0 bursts=0 burst_x=2 cpus=2 seed=7 base=$D/fit corr=0.182"
	# start times: each block's repeats start after its first launches, and
	# the next block after them
	awk -F '\t' '$1 == "sample" { p = $2; i = $4; t = $9; d = $5
		if (p == "first") { fs[int(i / 2)] = (fs[int(i / 2)] == "" || t < fs[int(i / 2)]) ? t : fs[int(i / 2)]; fe[int(i / 2)] = (t + d > fe[int(i / 2)]) ? t + d : fe[int(i / 2)] }
		else { rs[int(i / 2)] = (rs[int(i / 2)] == "" || t < rs[int(i / 2)]) ? t : rs[int(i / 2)]; re[int(i / 2)] = (t + d > re[int(i / 2)]) ? t + d : re[int(i / 2)] } }
		END { for (b = 0; b < 6; b++) { if (rs[b] < fe[b]) { print "block " b ": repeat before first ended"; bad = 1 }
			if (b > 0 && fs[b] < re[b - 1]) { print "block " b ": started before the last repeat"; bad = 1 } }
			exit bad }' "$D/sim.tsv"
	# the same seed, the same samples; another, others
	sim latency=20 --threads 2 --manifest "$D/s/m" --out "$D/sim2.tsv"
	cmp "$D/sim.tsv" "$D/sim2.tsv"
	"$BIN/launch" --quiet --launcher "sim:latency=20 cpus=2 seed=8 base=$D/fit" --threads 2 --manifest "$D/s/m" --out "$D/sim3.tsv"
	! cmp -s "$D/sim.tsv" "$D/sim3.tsv" || fail "another seed gave the same samples"
}

@test "a bad launcher is refused in one line, exit 2, before anything is written" {
	manifest "$D/b" 8
	run_sep -2 "$BIN/launch" --launcher 'sim:latency=x' --manifest "$D/b/m" --out "$D/b.tsv"
	assert_equal "$stderr" "launch: sim latency 'x' is not a number of ms from 0 to 60000"
	run_sep -2 "$BIN/launch" --launcher 'fork' --manifest "$D/b/m" --out "$D/b.tsv"
	assert_equal "$stderr" "launch: LAUNCHER 'fork' is not spawn or sim:SETTINGS"
	[ ! -e "$D/b.tsv" ]
	# a kind the model does not know
	sed 's/^kind\tscript$/kind\tmystery/' "$D/b/m" >"$D/b/m2"
	run_sep -2 "$BIN/launch" --launcher 'sim:latency=1' --manifest "$D/b/m2" --out "$D/b.tsv"
	assert_equal "$stderr" "launch: the simulator has no model of the kind 'mystery'"
	[ ! -e "$D/b.tsv" ]
}

# constant VAR NAME: NAME's value in launch --constants' output, $output
# (its NAME=VALUE lines, for scripts/repro), read by the shell into VAR
# (no $( ) a call); names: the names of all its lines, each followed by a
# space (sed 's/=.*//' | tr '\n' ' ')
constant() {
	local l v=""
	names=""
	while IFS= read -r l; do
		names+="${l%%=*} "
		case $l in "$2="*) v+="${l#*=}"$'\n' ;; esac
	done <<<"$output"
	printf -v "$1" '%s' "${v%$'\n'}"
}

@test "launch --constants: the numbers the method runs with (looks, extensions, the fewest pairs)" {
	local first extend doctor pairs n
	run_both -0 "$BIN/launch" --constants
	constant first looks_first
	assert_equal "$names" "min_pairs looks_first seq_extend doctor_extend "
	constant extend seq_extend
	constant doctor doctor_extend
	constant pairs min_pairs
	[ -n "$first" ] && [ -n "$extend" ] && [ -n "$doctor" ] && [ -n "$pairs" ] || fail "a constant is missing: $output"
	# looks_first: sequential stopping's first look, where a certain none stops
	manifest "$D/a" 20
	run_both -0 sim latency=0 --sequential --manifest "$D/a/m" --out "$D/none.tsv"
	# (its first look: cut -d, -f1's)
	meta_of v "$D/none.tsv" looks
	assert_equal "${v%%,*}" "$first"
	meta_of v "$D/none.tsv" n
	assert_equal "$v" "$first"
	# seq_extend: how far past N launch goes by default where the interval
	# lies across the floor; doctor_extend: the doctor's, a value launch takes
	noisy='latency=1.5 every=1 jitter=1 on=open'
	for x in default "$doctor"; do
		rm -rf "$D/x"
		manifest "$D/x" "$first"
		maker "$D/x"
		set --
		[ "$x" = default ] || set -- --extend "$x"
		run_both -0 sim "$noisy" --sequential "$@" --manifest "$D/x/m" --out "$D/x.tsv" \
			--planned 20 -- "$D/x/maker" "$D/x"
		[ "$x" != default ] || x=$extend
		# (its last look: sed 's/.*,//''s)
		meta_of v "$D/x.tsv" looks
		assert_equal "${v##*,}" "$((x * 20))"
	done
	# min_pairs: the fewest pairs analyze gives an interval for
	for n in $((pairs - 1)) "$pairs"; do
		mkdir -p "$D/r$n/raw"
		cp "$FIXTURES/simulated/mac-sim/conditions.txt" "$D/r$n/"
		manifest "$D/y$n" "$n"
		sim latency=20 --manifest "$D/y$n/m" --out "$D/r$n/raw/exe-t1-all.samples.tsv"
		"$BIN/analyze" --run "$D/r$n" --quiet
	done
	assert_equal "$(jq '.cases[0].configs[0].penalty_ms.ci_low' "$D/r$((pairs - 1))/run.json")" null
	jq -e '.cases[0].configs[0].penalty_ms.ci_low | numbers' "$D/r$pairs/run.json" >/dev/null
}
