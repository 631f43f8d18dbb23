#!/usr/bin/env bats
# P3: what the first-launch cache remembers, inferred from a hard link (same
# inode, new path), a copy (new inode, same bytes) and a rewrite (new inode
# renamed over an old path).
load lib

setup() { pattern_setup; }

@test "P3 cache key: hardlink, copy and rewrite show the expected key" {
	require_cases exe exe-hardlink exe-copy exe-rewrite
	inferred=$(f inferred/cache_key)
	reason=$(f inferred/reason)
	case $CONTEXT in
	gate|sim) want=$(checker key) ;;
	macos) want=inode ;; # evidence.md §2: observed behaviour points to the inode
	control|gate-exempt|macos-exempt|sim-exempt) want=undetermined ;;
	*) skip "not applicable: no expectation for $(context_text)" ;;
	esac
	say "P3 cache key — $(context_text); expected: $want, inferred: $inferred ($reason)"
	assert_equal "$inferred" "$want"
	if [ "$want" = undetermined ]; then
		# no penalty anywhere, so nothing to key: none, or inconclusive
		for c in exe-hardlink exe-copy exe-rewrite; do expect_verdict "$c" none; done
	else
		for c in exe-hardlink exe-copy exe-rewrite; do
			say "  $(numbers "$c")"
			[ "$(verdict "$c")" != inconclusive ] || echo "# ~inconclusive $c" >&3
		done
	fi
}
