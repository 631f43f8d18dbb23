/* report_svg.c - the SVG plots (svg.c draws the shapes): a run's
 * plot-launch.svg and plot-scaling.svg, written beside report.md from the
 * same numbers, and aggregate's penalty per case and machine.
 *
 * plot-launch: for each case, its headline config's launches as dots on a
 * log time axis (first pass above, repeat below), a box over the middle
 * half and a bar at the median; the medians and the penalty are written
 * beside them, with the numbers of report.md.
 * plot-scaling: one panel per case, launches per second of each pass
 * against the thread count, on a log axis, each point labelled.
 * aggregate: one band a case, a lane a run, its median penalty and interval
 * on a log axis with the floor and the zone below it, coloured by the kind
 * of machine and condition. */
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "report_common.h"
#include "aggtable.h"
#include "svg.h"
#include "launcherspec.h"
#include "conditions.h"
#include "stats.h"
#include "thresholds.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* plot-launch geometry, in pixels */
#define L_WIDTH 860
#define L_X0 150     /* left end of the time axis */
#define L_X1 640     /* right end */
#define L_TOP 78     /* first case band */
#define L_BAND 78    /* height of one case */
#define L_BOTTOM 62  /* axis labels and title */
#define MAX_DOTS 200 /* more launches than this: evenly spaced quantiles */

/* plot-scaling geometry */
#define S_COLS 3
#define S_PANEL_W 290
#define S_PANEL_H 250
#define S_LEFT 40
#define S_TOP 84

/* The line under a plot's title that says the run is a test of the kit:
 * simulated (nothing launched), or under the calibration gate; else NULL. */
