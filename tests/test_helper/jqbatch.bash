# jqbatch.bash - loaded by test files (load test_helper/jqbatch) that assert
# many values of a run.json: jq_is and jq_near, asked by one jq a group.
# A file that loads it calls jq_flush in its teardown.
# jq_is FILTER WANT: the raw jq result equals WANT.
# jq_near FILTER WANT: numerically equal within 1e-5 relative (run.json
# keeps 6 significant digits).
# Both are asked of run.json by one jq for a whole group, not one each (a
# jq is some 30 ms of CPU, and a test asks up to twenty): they queue their
# filter, with the run.json it is for ($JSON), and jq_flush asks them all
# of that file as it is then, failing with every one that does not hold.
# A jq_is for another run.json flushes first; a test flushes before it
# changes a run.json it asserted on (or a helper that remakes one does, as
# tests/analyze.bats' analyze_fixture); teardown flushes what is left.
# jq_flush loops in the shell: it runs without bats' DEBUG trap
# (kit_untraced, checks/kit.bash).
JQ_KIND=() JQ_FILTER=() JQ_WANT=() JQ_JSON=""
jq_is() { jq_queue is "$1" "$2"; }
jq_near() { jq_queue near "$1" "$2"; }
jq_queue() {
	[ "${#JQ_FILTER[@]}" = 0 ] || [ "$JQ_JSON" = "$JSON" ] || jq_flush
	JQ_JSON=$JSON
	JQ_KIND+=("$1")
	JQ_FILTER+=("$2")
	JQ_WANT+=("$3")
}

jq_flush() { kit_untraced _jq_flush "$@"; }
_jq_flush() {
	local n=${#JQ_FILTER[@]} i prog="" w sep=$'\x1f' out line got first=1 blocks=() bad=""
	local kind=("${JQ_KIND[@]}") filter=("${JQ_FILTER[@]}") want=("${JQ_WANT[@]}")
	[ "$n" -gt 0 ] || return 0
	JQ_KIND=() JQ_FILTER=() JQ_WANT=()
	# each filter's raw output, then a line of the separator (\u001f)
	for ((i = 0; i < n; i++)); do
		case ${kind[i]} in
		is) prog="$prog(${filter[i]}), \"\\u001f\", " ;;
		near)
			w="(${want[i]})"
			prog="$prog((${filter[i]}) as \$v | (\$v - $w) as \$d
				| if (if \$d < 0 then -\$d else \$d end)
				     <= 1e-5 * (if $w < 0 then -$w elif $w < 1 then 1 else $w end)
				  then \"near\" else \"got \\(\$v | tojson)\" end), \"\\u001f\", " ;;
		esac
	done
	out=$(jq -r "${prog}empty" "$JQ_JSON") || fail "jq failed on: ${filter[*]}"
	# the blocks between separators, as $( ) gives each: no newline at its end
	while IFS= read -r line; do
		if [ "$line" = "$sep" ]; then
			while [ "${got%$'\n'}" != "$got" ]; do got=${got%$'\n'}; done
			blocks+=("$got")
			got="" first=1
		elif [ "$first" = 1 ]; then
			got=$line first=0
		else
			got="$got"$'\n'"$line"
		fi
	done <<<"$out"
	[ "${#blocks[@]}" = "$n" ] || fail "jq gave ${#blocks[@]} answers to $n filters: ${filter[*]}"
	for ((i = 0; i < n; i++)); do
		got=${blocks[i]}
		case ${kind[i]} in
		is) [ "$got" = "${want[i]}" ] || bad="$bad${filter[i]}: got '$got', want '${want[i]}'"$'\n' ;;
		near) [ "$got" = near ] || bad="$bad${filter[i]}: ${got#got }, want ${want[i]}"$'\n' ;;
		esac
	done
	[ -z "$bad" ] || fail "${bad%$'\n'}"
}
