/* svg.c - SVG 1.1 shapes: text, lines, boxes, dots, log axes (svg.h). */
#define _POSIX_C_SOURCE 200809L
#include "svg.h"

#include <math.h>
#include <string.h>

#define FONT "font-family=\"sans-serif\""

void svg_begin(FILE *f, int width, int height, const char *title,
	       const char *desc)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		width, height, width, height);
	fputs("<title>", f);
	svg_escape(f, title);
	fputs("</title>\n<desc>", f);
	svg_escape(f, desc);
	fputs("</desc>\n", f);
	/* An opaque page: readable on a dark theme too. */
	fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#FFFFFF\"/>\n",
		width, height);
}

void svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF)
		n = 2;
	else if (s[0] >= 0xE0 && s[0] <= 0xEF)
		n = 3;
	else if (s[0] >= 0xF0 && s[0] <= 0xF4)
		n = 4;
	else
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if (n == 3 && s[0] == 0xE0 && s[1] < 0xA0)
		return 0; /* overlong */
	if (n == 3 && s[0] == 0xED && s[1] >= 0xA0)
		return 0; /* surrogate */
	if (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)))
		return 0;
	return n;
}

void svg_escape(FILE *f, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;

	while (*s) {
		size_t n = utf8_len(s);

		if (n == 0) {
			fputc('?', f);
			s++;
			continue;
		}
		if (n > 1) {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		}
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			fputc(*s < 0x20 || *s == 0x7F ? '?' : *s, f);
		}
		s++;
	}
}

void svg_text(FILE *f, double x, double y, const char *anchor, double size,
	      const char *fill, const char *weight, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" " FONT " font-size=\"%g\" fill=\"%s\"",
		x, y, size, fill);
	if (anchor && strcmp(anchor, "start") != 0)
		fprintf(f, " text-anchor=\"%s\"", anchor);
	if (weight)
		fprintf(f, " font-weight=\"%s\"", weight);
	fputc('>', f);
	svg_escape(f, text);
	fputs("</text>\n", f);
}

void svg_text_up(FILE *f, double x, double y, double size, const char *fill,
		 const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" " FONT " font-size=\"%g\" fill=\"%s\" "
		"text-anchor=\"middle\" transform=\"rotate(-90 %.1f %.1f)\">",
		x, y, size, fill, x, y);
	svg_escape(f, text);
	fputs("</text>\n", f);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2,
	      const char *stroke, double width, const char *dash)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"%g\"", x1, y1, x2, y2, stroke, width);
	if (dash)
		fprintf(f, " stroke-dasharray=\"%s\"", dash);
	fputs("/>\n", f);
}

void svg_rect(FILE *f, double x, double y, double w, double h,
	      const char *fill, const char *stroke, double opacity)
{
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"",
		x, y, w < 0 ? 0 : w, h < 0 ? 0 : h, fill ? fill : "none");
	if (opacity < 1.0)
		fprintf(f, " fill-opacity=\"%g\"", opacity);
	if (stroke)
		fprintf(f, " stroke=\"%s\"", stroke);
	fputs("/>\n", f);
}

void svg_circle(FILE *f, double cx, double cy, double r, const char *fill,
		const char *stroke, double opacity)
{
	fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%g\" fill=\"%s\"", cx, cy, r,
		fill ? fill : "none");
	if (opacity < 1.0)
		fprintf(f, " fill-opacity=\"%g\"", opacity);
	if (stroke)
		fprintf(f, " stroke=\"%s\" stroke-width=\"1.2\"", stroke);
	fputs("/>\n", f);
}

/* ---- log axes ------------------------------------------------------------- */

void log_axis_fit(struct log_axis *a, double min, double max, int floor_exp,
		  double px0, double px1)
{
	int lo, hi;

	if (!(min > 0) || !isfinite(min))
		min = pow(10.0, floor_exp);
	if (!(max > 0) || !isfinite(max) || max < min)
		max = min;
	/* The small slack keeps an exact decade (10.0) from opening another. */
	lo = (int)floor(log10(min) + 1e-9);
	hi = (int)ceil(log10(max) - 1e-9);
	if (lo < floor_exp)
		lo = floor_exp;
	if (hi > 9)
		hi = 9;
	if (hi <= lo)
		hi = lo + 1;
	a->lo = lo;
	a->hi = hi;
	a->px0 = px0;
	a->px1 = px1;
}

double log_axis_pos(const struct log_axis *a, double v)
{
	double t;

	if (!(v > 0) || !isfinite(v))
		t = 0.0;
	else
		t = (log10(v) - a->lo) / (double)(a->hi - a->lo);
	if (t < 0.0)
		t = 0.0;
	if (t > 1.0)
		t = 1.0;
	return a->px0 + t * (a->px1 - a->px0);
}

const char *svg_decade_label(int exp, char *buf, size_t len)
{
	if (exp >= 0)
		snprintf(buf, len, "%.0f", pow(10.0, exp));
	else
		snprintf(buf, len, "%.*f", -exp, pow(10.0, exp));
	return buf;
}

void svg_log_axis_x(FILE *f, const struct log_axis *a, double y_top,
		    double y_bottom, const char *title)
{
	char buf[32];
	int e, m;

	for (e = a->lo; e < a->hi; e++)
		for (m = 2; m <= 9; m++) {
			double x = log_axis_pos(a, m * pow(10.0, e));

			svg_line(f, x, y_top, x, y_bottom, SVG_GRID_MINOR, 1, NULL);
		}
	for (e = a->lo; e <= a->hi; e++) {
		double x = log_axis_pos(a, pow(10.0, e));

		svg_line(f, x, y_top, x, y_bottom, SVG_GRID, 1, NULL);
		svg_line(f, x, y_bottom, x, y_bottom + 5, SVG_INK, 1, NULL);
		svg_text(f, x, y_bottom + 19, "middle", 12, SVG_INK, NULL,
			 svg_decade_label(e, buf, sizeof buf));
	}
	svg_line(f, a->px0, y_bottom, a->px1, y_bottom, SVG_INK, 1, NULL);
	if (title)
		svg_text(f, (a->px0 + a->px1) / 2, y_bottom + 38, "middle", 13,
			 SVG_INK, NULL, title);
}

void svg_log_axis_y(FILE *f, const struct log_axis *a, double x_left,
		    double x_right)
{
	char buf[32];
	int e, m;

	for (e = a->lo; e < a->hi; e++)
		for (m = 2; m <= 9; m++) {
			double y = log_axis_pos(a, m * pow(10.0, e));

			svg_line(f, x_left, y, x_right, y, SVG_GRID_MINOR, 1, NULL);
		}
	for (e = a->lo; e <= a->hi; e++) {
		double y = log_axis_pos(a, pow(10.0, e));

		svg_line(f, x_left, y, x_right, y, SVG_GRID, 1, NULL);
		svg_line(f, x_left - 5, y, x_left, y, SVG_INK, 1, NULL);
		svg_text(f, x_left - 8, y + 4, "end", 11, SVG_INK, NULL,
			 svg_decade_label(e, buf, sizeof buf));
	}
	svg_line(f, x_left, a->px0, x_left, a->px1, SVG_INK, 1, NULL);
}

const char *svg_num3(double v, char *buf, size_t len)
{
	double m = fabs(v);

	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (m < 10.0)
		snprintf(buf, len, "%.2f", v);
	else if (m < 100.0)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.0f", v);
	return buf;
}
