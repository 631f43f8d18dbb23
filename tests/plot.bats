#!/usr/bin/env bats
# The plots of a run (plot-launch.svg, plot-scaling.svg): written by
# analyze next to report.md and linked from it, valid XML, plain SVG that
# needs nothing from elsewhere, rendered by a real renderer (rsvg-convert)
# to something that is not blank, and labelled with the run's own numbers.

load test_helper/common-setup
load test_helper/quickrun

setup_file() {
	_common_setup
	# Fixture runs (numbers worked out by hand) and one small run of the
	# kit, on the seeded simulator: the plots are drawn from run.json alike
	# whatever made the launches, and a model's 20 ms penalty is drawn in
	# every case.
	for f in verdicts scaling key-inode; do
		cp -R "$FIXTURES/analyze/$f" "$BATS_FILE_TMPDIR/$f"
		"$BIN/analyze" --run "$BATS_FILE_TMPDIR/$f" --quiet
	done
	mkdir -p "$BATS_FILE_TMPDIR/results"
	RESULTS="$BATS_FILE_TMPDIR/results" LAUNCHER='sim:latency=20 workers=1 key=inode seed=7' \
		sh "$ROOT/scripts/repro" --cases exe,script --threads 1,2 --count 8 >/dev/null 2>&1 3>&- || true
	# the python3 PATH gives, by its own path: a version manager's shim
	# (pyenv) is a dozen processes a call
	PLOT_PY=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null) || PLOT_PY=""
	[ -x "$PLOT_PY" ] || PLOT_PY=python3
	export PLOT_PY
}

setup() {
	_common_setup
	need_tool rsvg-convert librsvg
}

