# mac_measure, for the files that make a measure of a command run on a Mac
# with micro/measure alone (tests/measure.bats, tests/mcompare.bats):
# `load test_helper/mac-measure`.  Needs D and RESULTS (_run_folders_setup).

# mac_measure NAME CONDITIONS...: micro/measure alone, for a command run on
# a Mac: the probe is the brief fixture mac-penalty (Terminal, Developer
# Tools denied, a penalty; analyzed here), the measure's conditions its own
# with each KEY=VALUE given replaced; the measure goes to $D/NAME (or
# MM_OUT).  Its command took 4 s (or MM_WALL_NS) and exited 0; the unified
# log had 12 checks, 3 of them unnamed; with MM_SERVICES, that services
# file's samples too.
mac_measure() {
	local name=$1 kv out=${MM_OUT:-$D/$1}
	shift
	probe="$RESULTS/20260410T090000Z-mac-penalty"
	if [ ! -f "$probe/run.json" ]; then
		cp -R "$ROOT/tests/fixtures/brief/mac-penalty" "$probe"
		"$BIN/analyze" --run "$probe" --quiet
	fi
	mkdir -p "$out/raw"
	printf 'execlag-execwatch\t1\nwall_ns\t%s\nstatus\texit\t0\nuser_us\t1\nsys_us\t1\nwatch\toff\tnot asked to (--no-watch)\n' \
		"${MM_WALL_NS:-4000000000}" >"$out/raw/exec.tsv"
	printf 'execlag-logcount\t1\nresult\tok\nperformscan\t14\ninside\t9\noutside\t2\nunplaced\t3\nchecks\t12\nprograms\t11\nprograms_named\t8\n' \
		>"$out/raw/logcount.tsv"
	cp "$probe/conditions.txt" "$out/conditions.txt"
	for kv in "$@"; do
		sed "s|^${kv%%=*}=.*|$kv|" "$out/conditions.txt" >"$out/c" && mv "$out/c" "$out/conditions.txt"
	done
	run --separate-stderr "$BIN/measure" --out "$out" --watch "$out/raw/exec.tsv" \
		--logcount "$out/raw/logcount.tsv" --conditions "$out/conditions.txt" --dir /Users/u/src/app \
		--id "$name" --probe "$probe" --probe-how reused ${MM_SERVICES:+--services "$MM_SERVICES"} -- cargo test
	assert_success
}