static const char *kit_note(const struct run *r, char *buf, size_t len)
{
	if (report_simulated(r)) {
		snprintf(buf, len, "Simulated run: nothing was launched, the times are a seeded "
			 "model's: a test of the kit, not evidence.");
		return buf;
	}
	if (!report_gate_active(r))
		return NULL;
	snprintf(buf, len, "Calibration gate active (latency %s ms, workers %s, key %s, "
		 "exempt %s): a test of the kit, not of an OS.",
		 run_condition(r, "gate.latency_ms") ? run_condition(r, "gate.latency_ms") : "?",
		 run_condition(r, "gate.workers") ? run_condition(r, "gate.workers") : "?",
		 run_condition(r, "gate.key") ? run_condition(r, "gate.key") : "?",
		 run_condition(r, "gate.exempt") ? run_condition(r, "gate.exempt") : "?");
	return buf;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The successful launch times of one pass, ascending; *n is their count. */
static double *pass_times(const struct config *c, enum pass p, size_t *n)
{
	double *v = xmalloc((c->n_samples + 1) * sizeof *v);
	size_t i, k = 0;

	for (i = 0; i < c->n_samples; i++)
		if (c->samples[i].pass == p && stats_sample_ok(&c->samples[i]))
			v[k++] = c->samples[i].dur_ms;
	if (k > 1)
		qsort(v, k, sizeof *v, cmp_double);
	*n = k;
	return v;
}

/* ---- plot-launch ---------------------------------------------------------- */

/* The bands of plot-launch: each case's headline config, then the case's
 * other sizes (SIZE) at the headline's class and thread count, by size. */
struct band {
	const struct case_result *cr;
	const struct config *c;
};

static struct band *launch_bands(const struct run *r, size_t *n)
{
	struct band *b = NULL;
	size_t i, j;

	*n = 0;
	for (i = 0; i < r->n_cases; i++) {
		const struct case_result *cr = &r->cases[i];
		const struct config *h = cr->headline;

		b = xrealloc(b, (*n + 1 + cr->n_configs) * sizeof *b);
		b[*n].cr = cr;
		b[(*n)++].c = h;
		for (j = 0; j < cr->n_configs; j++) {
			const struct config *c = cr->configs[j];

			if (c != h && c->threads == h->threads && c->pad != h->pad &&
			    strcmp(c->class_name, h->class_name) == 0) {
				b[*n].cr = cr;
				b[(*n)++].c = c;
			}
		}
	}
	return b;
}

static void time_range(const struct band *b, size_t nb, double *min, double *max)
{
	size_t i, j;

	*min = INFINITY;
	*max = 0.0;
	for (i = 0; i < nb; i++) {
		const struct config *h = b[i].c;

		for (j = 0; j < h->n_samples; j++) {
			double d = h->samples[j].dur_ms;

			if (!stats_sample_ok(&h->samples[j]) || !(d > 0))
				continue;
			if (d < *min)
				*min = d;
			if (d > *max)
				*max = d;
		}
	}
}

/* One pass of one case: dots, box, median bar, and the median as text. */
static void strip(FILE *f, const struct log_axis *ax, const struct config *h,
		  enum pass p, double y)
{
	const char *colour = p == PASS_FIRST ? SVG_FIRST : SVG_REPEAT;
	char buf[96], num[32];
	size_t n, i, shown;
	double *v = pass_times(h, p, &n);
	double median = h->pass[p].median_ms;

	svg_text(f, L_X0 - 10, y + 4, "end", 12, colour, NULL,
		 p == PASS_FIRST ? "first" : "repeat");
	if (n == 0) {
		svg_text(f, L_X0 + 6, y + 4, "start", 12, SVG_MUTED, NULL,
			 "no successful launch");
		free(v);
		return;
	}
	/* whiskers from the fastest to the slowest launch */
	svg_line(f, log_axis_pos(ax, v[0]), y, log_axis_pos(ax, v[n - 1]), y,
		 colour, 1, NULL);
	svg_rect(f, log_axis_pos(ax, stats_quantile(v, n, 0.25)), y - 8,
		 log_axis_pos(ax, stats_quantile(v, n, 0.75)) -
			 log_axis_pos(ax, stats_quantile(v, n, 0.25)),
		 16, colour, colour, 0.15);
	shown = n > MAX_DOTS ? MAX_DOTS : n;
	for (i = 0; i < shown; i++) {
		size_t k = shown == n ? i : i * (n - 1) / (shown - 1);
		double jitter = (double)((int)((i * 7919u) % 11u) - 5);

		svg_circle(f, log_axis_pos(ax, v[k]), y + jitter, 2.6, colour, NULL, 0.55);
	}
	if (!isnan(median))
		svg_line(f, log_axis_pos(ax, median), y - 11, log_axis_pos(ax, median),
			 y + 11, SVG_INK, 2.5, NULL);
	num2(median, num, sizeof num);
	if (shown < n)
		snprintf(buf, sizeof buf, "median %s ms (n=%zu, %zu dots)", num, n, shown);
	else
		snprintf(buf, sizeof buf, "median %s ms (n=%zu)", num, n);
	svg_text(f, L_X1 + 14, y + 4, "start", 12, colour, NULL, buf);
	free(v);
}

/* The band's title: the case, its size when padded, and the penalty; the
 * first band of a case measured at several sizes gives the slope too. */
static void case_header(FILE *f, const struct case_result *cr, const struct config *h,
			double y)
{
	const struct penalty *pen = &h->penalty;
	char a[32], b[32], c[32], buf[384], name[160], size[32];
	size_t i;

	num2(pen->median_ms, a, sizeof a);
	if (isnan(pen->median_ms))
		snprintf(buf, sizeof buf, "no penalty: no launch succeeded in both passes, %s "
			 "(T=%ld, class %s)", stats_verdict_name(h->verdict), h->threads,
			 h->class_name);
	else if (isnan(pen->ci_low_ms))
		snprintf(buf, sizeof buf, "penalty %s ms [no interval], %s (T=%ld, class %s)",
			 a, stats_verdict_name(h->verdict), h->threads, h->class_name);
	else
		snprintf(buf, sizeof buf, "penalty %s ms [%s, %s], %s (T=%ld, class %s)", a,
			 num2(pen->ci_low_ms, b, sizeof b),
			 num2(pen->ci_high_ms, c, sizeof c),
			 stats_verdict_name(h->verdict), h->threads, h->class_name);
	for (i = 0; h == cr->headline && i < cr->n_slopes; i++)
		if (cr->slopes[i].threads == h->threads &&
		    strcmp(cr->slopes[i].class_name, h->class_name) == 0 &&
		    !isnan(cr->slopes[i].ms_per_mib)) {
			size_t len = strlen(buf);

			snprintf(buf + len, sizeof buf - len, "; %+.2f ms per MiB [%+.2f, %+.2f]",
				 cr->slopes[i].ms_per_mib, cr->slopes[i].ci_low,
				 cr->slopes[i].ci_high);
		}
	if (h->pad > 0)
		snprintf(name, sizeof name, "%s, %s", cr->name, size_text(h->pad, size, sizeof size));
	else
		snprintf(name, sizeof name, "%s", cr->name);
	fprintf(f, "<text x=\"12\" y=\"%.1f\" font-family=\"sans-serif\" font-size=\"13\" "
		"fill=\"%s\"><tspan font-weight=\"bold\">", y, SVG_INK);
	svg_escape(f, name);
	fputs("</tspan><tspan dx=\"8\" fill=\"" SVG_MUTED "\">— ", f);
	svg_escape(f, buf);
	fputs("</tspan></text>\n", f);
}

static void legend(FILE *f, double x, double y)
{
	svg_circle(f, x, y - 4, 4, SVG_FIRST, NULL, 1.0);
	svg_text(f, x + 9, y, "start", 12, SVG_INK, NULL, "first launch");
	svg_circle(f, x + 100, y - 4, 4, SVG_REPEAT, NULL, 1.0);
	svg_text(f, x + 109, y, "start", 12, SVG_INK, NULL, "repeat launch");
}

int report_svg_launch(const struct run *r, FILE *f)
{
	struct log_axis ax;
	char title[256], note[256];
	double min, max, bottom;
	size_t i, nb;
	struct band *bands = launch_bands(r, &nb);
	int height = L_TOP + (int)nb * L_BAND + L_BOTTOM;

	time_range(bands, nb, &min, &max);
	log_axis_fit(&ax, min, max, -3, L_X0, L_X1);
	snprintf(title, sizeof title, "execlag %s: first vs repeat launch time per case",
		 r->run_id);
	svg_begin(f, L_WIDTH, height, title,
		  "Each dot is one launch of a freshly made file (first) or of the same "
		  "file again (repeat), on a logarithmic time axis in milliseconds. The "
		  "box spans the middle half of the launches, the bar marks the median.");
	svg_text(f, 12, 24, "start", 16, SVG_INK, "bold",
		 "First vs repeat launch time, per case");
	snprintf(title, sizeof title, "run %s · box: middle half · bar: median · "
		 "line: fastest to slowest", r->run_id);
	svg_text(f, 12, 44, "start", 12, SVG_MUTED, NULL, title);
	legend(f, L_X1 + 14, 24);
	if (kit_note(r, note, sizeof note))
		svg_text(f, 12, 62, "start", 12, SVG_FIRST, NULL, note);
	bottom = L_TOP + (double)nb * L_BAND;
	svg_log_axis_x(f, &ax, L_TOP - 4, bottom, "launch time, ms (log scale)");
	for (i = 0; i < nb; i++) {
		double y = L_TOP + (double)i * L_BAND;

		if (i > 0)
			svg_line(f, 8, y - 2, L_WIDTH - 8, y - 2, SVG_GRID, 1, "3 3");
		case_header(f, bands[i].cr, bands[i].c, y + 14);
		strip(f, &ax, bands[i].c, PASS_FIRST, y + 36);
		strip(f, &ax, bands[i].c, PASS_REPEAT, y + 60);
	}
	free(bands);
	svg_end(f);
	return ferror(f) ? -1 : 0;
}

/* ---- plot-scaling ----------------------------------------------------------- */

struct panel {
	double x, y;            /* top left of the drawing area */
	double w, h;
	long tmin, tmax;
	const struct log_axis *ya;
};

static double panel_x(const struct panel *p, long threads)
{
	double inset = 24.0; /* keeps points and their labels off the axes */

	if (p->tmax <= p->tmin)
		return p->x + p->w / 2;
	return p->x + inset + (p->w - 2 * inset) *
			      (log2((double)threads) - log2((double)p->tmin)) /
			      (log2((double)p->tmax) - log2((double)p->tmin));
}

static void lps_range(const struct run *r, double *min, double *max)
{
	size_t i, j;
	int p;

	*min = INFINITY;
	*max = 0.0;
	for (i = 0; i < r->n_cases; i++)
		for (j = 0; j < r->cases[i].n_configs; j++)
			for (p = 0; p < PASS_COUNT; p++) {
				const struct pass_time *pt = &r->cases[i].configs[j]->passes[p];
				double v = pt->launches_per_s;

				if (!pt->present || !(v > 0) || !isfinite(v))
					continue;
				if (v < *min)
					*min = v;
				if (v > *max)
					*max = v;
			}
}

static const char *class_dash(int class_index)
{
	static const char *const dashes[] = { NULL, "7 4", "2 3" };

	return dashes[class_index % 3];
}

/* One pass of one class: the line, its points and their values. */
static void pass_line(FILE *f, const struct panel *p, const struct case_result *cr,
		      const char *class_name, int class_index, enum pass which)
{
	const char *colour = which == PASS_FIRST ? SVG_FIRST : SVG_REPEAT;
	double px = NAN, py = NAN, lx = NAN, ly = NAN;
	char num[32];
	size_t j;

	for (j = 0; j < cr->n_configs; j++) {
		const struct config *c = cr->configs[j];
		const struct pass_time *pt = &c->passes[which];
		double x, y;

		if (strcmp(c->class_name, class_name) != 0 || !pt->present ||
		    !(pt->launches_per_s > 0) || !isfinite(pt->launches_per_s))
			continue;
		x = panel_x(p, c->threads);
		y = log_axis_pos(p->ya, pt->launches_per_s);
		if (!isnan(px))
			svg_line(f, px, py, x, y, colour, 2, class_dash(class_index));
		if (which == PASS_FIRST)
			svg_circle(f, x, y, 4, colour, NULL, 1.0);
		else
			svg_rect(f, x - 3.5, y - 3.5, 7, 7, colour, NULL, 1.0);
		/* the value on the outside: above the point when this pass is the
		 * faster of the two here (higher on the axis), else below it */
		{
			const struct pass_time *other =
				&c->passes[which == PASS_FIRST ? PASS_REPEAT : PASS_FIRST];
			int above = other->present && other->launches_per_s > 0 ?
					    pt->launches_per_s >= other->launches_per_s :
					    which != PASS_FIRST;

			svg_text(f, x, above ? y - 9 : y + 17, "middle", 11, colour, NULL,
				 svg_num3(pt->launches_per_s, num, sizeof num));
		}
		px = lx = x;
		py = ly = y;
	}
	if (!isnan(lx) && (class_index > 0 || strcmp(class_name, "all") != 0))
		svg_text(f, lx + 8, ly + 4, "start", 10, colour, NULL, class_name);
}

/* "first x1.02, repeat x1.60 at T=4", from the case's scaling rows. */
static void scaling_summary(const struct case_result *cr, char *buf, size_t len)
{
	const struct scaling_row *best = NULL;
	char a[32], b[32];
	size_t i;

	for (i = 0; i < cr->n_scaling; i++)
		if (strcmp(cr->scaling[i].class_name, cr->headline->class_name) == 0 &&
		    (!best || cr->scaling[i].threads > best->threads))
			best = &cr->scaling[i];
	if (!best || best->threads <= 1) {
		snprintf(buf, len, "one thread count: nothing to scale");
		return;
	}
	snprintf(buf, len, "first x%s, repeat x%s at T=%ld%s%s",
		 num2(best->first, a, sizeof a), num2(best->repeat, b, sizeof b),
		 best->threads, cr->serialisation == SERIAL_NA ? "" : ": ",
		 cr->serialisation == SERIAL_NA ? "" : stats_serialisation_name(cr->serialisation));
}

static void scaling_panel(FILE *f, const struct case_result *cr, double ox, double oy,
			  const struct log_axis *ya_template)
{
	struct log_axis ya = *ya_template;
	struct panel p;
	const char *classes[8];
	char buf[160], num[32];
	int n_classes = 0, k;
	size_t j;

	p.x = ox + 56;
	p.y = oy + 46;
	p.w = S_PANEL_W - 56 - 22;
	p.h = S_PANEL_H - 46 - 46;
	ya.px0 = p.y + p.h;
	ya.px1 = p.y;
	p.ya = &ya;
	p.tmin = p.tmax = cr->configs[0]->threads;
	for (j = 0; j < cr->n_configs; j++) {
		const struct config *c = cr->configs[j];

		if (c->threads < p.tmin)
			p.tmin = c->threads;
		if (c->threads > p.tmax)
			p.tmax = c->threads;
		for (k = 0; k < n_classes; k++)
			if (strcmp(classes[k], c->class_name) == 0)
				break;
		if (k == n_classes && n_classes < 8)
			classes[n_classes++] = c->class_name;
	}

	svg_text(f, ox + 8, oy + 16, "start", 13, SVG_INK, "bold", cr->name);
	scaling_summary(cr, buf, sizeof buf);
	svg_text(f, ox + 8, oy + 31, "start", 11, SVG_MUTED, NULL, buf);
	svg_log_axis_y(f, &ya, p.x, p.x + p.w);
	svg_line(f, p.x, p.y + p.h, p.x + p.w, p.y + p.h, SVG_INK, 1, NULL);
	for (j = 0; j < cr->n_configs; j++) {
		long t = cr->configs[j]->threads;
		double x = panel_x(&p, t);
		size_t seen;

		for (seen = 0; seen < j; seen++)
			if (cr->configs[seen]->threads == t)
				break;
		if (seen < j)
			continue; /* one tick per thread count, whatever the classes */
		svg_line(f, x, p.y + p.h, x, p.y + p.h + 5, SVG_INK, 1, NULL);
		snprintf(num, sizeof num, "%ld", t);
		svg_text(f, x, p.y + p.h + 18, "middle", 11, SVG_INK, NULL, num);
	}
	svg_text(f, p.x + p.w / 2, p.y + p.h + 34, "middle", 11, SVG_INK, NULL, "threads");
	for (k = 0; k < n_classes; k++) {
		pass_line(f, &p, cr, classes[k], k, PASS_FIRST);
		pass_line(f, &p, cr, classes[k], k, PASS_REPEAT);
	}
}

int report_svg_scaling(const struct run *r, FILE *f)
{
	struct log_axis ya;
	char title[256], note[256];
	double min, max;
	size_t cols = r->n_cases < S_COLS ? r->n_cases : S_COLS;
	size_t rows = (r->n_cases + S_COLS - 1) / S_COLS, i;
	int width = S_LEFT + (int)(cols < 2 ? 2 : cols) * S_PANEL_W + 10;
	int height = S_TOP + (int)rows * S_PANEL_H + 10;

	lps_range(r, &min, &max);
	log_axis_fit(&ya, min, max, -2, 0, 1);
	snprintf(title, sizeof title, "execlag %s: launches per second against threads",
		 r->run_id);
	svg_begin(f, width, height, title,
		  "For each case, the launches per second of the first pass (fresh files) "
		  "and of the repeat pass (the same files again) at each thread count, on "
		  "a logarithmic axis. A first pass that stays flat while the repeat pass "
		  "rises means the first launches wait on something that does one at a time.");
	svg_text(f, 12, 24, "start", 16, SVG_INK, "bold",
		 "Launches per second against threads");
	snprintf(title, sizeof title, "run %s · reading: a first pass that stays flat while "
		 "the repeat pass rises means first launches wait their turn", r->run_id);
	svg_text(f, 12, 44, "start", 12, SVG_MUTED, NULL, title);
	svg_circle(f, width - 250, 20, 4, SVG_FIRST, NULL, 1.0);
	svg_text(f, width - 241, 24, "start", 12, SVG_INK, NULL, "first pass");
	svg_rect(f, width - 153.5, 16.5, 7, 7, SVG_REPEAT, NULL, 1.0);
	svg_text(f, width - 141, 24, "start", 12, SVG_INK, NULL, "repeat pass");
	if (kit_note(r, note, sizeof note))
		svg_text(f, 12, 62, "start", 12, SVG_FIRST, NULL, note);
	svg_text_up(f, 16, S_TOP + (double)rows * S_PANEL_H / 2, 12, SVG_INK,
		    "launches per second (log scale)");
	for (i = 0; i < r->n_cases; i++)
		scaling_panel(f, &r->cases[i], S_LEFT + (double)(i % S_COLS) * S_PANEL_W,
			      S_TOP + (double)(i / S_COLS) * S_PANEL_H, &ya);
	svg_end(f);
	return ferror(f) ? -1 : 0;
}

/* ---- aggregate.svg ------------------------------------------------------------------ */

#define A_WIDTH 900
#define A_X0 150
#define A_X1 660
#define A_TOP 70
#define A_LO 0.1          /* the axis starts here: penalties at or below sit at its left edge */
#define A_NONE_ZONE "#E3F1E3" /* the shaded zone below the floor: "none" */

/* Eight conditions, eight colours that differ in hue and lightness
 * (Okabe–Ito, black and grey): no two of macOS, Linux, the gate and the
 * simulator share one.  The yellow is outlined in a darker shade to stand out on white. */
static const char *const group_names[] = {
	"macOS, SIP on", "macOS, Developer Tools", "macOS, other", "Linux",
	"Linux, gate", "Linux, gate, exempt", "simulated", "other"
};
static const char *const group_colours[] = {
	"#D55E00", "#009E73", "#F0E442", "#0072B2", "#000000", "#CC79A7", "#56B4E9", "#999999"
};
static const char *const group_strokes[] = {
	"#D55E00", "#009E73", "#8A8000", "#0072B2", "#000000", "#CC79A7", "#56B4E9", "#999999"
};
#define N_GROUPS (sizeof group_names / sizeof group_names[0])

static size_t group_index(const char *g)
{
	size_t i;

	for (i = 0; i < N_GROUPS; i++)
		if (strcmp(group_names[i], g) == 0)
			return i;
	return N_GROUPS - 1;
}

/* The label of a run in the plot: its row number, and its tag (the seat
 * name an attendee gave with make repro TAG=…) where the run has one. */
static const char *run_label(const struct row *r, size_t index, char *buf, size_t len)
{
	const char *id = r->run_id, *p = id ? strchr(id, '-') : NULL;

	/* run ids are <UTC time>-<6 hex>[-TAG] */
	if (p && strlen(p) > 8 && p[7] == '-')
		snprintf(buf, len, "#%zu %.24s", index + 1, p + 8);
	else
		snprintf(buf, len, "#%zu", index + 1);
	return buf;
}

/* The penalty axis: from 0.1 ms, always past the 1 ms floor. */
static void agg_axis(const struct agg_table *t, struct log_axis *ax)
{
	double max = 0.0;
	size_t i, j;

	for (i = 0; i < t->n_rows; i++)
		for (j = 0; j < t->rows[i].n_cells; j++) {
			const struct cell *c = &t->rows[i].cells[j];
			double v[3] = { c->median, c->low, c->high };
			int k;

			for (k = 0; k < 3; k++)
				if (isfinite(v[k]) && v[k] > max)
					max = v[k];
		}
	log_axis_fit(ax, A_LO, max > 10.0 ? max : 10.0, -1, A_X0, A_X1);
}

/* The title, what the marks mean, the zone below the floor, the axis and
 * the floor itself, down to BOTTOM. */
static void agg_frame(const struct agg_table *t, const struct log_axis *ax, int height,
		      double bottom, FILE *f)
{
	double floor_x = log_axis_pos(ax, PENALTY_FLOOR_MS);
	char buf[160];

	snprintf(buf, sizeof buf, "execlag aggregate: penalty per case and machine, %zu runs",
		 t->n_rows);
	svg_begin(f, A_WIDTH, height, buf,
		  "For each case, each run's median first-launch penalty (first minus repeat "
		  "launch of the same file) in milliseconds on a logarithmic axis from 0.1 ms, "
		  "with its 95% interval as a line, one lane per run in the table's row order. "
		  "The shaded zone left of the 1 ms floor is where a penalty counts as none. "
		  "Filled: slowdown; hollow: none or inconclusive. Colour: the kind of machine "
		  "and condition.");
	svg_text(f, 12, 24, "start", 18, SVG_INK, "bold", "Penalty per case and machine");
	snprintf(buf, sizeof buf, "%zu run%s, one lane each · dot: median penalty, line: 95%% "
		 "interval · filled: slowdown", t->n_rows, t->n_rows == 1 ? "" : "s");
	svg_text(f, 12, 44, "start", 13, SVG_MUTED, NULL, buf);
	svg_text(f, 12, 60, "start", 12, SVG_MUTED, NULL,
		 "shaded: below the 1 ms floor (none) · at or below 0.1 ms, negative included: "
		 "at the left edge");
	svg_rect(f, A_X0, A_TOP - 4, floor_x - A_X0, bottom - (A_TOP - 4), A_NONE_ZONE, NULL, 1.0);
	svg_log_axis_x(f, ax, A_TOP - 4, bottom, "penalty, ms (log scale)");
	svg_line(f, floor_x, A_TOP - 4, floor_x, bottom, SVG_INK, 1.5, "6 3");
	svg_text(f, floor_x + 4, A_TOP + 8, "start", 11, SVG_INK, NULL, "1 ms floor");
}

/* Case j's band from TOP: its name, and a lane a run with its label, its
 * interval and its median, filled where it is a slowdown. */
static void agg_band(const struct agg_table *t, size_t j, const struct log_axis *ax,
		     double top, double lane, FILE *f)
{
	int labels = t->n_rows <= 40;
	char buf[160];
	size_t i;

	if (j > 0)
		svg_line(f, 8, top, A_X1 + 8, top, SVG_MUTED, 1, "3 3");
	svg_text(f, 12, top + 16, "start", 14, SVG_INK, "bold", t->cases[j]);
	for (i = 0; i < t->n_rows; i++) {
		const struct row *r = &t->rows[i];
		const struct cell *c = agg_cell(r, t->cases[j]);
		size_t g = group_index(r->group);
		double x, y = top + 22 + lane * (double)i;
		int filled;

		/* the run's label in a column of its own: labels never overlap */
		if (labels && lane >= 10.0 && j == 0)
			svg_text(f, A_X0 - 10, y + 4, "end", 10, SVG_MUTED, NULL,
				 run_label(r, i, buf, sizeof buf));
		else if (labels && lane >= 10.0)
			svg_text(f, A_X0 - 10, y + 4, "end", 10, SVG_MUTED, NULL,
				 (snprintf(buf, sizeof buf, "#%zu", i + 1), buf));
		if (!c || isnan(c->median))
			continue;
		if (!isnan(c->low))
			svg_line(f, log_axis_pos(ax, c->low), y, log_axis_pos(ax, c->high), y,
				 group_strokes[g], 2, NULL);
		x = log_axis_pos(ax, c->median);
		filled = strcmp(c->verdict, "slowdown") == 0;
		svg_circle(f, x, y, lane >= 10.0 ? 5 : 3, filled ? group_colours[g] : "#FFFFFF",
			   group_strokes[g], 1.0);
	}
}

/* The colours of the kinds of machine and condition the table has. */
static void agg_legend(const struct agg_table *t, FILE *f)
{
	int used[N_GROUPS] = { 0 };
	double y = A_TOP + 8;
	size_t i;

	for (i = 0; i < t->n_rows; i++)
		used[group_index(t->rows[i].group)] = 1;
	svg_text(f, A_X1 + 30, y, "start", 13, SVG_INK, "bold", "machine, condition");
	for (i = 0; i < N_GROUPS; i++) {
		if (!used[i])
			continue;
		y += 22;
		svg_circle(f, A_X1 + 36, y - 4, 6, group_colours[i], group_strokes[i], 1.0);
		svg_text(f, A_X1 + 48, y, "start", 13, SVG_INK, NULL, group_names[i]);
	}
}

int report_svg_aggregate(const struct agg_table *t, FILE *f)
{
	struct log_axis ax;
	/* one lane per run, in row order: narrower with many runs */
	double lane = t->n_rows <= 12 ? 13.0 : t->n_rows <= 40 ? 10.0 : 5.0;
	double band = 24.0 + lane * (double)(t->n_rows ? t->n_rows : 1);
	double bottom = A_TOP + band * (double)t->n_cases;
	size_t j;

	agg_axis(t, &ax);
	agg_frame(t, &ax, (int)bottom + 60, bottom, f);
	for (j = 0; j < t->n_cases; j++)
		agg_band(t, j, &ax, A_TOP + band * (double)j, lane, f);
	agg_legend(t, f);
	svg_end(f);
	return ferror(f) ? -1 : 0;
}

/* ---- the run's files ------------------------------------------------------ */

static void write_one(const char *dir, const char *name, const struct run *r,
		      report_writer *draw)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *path = xmalloc(n);
	struct atomic_file out;

	snprintf(path, n, "%s/%s", dir, name);
	if (atomic_open(&out, path) != 0) {
		die_if_full(EXIT_FAIL, dir);
		die(EXIT_FAIL, "%s: cannot create:", path);
	}
	errno = 0;
	if (draw(r, out.fp) != 0) {
		atomic_abort(&out);
		die_if_full(EXIT_FAIL, dir);
		if (errno == 0)
			die(EXIT_FAIL, "%s: cannot write the plot (no reason given)", path);
		die(EXIT_FAIL, "%s: cannot write:", path);
	}
	if (atomic_commit(&out) != 0) {
		die_if_full(EXIT_FAIL, dir);
		die(EXIT_FAIL, "%s: cannot write:", path);
	}
	free(path);
}

void report_write_plots(const char *dir, const struct run *r)
{
	if (r->n_cases == 0)
		return; /* a run of the suite case alone: no launches to draw */
	write_one(dir, PLOT_LAUNCH_SVG, r, report_svg_launch);
	write_one(dir, PLOT_SCALING_SVG, r, report_svg_scaling);
}