# Every run folder this file made: the fixtures and the simulated run.
runs() {
	local d
	for d in "$BATS_FILE_TMPDIR"/verdicts "$BATS_FILE_TMPDIR"/scaling \
		"$BATS_FILE_TMPDIR"/key-inode "$BATS_FILE_TMPDIR"/results/*/; do
		[ -f "$d/run.json" ] && printf '%s\n' "${d%/}"
	done
}

svgs() {
	local r
	for r in $(runs); do printf '%s\n' "$r/plot-launch.svg" "$r/plot-scaling.svg"; done
}


# has FILE TEXT...: each TEXT is in FILE (what grep -qF TEXT FILE said,
# from the shell's one read of it: no process; a newline before its first
# line and after its last, so that $'\nLINE\n' is grep -qxF LINE);
# hasnt FILE TEXT...: none is
_u_has() {
	local f=$1 t="" s
	IFS= read -r -d '' t <"$f" || true
	t=$'\n'$t$'\n'
	shift
	for s in "$@"; do [[ "$t" == *"$s"* ]] || fail "$f: no '$s'"; done
}
has() { kit_untraced _u_has "$@"; }
_u_hasnt() {
	local f=$1 t="" s
	IFS= read -r -d '' t <"$f" || true
	t=$'\n'$t$'\n'
	shift
	for s in "$@"; do [[ "$t" != *"$s"* ]] || fail "$f: '$s'"; done
}
hasnt() { kit_untraced _u_hasnt "$@"; }

# labels SVG: two lines, the numbers of its "penalty" labels and of its
# "median" labels, each in order.

labels() {
	# one awk: the text lines, their tags dropped, each label's number (what
	# grep '<text' | sed 's/<[^>]*>//g' | grep -o 'PREFIX -?N' gave)
	awk '/<text/ {
		l = $0; gsub(/<[^>]*>/, "", l)
		for (k = 1; k <= 2; k++) {
			t = l; re = k == 1 ? "penalty -?[0-9][0-9.]*" : "median -?[0-9][0-9.]*"
			while (match(t, re)) {
				m = substr(t, RSTART, RLENGTH); sub(/^[a-z]+ /, "", m)
				out[k] = out[k] (out[k] == "" ? "" : " ") m
				t = substr(t, RSTART + RLENGTH)
			}
		}
	} END { print out[1]; print out[2] }' "$1"
}

# same_numbers "LIST" "LIST": the same count, each pair A B near:
# |A - B| <= 0.006 + 0.006 |B| (labels are rounded); all pairs in one awk
# (an awk a pair was most of this file's time)
same_numbers() {
	local got=($1) want=($2) bad
	[ "${#got[@]}" -eq "${#want[@]}" ] || fail "labels: ${got[*]}; run.json: ${want[*]}"
	bad=$(awk -v g="${got[*]}" -v w="${want[*]}" 'BEGIN {
		n = split(g, a, " "); split(w, b, " ")
		for (i = 1; i <= n; i++) {
			d = a[i] - b[i]; if (d < 0) d = -d; m = b[i] < 0 ? -b[i] : b[i]
			if (!(d <= 0.006 + 0.006 * m)) { print a[i] " is not run.json" "\047s " b[i]; exit }
		} }')
	[ -z "$bad" ] || fail "label $bad (${got[*]} vs ${want[*]})"
}

@test "each run has both plots, shown in report.md; each well-formed SVG 1.1, nothing run or fetched" {
	# (was: "the simulated run and the fixtures each have both plots, and report.md shows them")
	local r n=0
	[ -n "$(ls -d "$BATS_FILE_TMPDIR"/results/*/ 2>/dev/null)" ] || fail "the small repro run failed"
	for r in $(runs); do
		[ -s "$r/plot-launch.svg" ] || fail "$r: no plot-launch.svg"
		[ -s "$r/plot-scaling.svg" ] || fail "$r: no plot-scaling.svg"
		# (grep -qxF: each a whole line of report.md, from the shell's read)
		has "$r/report.md" $'\n![First vs repeat launch time per case, log time axis](plot-launch.svg)\n' \
			$'\n![Launches per second against threads, first and repeat pass](plot-scaling.svg)\n'
		[ -z "$(find "$r" -name '*.tmp.*')" ] || fail "temporary files left in $r"
		n=$((n + 1))
	done
	[ "$n" -eq 4 ]
	# (was: "every plot is well-formed XML (xmllint) and SVG 1.1")
	local f all=() roots
	for f in $(svgs); do all+=("$f"); done
	[ "${#all[@]}" -eq 8 ] || fail "${#all[@]} plots"
	# one xmllint for all of them: it says nothing of a good one
	run_both xmllint --noout "${all[@]}"
	assert_success
	kit_untraced assert_output ""
	# every one has the header (grep -L: the files without it)
	run_both grep -L '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" ' "${all[@]}"
	kit_untraced assert_output ""
	# each root is svg: one name a file (with or without a line between)
	roots=$(xmllint --xpath 'local-name(/*)' "${all[@]}")
	assert_equal "${roots//$'\n'/}" svgsvgsvgsvgsvgsvgsvgsvg
	# (was: "no plot has a script, a link, a style sheet or anything fetched from elsewhere")
	local f all=()
	for f in $(svgs); do all+=("$f"); done
	[ "${#all[@]}" -eq 8 ] || fail "${#all[@]} plots"
	# each grep over all the plots at once: what it names is what fails
	run_both grep -oiE '<script|<a[ >]|href|<style|@import|url\(|<image|<foreignObject| on[a-z]+=' "${all[@]}"
	kit_untraced assert_output ""
	# the one address of every plot is SVG's namespace (each has it, and
	# none another)
	run_both grep -L 'http://www.w3.org/2000/svg' "${all[@]}"
	kit_untraced assert_output ""
	assert_equal "$(grep -h -o 'http[s]*://[^"]*' "${all[@]}" | sort -u)" "http://www.w3.org/2000/svg"
	run_both grep -L 'font-family="sans-serif"' "${all[@]}"
	kit_untraced assert_output ""
	run_both grep -l 'font-family="[^s]' "${all[@]}"
	kit_untraced assert_output ""
}

