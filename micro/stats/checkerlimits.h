/* checkerlimits.h - every number the checker's health state depends on
 * (checkerstate.c), each with the public reports it comes from and why it
 * lies where it does (docs/evidence.md §16 has the lines quoted).  Change
 * them here and nowhere else. */
#ifndef EXECLAG_CHECKERLIMITS_H
#define EXECLAG_CHECKERLIMITS_H

/* exhausted: this many lines of error 24 ("UNIX error exception: 24",
 * "error: 100024", "Too many open files") in the minute read.  A healthy
 * syspolicyd logs none ("zero EMFILE" for 4.5 h, arm C of openai/codex#27662);
 * an exhausted one 103,521 in 5 minutes (#27662, openjay's watchdog line),
 * and that watchdog restarted syspolicyd at 5 in 5 minutes ("err_max=5"):
 * 5 in one minute asks at least as much.  A "Too many open files" answer to
 * the assessment is exhausted whatever the log says (#25243, #29796). */
#define CHECKER_EMFILE_LINES_MIN 5L

/* busy: syspolicyd at this %CPU (ps, summed over instances) or more while
 * it still answers.  Reported sick: 143% (#25243), 215-230% (#34768),
 * 394.2% (rjwalters/loom#4046), 136.3% and 180.7% (#28545), 81.4% and
 * ~54% (#27662), ~59% (#29796, already exhausted); healthy: "0%" after a
 * restart (#25882), "idle at 0-0.3% CPU" (#27662).  50% lies below every
 * sick figure and far above the idle ones. */
#define CHECKER_BUSY_CPU_PCT 50.0

/* busy: or syspolicyd's resident memory at this many KiB or more.  #27662's
 * watchdog restarted syspolicyd above "rss_max_kb=512000"; sick figures:
 * ~2.6 GB after ~14 minutes (#25243), 1.05-3.4 GB (#27662, arm A), 1.52 GB
 * "semi-polluted" (#25882); healthy: ~136 MB after a restart (#25882), 58 MB
 * at birth and 86 MB after 4.5 hours (#27662, arm C). */
#define CHECKER_BUSY_RSS_KB 512000L

/* storm: syspolicyd's lines that are not the kit's, a second over the
 * minute read, at least this many.  #25882: ~3,300 "Performing
 * unconditional ticket check" and ~3,300 "Recording cache miss" in 15 s
 * ("~220/sec" each, 440 lines a second); #27662: 54k-141k lines in the
 * first 5 minutes after a restart (180-470 a second).  Quiet: 11 lines a
 * minute (#28180, calmer), "4-10 lines / 5 min" (#27662, arm C), 1 line for a
 * warm run (paddymul/buckaroo#634).  A legitimate burst stays below it over
 * a minute: buckaroo's cold first run logged 3,307 lines in 16.19 s, 55 a
 * second over 60. */
#define CHECKER_STORM_RATE 100.0

/* storm: and at least this many times the baseline: the kit's own line
 * rate (lines naming its work folder), or CHECKER_BASELINE_FLOOR when that
 * is lower.  One check of the kit's own logs about as many lines naming no
 * program as naming it (six lines a check, three of them named,
 * docs/macos.md §16), which count as others': ten times leaves room for
 * them while the kit itself launches. */
#define CHECKER_STORM_FACTOR 10.0

/* The least baseline, lines a second: above every quiet figure of
 * CHECKER_STORM_RATE's (11 a minute, 10 in 5 minutes, 1 a run). */
#define CHECKER_BASELINE_FLOOR 1.0

#endif
