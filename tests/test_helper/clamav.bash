# Loaded by the live ClamAV tests (tests/live/clamav*.bats): ClamAV's clamd
# and clamonacc started on a folder of the test's own, and stopped by PID.
# The caller sets CLAM (a folder outside /tmp: clamonacc leaves its
# temporary folder alone) and W (the watched folder inside it), and may set
#   CLAM_SLOW_SIG  1 (default): the database holds the slow never-matching
#                  regex signature as well as the marker (a full scan costs
#                  ~15 ms); 0: the marker's MD5 signature alone
#   CLAM_MAX_THREADS  clamd's MaxThreads (default: clamd's own)
#   PCRE_LIMIT     the regex's work limit (clamd.conf's PCREMatchLimit)
# shellcheck shell=bash

# clamav_bin NAME: the path of a ClamAV program (sbin may not be on PATH).
clamav_bin() {
	local d
	for d in $(printf '%s' "$PATH" | tr ':' ' ') /usr/sbin /usr/local/sbin; do
		if [ -x "$d/$1" ]; then
			printf '%s\n' "$d/$1"
			return 0
		fi
	done
	return 1
}

# setup_error MESSAGE: remember why the setup failed, for every test to fail on.
setup_error() {
	printf '%s\n' "$*" >"$CLAM/setup.err"
}