@test "every plot renders (rsvg-convert) not blank, in both pass colours; png_ink counts no blank page's" {
	# (was: "every plot renders with rsvg-convert to a picture that is not blank, in both pass colours")
	local f got d i=0 pngs=() inks
	for f in $(svgs); do
		i=$((i + 1))
		rsvg-convert -f png -o "$BATS_TEST_TMPDIR/p$i.png" "$f"
		pngs+=("$BATS_TEST_TMPDIR/p$i.png")
	done
	# and a blank page (png_ink must count nothing on it: below)
	printf '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><rect width="300" height="200" fill="#FFFFFF"/></svg>\n' >"$BATS_TEST_TMPDIR/blank.svg"
	rsvg-convert -f png -o "$BATS_TEST_TMPDIR/blank.png" "$BATS_TEST_TMPDIR/blank.svg"
	# png_ink on every picture, the blank page last, from one python (a
	# start each cost most)
	inks=$("$PLOT_PY" - "$ROOT/tests/test_helper/png_ink.py" "${pngs[@]}" "$BATS_TEST_TMPDIR/blank.png" <<'PY'
import runpy, sys
tool, pngs, blank = sys.argv[1], sys.argv[2:-1], sys.argv[-1]
for p in pngs:
    sys.argv = [tool, p, "#D55E00", "#0072B2"]
    runpy.run_path(tool)
sys.argv = [tool, blank, "#D55E00"]
runpy.run_path(tool)
PY
	) || fail "png_ink failed"
	IFS=$'\n' read -r -d '' -a inks <<<"$inks" || :
	i=0
	for f in $(svgs); do
		got=(${inks[$i]})
		i=$((i + 1))
		d=${f%/*}
		echo "# ${d##*/}/${f##*/}: ${got[0]}x${got[1]}, ${got[2]} drawn pixels, ${got[3]} first, ${got[4]} repeat" >&3
		[ "${got[0]}" -ge 600 ] && [ "${got[1]}" -ge 200 ] || fail "$f: ${got[0]}x${got[1]}"
		[ "${got[2]}" -ge $((got[0] * got[1] / 50)) ] || fail "$f: only ${got[2]} drawn pixels"
		[ "${got[3]}" -ge 40 ] || fail "$f: first-pass colour barely drawn (${got[3]} pixels)"
		[ "${got[4]}" -ge 40 ] || fail "$f: repeat-pass colour barely drawn (${got[4]} pixels)"
	done
	# (was: "png_ink counts nothing on a blank page")
	# (the blank page's line, last, from the python above)
	[ "$i" -eq 8 ] || fail "$i plots"
	assert_equal "${inks[8]}" "300 200 0 0"
}

@test "the plots' labels are the run's numbers: penalties, medians, launches per second, outside the pair" {
	# (was: "the launch plot's penalty and median labels are the run's numbers, case by case")
	local r f want got nl=$'\n'
	for r in $(runs); do
		f="$r/plot-launch.svg"
		# the penalties, then the medians: a line each
		want=$(jq -r '([.cases[] | .penalty_ms.median | select(. != null) | tostring] | join(" ")),
			([.cases[] | (.first_median_ms, .repeat_median_ms) | select(. != null) | tostring] | join(" "))' "$r/run.json")
		got=$(labels "$f")
		same_numbers "${got%%"$nl"*}" "${want%%"$nl"*}"
		same_numbers "${got#*"$nl"}" "${want#*"$nl"}"
	done
	# (was: "the scaling plot's labels are each config's launches per second, first and repeat")
	local r f want got nl=$'\n'
	for r in $(runs); do
		f="$r/plot-scaling.svg"
		# first, then repeat: a line each, from one jq and one awk (the
		# number of each text in the pass's colour: its last >N</text>)
		want=$(jq -r '("first", "repeat") as $p
			| [.cases[] | .configs[] | .passes[$p].launches_per_s | select(. != null and . > 0) | tostring] | join(" ")' "$r/run.json")
		got=$(awk '{
			k = index($0, "font-size=\"11\" fill=\"#D55E00\"") ? 1 : index($0, "font-size=\"11\" fill=\"#0072B2\"") ? 2 : 0
			if (!k) next
			t = $0; hit = 0
			while (match(t, />[-0-9.]*<\/text>/)) { v = substr(t, RSTART + 1, RLENGTH - 8); hit = 1; t = substr(t, RSTART + 1) }
			if (hit) out[k] = out[k] (out[k] == "" ? "" : " ") v
		} END { print out[1]; print out[2] }' "$f")
		same_numbers "${got%%"$nl"*}" "${want%%"$nl"*}"
		same_numbers "${got#*"$nl"}" "${want#*"$nl"}"
		has "$f" '>threads<' '>launches per second (log scale)<'
	done
	# (was: "the scaling plot's values sit outside the pair: above the higher point, below the lower")
	# whichever pass is faster (every run's plot from one python)
	local r all=()
	for r in $(runs); do all+=("$r/plot-scaling.svg"); done
	[ "${#all[@]}" -eq 4 ] || fail "${#all[@]} runs"
	run_both "$PLOT_PY" - "${all[@]}" <<'PY'
import re, sys
failed = 0
for path in sys.argv[1:]:
    svg = open(path).read()
    pts = []   # (x, y, pass): the points' centres
    for m in re.finditer(r'<circle cx="([-0-9.]+)" cy="([-0-9.]+)" r="4" fill="#D55E00"', svg):
        pts.append((float(m.group(1)), float(m.group(2)), "first"))
    for m in re.finditer(r'<rect x="([-0-9.]+)" y="([-0-9.]+)" width="7.0" height="7.0" fill="#0072B2"', svg):
        pts.append((float(m.group(1)) + 3.5, float(m.group(2)) + 3.5, "repeat"))
    bad = checked = 0
    for m in re.finditer(r'<text x="([-0-9.]+)" y="([-0-9.]+)" [^>]*font-size="11" fill="(#D55E00|#0072B2)"[^>]*>[-0-9.]+</text>', svg):
        lx, ly = float(m.group(1)), float(m.group(2))
        p = "first" if m.group(3) == "#D55E00" else "repeat"
        own = [q for q in pts if q[2] == p and abs(q[0] - lx) < 0.05 and
               (abs(ly - (q[1] - 9)) < 0.05 or abs(ly - (q[1] + 17)) < 0.05)]
        if len(own) != 1:
            continue
        y = own[0][1]
        above = abs(ly - (y - 9)) < 0.05
        others = [q for q in pts if q[2] != p and abs(q[0] - lx) < 0.05]
        if not others:
            continue
        other = min(others, key=lambda q: abs(q[1] - y))[1]
        if abs(other - y) < 0.15:
            continue  # equal on screen (the SVG's 0.1 px): either side is outside
        checked += 1
        # on screen a smaller y is higher: the faster pass's value goes above
        if above != (y <= other):
            bad += 1
    print("%s: %d checked, %d inside" % (path, checked, bad))
    failed += 1 if bad or not checked else 0
sys.exit(1 if failed else 0)
PY
	assert_success
}

@test "the fixtures' plots: report.md's labels, a log axis at decades, the scaling panels, the gate said" {
	# (was: "the hand-worked fixture's labels read exactly as report.md writes them")
	local f="$BATS_FILE_TMPDIR/verdicts/plot-launch.svg"
	# (each text as it is, from the shell's one read of the plot)
	has "$f" '>— penalty 19.50 ms [15.00, 24.00], slowdown (T=1, class all)<' \
		'>median 24.00 ms (n=20)<' '>median 3.50 ms (n=20)<' \
		'>— no penalty: no launch succeeded in both passes, inconclusive (T=1, class all)<' \
		'>no successful launch<'
	# (was: "the launch plot has a log time axis in ms with ticks at decades")
	local f="$BATS_FILE_TMPDIR/verdicts/plot-launch.svg" span lo hi e
	# the fixture's successful launches span the decades lo..hi (exponents
	# of 10 in ms): every one is a tick, the decades either side are not
	# (one awk: the span, then the label of each decade lo-1..hi+1 as the
	# axis writes it: 0.1, 1, 10, 1000, a line each)
	local ticks
	span=$(awk -F'\t' '$1 == "sample" && $6 == 0 && $7 == 0 {
		ms = $5 / 1e6
		if (min == "" || ms < min) min = ms
		if (ms > max) max = ms
	} END {
		lo = int(log(min) / log(10)); if (10 ^ lo > min) lo--
		hi = int(log(max) / log(10)); if (10 ^ hi < max) hi++
		print lo, hi
		for (e = lo - 1; e <= hi + 1; e++) if (e >= 0) printf "%d\n", 10 ^ e; else printf "%.*f\n", -e, 10 ^ e
	}' "$BATS_TEST_DIRNAME"/fixtures/analyze/verdicts/raw/*.samples.tsv)
	IFS=$'\n' read -r -d '' -a ticks <<<"$span" || :
	span=${ticks[0]}
	lo=${span% *} hi=${span#* }
	[ "$hi" -gt "$lo" ] || fail "the fixture's span $span"
	# ticks[1] is decade lo-1's, ticks[2 + e - lo] decade e's
	[ "${#ticks[@]}" -eq $((hi - lo + 4)) ] || fail "labels: ${ticks[*]}"
	# (every decade's label, then the axis's name: one read of the plot)
	local want=()
	for ((e = lo; e <= hi; e++)); do want+=(">${ticks[2 + e - lo]}</text>"); done
	has "$f" "${want[@]}" '>launch time, ms (log scale)<'
	# (the decades either side: neither label there)
	hasnt "$f" ">${ticks[hi - lo + 3]}</text>" ">${ticks[1]}</text>"
	# (was: "the scaling fixture's panels name the serialisation and the factors")
	local f="$BATS_FILE_TMPDIR/scaling/plot-scaling.svg"
	has "$f" '>first x1.00, repeat x2.40 at T=4: serialised<' \
		'>first x2.00, repeat x2.00 at T=2: parallel<' '>one thread count: nothing to scale<'
	# (was: "a gate run says on both plots that it is a test of the kit")
	local n=0
	for f in "$BATS_FILE_TMPDIR"/scaling/plot-*.svg; do
		has "$f" 'Calibration gate active (latency 50 ms, workers 1, key inode, exempt 0): a test of the kit, not of an OS.'
		n=$((n + 1))
	done
	[ "$n" -eq 2 ] || fail "$n scaling plots"
	hasnt "$BATS_FILE_TMPDIR/verdicts/plot-launch.svg" 'Calibration gate'
}

@test "analyze of a copy: odd case names still valid SVG, the same bytes again, an unwritable plot stops it" {
	# (was: "case names with XML specials and bytes that are not UTF-8 still give valid SVG")
	local r="$BATS_TEST_TMPDIR/odd"
	cp -R "$FIXTURES/analyze/verdicts" "$r"
	odd=$(printf 'a<b>&"c\047 \377\001')
	awk -v odd="$odd" '$1 == "meta" && $2 == "case" { print "meta\tcase\t" odd; next } { print }' \
		"$r/raw/paired-t1-all.samples.tsv" >"$r/x" && mv "$r/x" "$r/raw/paired-t1-all.samples.tsv"
	run_both "$BIN/analyze" --run "$r" --quiet
	assert_success
	# (one xmllint for both: it fails when one is not well-formed)
	run_both xmllint --noout "$r"/plot-*.svg
	assert_success
	grep -q 'a&lt;b&gt;&amp;&quot;c&apos; ??' "$r/plot-launch.svg"
	# (was: "the same samples give byte-identical plots")
	local r="$BATS_TEST_TMPDIR/again/verdicts" # the same name: it is the run id
	mkdir -p "$BATS_TEST_TMPDIR/again"
	cp -R "$FIXTURES/analyze/verdicts" "$r"
	"$BIN/analyze" --run "$r" --quiet
	cmp "$r/plot-launch.svg" "$BATS_FILE_TMPDIR/verdicts/plot-launch.svg"
	cmp "$r/plot-scaling.svg" "$BATS_FILE_TMPDIR/verdicts/plot-scaling.svg"
	# (was: "a plot that cannot be written stops analyze before run.json and report.md")
	local r="$BATS_TEST_TMPDIR/blocked"
	cp -R "$FIXTURES/analyze/verdicts" "$r"
	mkdir -p "$r/plot-scaling.svg/x"
	run_sep "$BIN/analyze" --run "$r" --quiet
	assert_failure 1
	[[ "$stderr" == "analyze: $r/plot-scaling.svg: cannot write:"* ]] || fail "stderr: $stderr"
	[ ! -e "$r/run.json" ]
	[ ! -e "$r/report.md" ]
	[ -z "$(find "$r" -name '*.tmp.*')" ] || fail "temporary files left"
}

