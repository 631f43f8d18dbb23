#!/usr/bin/env bats
# P3: what the first-launch cache remembers, inferred from a hard link (same
# inode, new path), a copy (new inode, same bytes) and a rewrite (new inode
# renamed over an old path).
load lib

setup() { pattern_setup; }

@test "P3 cache key: hardlink, copy and rewrite show the expected key" {
	require_cases exe exe-hardlink exe-copy exe-rewrite
	# both by one runfield, a line each (where one is missing, the test
	# ends here)
	inferred=$(f inferred/cache_key inferred/reason)
	case $inferred in
	*$'\n'*) reason=${inferred#*$'\n'} inferred=${inferred%%$'\n'*} ;;
	*) reason="" ;;
	esac
	case $CONTEXT in
	gate|sim) checker_v key; want=$CHECKER ;;
	macos) want=inode ;; # evidence.md §2: observed behaviour points to the inode
	control|gate-exempt|macos-exempt|sim-exempt) want=undetermined ;;
	*) skip "not applicable: no expectation for $CONTEXT_TEXT" ;;
	esac
	say "P3 cache key — $CONTEXT_TEXT; expected: $want, inferred: $inferred ($reason)"
	assert_equal "$inferred" "$want"
	if [ "$want" = undetermined ]; then
		# no penalty anywhere, so nothing to key: none, or inconclusive
		for c in exe-hardlink exe-copy exe-rewrite; do expect_verdict "$c" none; done
	else
		for c in exe-hardlink exe-copy exe-rewrite; do
			numbers_v "$c"; say "  $NUMBERS"
			verdict_v "$c"; [ "$VERDICT" != inconclusive ] || echo "# ~inconclusive $c" >&3
		done
	fi
}