# wait_for SECONDS COMMAND...: run COMMAND every 0.1 s until it succeeds.
wait_for() {
	local n=$(($1 * 10))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

alive() { kill -0 "$(cat "$1")" 2>/dev/null; }
socket_up() { [ -S "$CLAM/clamd.sock" ] || ! alive "$CLAM/clamd.pid"; }
# marker_refused: reading the marker fails with EPERM (kept in refused.txt),
# or clamonacc is gone
marker_refused() {
	alive "$CLAM/clamonacc.pid" || return 0
	cat "$W/probe/marker" >/dev/null 2>"$CLAM/refused.txt" && return 1
	grep -q 'Operation not permitted' "$CLAM/refused.txt"
}
marker_logged() { grep -q 'marker: Execlag.Test.Marker.* FOUND' "$CLAM/clamd.log"; }

# start_clamav: the database, clamd.conf, clamd and clamonacc; the marker
# refused.  Returns 1, having said why in setup.err, when any step fails.
start_clamav() {
	local clamd clamonacc md5 size
	clamd=$(clamav_bin clamd)
	clamonacc=$(clamav_bin clamonacc)
	mkdir -p "$CLAM/db" "$CLAM/tmp" "$CLAM/results" "$CLAM/hand" "$W"
	# clamd's socket, log and temporary files are its own; the rest is root's
	chown clamav "$CLAM" "$CLAM/tmp"
	chmod 755 "$CLAM"
	chmod 700 "$W"
	printf 'execlag: a harmless marker for tests/clamav.bats\n' >"$CLAM/marker"
	md5=$(md5sum <"$CLAM/marker" | cut -d ' ' -f 1)
	size=$(wc -c <"$CLAM/marker" | tr -d ' ')
	printf '%s:%s:Execlag.Test.Marker\n' "$md5" "$size" >"$CLAM/db/execlag.hdb"
	if [ "${CLAM_SLOW_SIG:-1}" = 1 ]; then
		# subsigs 0 and 1: an ELF header, a #! line (at offset 0); the regex (2),
		# run when either is there, is the signature, and never matches
		# shellcheck disable=SC2016 # a regex, not an expansion
		printf '%s\n' 'Execlag.Test.Slow;Engine:81-255,Target:0;2;0:7f454c46;0:2321;(0|1)/(?:[\x00-\xff]|[\x00-\xff]{2}){0,30}(*FAIL)/' \
			>"$CLAM/db/execlag.ldb"
	fi
	cat >"$CLAM/clamd.conf" <<EOF
User clamav
LocalSocket $CLAM/clamd.sock
LogFile $CLAM/clamd.log
LogFileMaxSize 0
LogTime yes
Foreground yes
DatabaseDirectory $CLAM/db
TemporaryDirectory $CLAM/tmp
${PCRE_LIMIT:+PCREMatchLimit $PCRE_LIMIT}
${CLAM_MAX_THREADS:+MaxThreads $CLAM_MAX_THREADS}
OnAccessPrevention yes
OnAccessIncludePath $W
OnAccessExcludeUname clamav
EOF
	"$clamd" -c "$CLAM/clamd.conf" >"$CLAM/clamd.out" 2>&1 3>&- &
	echo $! >"$CLAM/clamd.pid"
	wait_for 60 socket_up
	if ! alive "$CLAM/clamd.pid" || [ ! -S "$CLAM/clamd.sock" ]; then
		setup_error "clamd did not start (its socket is not there after 60 s): $(tail -n 3 "$CLAM/clamd.out")"
		return 1
	fi
	"$clamonacc" -F --fdpass -c "$CLAM/clamd.conf" -l "$CLAM/clamonacc.log" \
		>"$CLAM/clamonacc.out" 2>&1 3>&- &
	echo $! >"$CLAM/clamonacc.pid"
	# the marker, copied in (cp opens the new file empty; cat opens it whole)
	mkdir "$W/probe"
	cp "$CLAM/marker" "$W/probe/marker"
	if ! wait_for 60 marker_refused || ! alive "$CLAM/clamonacc.pid"; then
		setup_error "clamonacc is not watching $W after 60 s: the marker was not refused ($(cat "$CLAM/refused.txt")); clamonacc: $(tail -n 3 "$CLAM/clamonacc.out")"
		return 1
	fi
	if ! wait_for 10 marker_logged; then
		setup_error "the marker was refused but clamd's log has no FOUND for it"
		return 1
	fi
	rm -rf "$W/probe"
}

# stop PIDFILE: TERM, up to 10 s, then KILL; reaped when it is our child.
stop() {
	local pid st
	[ -s "$1" ] || return 0
	pid=$(cat "$1")
	kill -TERM "$pid" 2>/dev/null || return 0
	for _ in $(seq 1 100); do
		st=$(awk '{ print $3 }' "/proc/$pid/stat" 2>/dev/null)
		if [ -z "$st" ] || [ "$st" = Z ]; then break; fi
		sleep 0.1
	done
	kill -KILL "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}

# stop_clamav: clamonacc and clamd stopped, CLAM removed (teardown_file)
stop_clamav() {
	[ -n "${CLAM:-}" ] && [ -d "$CLAM" ] || return 0
	stop "$CLAM/clamonacc.pid"
	stop "$CLAM/clamd.pid"
	rm -rf "$CLAM"
}

# kit_run NAME CASES [ARG...]: one run of the kit (repro's further
# arguments ARG, --count 30 when none), its work folder in the watched folder
# and its results outside it; prints the run folder (nothing when it did not
# finish).
kit_run() {
	local out="$CLAM/results/$1" cases=$2 d
	shift 2
	[ $# -gt 0 ] || set -- --count 30
	mkdir -p "$out"
	TMPDIR="$W" RESULTS="$out" sh "$ROOT/scripts/repro" --cases "$cases" --threads 1 "$@" \
		>"$out.out" 2>&1 3>&- || true
	for d in "$out"/*/; do
		[ -f "$d/run.json" ] && printf '%s\n' "$d" && break
	done
	return 0
}

# clamav_skip: CLAMAV_SKIP, exported, says why ClamAV's on-access scanning
# cannot run here (empty when it can)
clamav_skip() {
	CLAMAV_SKIP=""
	if [ "$(uname -s)" != Linux ]; then
		CLAMAV_SKIP="ClamAV on-access scanning (clamonacc) is Linux-only; this is $(uname -s)"
	elif [ "$(id -u)" != 0 ]; then
		CLAMAV_SKIP="needs root: clamonacc watches with fanotify permission events"
	elif ! clamav_bin clamd >/dev/null || ! clamav_bin clamonacc >/dev/null || ! id clamav >/dev/null 2>&1; then
		CLAMAV_SKIP="ClamAV's clamd, clamonacc and clamav user are not installed (Debian: apt-get install clamav-daemon clamav clamdscan; under CI, make test-live installs them: scripts/tool/deps live)"
	else
		gate_probe
		[ -z "$GATE_SKIP" ] || CLAMAV_SKIP="fanotify permission events are unavailable: $GATE_SKIP"
	fi
	export CLAMAV_SKIP
}

