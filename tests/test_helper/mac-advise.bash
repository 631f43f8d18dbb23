# mac_advise SAMPLES STATE ID [DEVTOOLS=WORD] [ENV=VALUE...]: the folder RUN
# (the caller's) becomes a Mac's doctor run: its samples SAMPLES, a simulated
# probe's without their launcher line (which would have analyze call the run
# simulated, as it is), its conditions sysinfo's on the fake Mac STATE
# (tests/fakes/states) started in an environment of ENV alone, DEVTOOLS=WORD
# replacing its Developer Tools state, its run.id ID; analyzed, then
# advise --doctor on it ($output, $status).  Needs FAKES and BIN.  With
# HEALTH=1 in the caller, the checker's health too: scripts/probe/health on
# STATE's fakes, its record beside the run and its checker.* lines in the
# conditions, as make repro writes them (scripts/lib/health).
mac_advise() {
	local samples=$1 state=$2 id=$3 dt=
	shift 3
	case ${1:-} in DEVTOOLS=*) dt=${1#DEVTOOLS=}; shift ;; esac
	rm -rf "$RUN"
	mkdir -p "$RUN/raw"
	grep -v '^meta	launcher	' "$samples" >"$RUN/raw/exe-t1-all.samples.tsv"
	{
		env -i PATH="$FAKES/bin:$PATH" HOME=/Users/alice FAKE_STATE="$FAKES/states/$state" \
			EXECLAG_DEVTOOLS="$FAKES/bin/devtools" "$@" sh "$ROOT/scripts/probe/sysinfo" </dev/null |
			if [ -n "$dt" ]; then sed "s/^devtools=.*/devtools=$dt/"; else cat; fi
		echo "run.id=$id"
		echo "run.profile=doctor"
		echo "launcher=spawn"
		echo "gate.active=0"
		if [ "${HEALTH:-0}" = 1 ]; then
			env -i PATH="$FAKES/bin:$PATH" FAKE_STATE="$FAKES/states/$state" EXECLAG_LOG="$FAKES/bin/log" \
				sh "$ROOT/scripts/probe/health" --out "$RUN/health.tsv" --bound 1 </dev/null
			"$BIN/advise" --health "$RUN/health.tsv"
		fi
	} >"$RUN/conditions.txt"
	"$BIN/analyze" --run "$RUN" --quiet || fail "analyze failed on $RUN"
	run --separate-stderr "$BIN/advise" --run "$RUN" --doctor
}
