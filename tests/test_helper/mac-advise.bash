# (run_sep: quickrun.bash's, what run --separate-stderr sets, cheaper)
declare -F run_sep >/dev/null || . "${BASH_SOURCE[0]%/*}/quickrun.bash"

# mac_advise SAMPLES STATE ID [DEVTOOLS=WORD] [ENV=VALUE...]: the folder RUN
# (the caller's) becomes a Mac's doctor run: its samples SAMPLES, a simulated
# probe's already without their launcher line (which would have analyze call
# the run simulated, as it is; a file's setup_file strips them once), its
# conditions sysinfo's on the fake Mac STATE (tests/fakes/states) started in
# an environment of ENV alone, DEVTOOLS=WORD replacing its Developer Tools
# state, its run.id ID; analyzed, then advise --doctor on it ($output,
# $stderr, $status, by run_sep: no subshell, no mktemp).  Needs FAKES and
# BIN.  With HEALTH=1 in the caller, the checker's health too:
# scripts/probe/health on STATE's fakes, its record beside the run and its
# checker.* lines in the conditions, as make repro writes them
# (scripts/lib/health).
mac_advise() {
	local samples=$1 state=$2 id=$3 dt= text=
	shift 3
	case ${1:-} in DEVTOOLS=*) dt=${1#DEVTOOLS=}; shift ;; esac
	rm -rf "$RUN"
	mkdir -p "$RUN/raw"
	IFS= read -r -d '' text <"$samples" || :
	printf '%s' "$text" >"$RUN/raw/exe-t1-all.samples.tsv"
	mac_conditions "$state" "$id" "$dt" "$@"
	"$BIN/analyze" --run "$RUN" --quiet || fail "analyze failed on $RUN"
	run_sep "$BIN/advise" --run "$RUN" --doctor
}

# mac_conditions STATE ID DEVTOOLS [ENV=VALUE...]: $RUN/conditions.txt of a
# Mac's doctor run, as mac_advise says (DEVTOOLS empty: sysinfo's own).  The
# health's bounds leave no race with real work on a loaded machine: the
# wedged state's assessment never answers (bound 1 s, waited out), every
# other state's fake answers at once (20 s), and the log's minute has 120 s.
mac_conditions() {
	local state=$1 id=$2 dt=$3 hb=20
	shift 3
	[ "$state" != health-wedged ] || hb=1
	{
		if [ -n "$dt" ]; then
			env -i PATH="$FAKES/bin:$PATH" HOME=/Users/alice FAKE_STATE="$FAKES/states/$state" \
				EXECLAG_DEVTOOLS="$FAKES/bin/devtools" "$@" sh "$ROOT/scripts/probe/sysinfo" </dev/null |
				sed "s/^devtools=.*/devtools=$dt/"
		else
			env -i PATH="$FAKES/bin:$PATH" HOME=/Users/alice FAKE_STATE="$FAKES/states/$state" \
				EXECLAG_DEVTOOLS="$FAKES/bin/devtools" "$@" sh "$ROOT/scripts/probe/sysinfo" </dev/null
		fi
		echo "run.id=$id"
		echo "run.profile=doctor"
		echo "launcher=spawn"
		echo "gate.active=0"
		if [ "${HEALTH:-0}" = 1 ]; then
			env -i PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/$state" EXECLAG_LOG="$FAKES/bin/log" \
				sh "$ROOT/scripts/probe/health" --out "$RUN/health.tsv" --bound "$hb" --log-bound 120 </dev/null
			"$BIN/advise" --health "$RUN/health.tsv"
		fi
	} >"$RUN/conditions.txt"
}
