/* svg.h - the SVG 1.1 shapes the kit's plots are drawn with (the plots
 * themselves: report_svg.c).
 *
 * Plain SVG a browser or a code-hosting page shows as an image: generic
 * sans-serif text, no scripts, no styles from elsewhere, no links.  Text
 * from input files is escaped, and any byte that would make the XML invalid
 * (a control character, a byte that is not UTF-8) becomes '?'. */
#ifndef EXECLAG_SVG_H
#define EXECLAG_SVG_H

#include <stddef.h>
#include <stdio.h>

/* Colours: Okabe–Ito, told apart with every common colour-vision deficiency. */
#define SVG_FIRST "#D55E00"  /* vermillion: first launches */
#define SVG_REPEAT "#0072B2" /* blue: repeat launches */
#define SVG_INK "#222222"
#define SVG_MUTED "#666666"
#define SVG_GRID "#DDDDDD"
#define SVG_GRID_MINOR "#F0F0F0"

void svg_begin(FILE *f, int width, int height, const char *title,
	       const char *desc);
void svg_end(FILE *f);

/* Text from anywhere, escaped for an attribute or element. */
void svg_escape(FILE *f, const char *s);

/* <text>: anchor is "start", "middle" or "end"; weight NULL or "bold". */
void svg_text(FILE *f, double x, double y, const char *anchor, double size,
	      const char *fill, const char *weight, const char *text);
/* The same, rotated a quarter turn anticlockwise about (x, y). */
void svg_text_up(FILE *f, double x, double y, double size, const char *fill,
		 const char *text);
void svg_line(FILE *f, double x1, double y1, double x2, double y2,
	      const char *stroke, double width, const char *dash);
void svg_rect(FILE *f, double x, double y, double w, double h,
	      const char *fill, const char *stroke, double opacity);
void svg_circle(FILE *f, double cx, double cy, double r, const char *fill,
		const char *stroke, double opacity);

/* A logarithmic axis: whole decades from 10^lo to 10^hi onto pixels
 * [px0, px1] (px1 < px0 for a y axis, which grows upwards). */
struct log_axis {
	int lo, hi;
	double px0, px1;
};

/* Fit the decades around [min, max] (positive values; others are ignored
 * by the caller).  floor_exp bounds how low the axis may reach. */
void log_axis_fit(struct log_axis *a, double min, double max, int floor_exp,
		  double px0, double px1);
/* The pixel of v; values below the axis stick to its low end. */
double log_axis_pos(const struct log_axis *a, double v);
/* "0.001" … "0.1", "1", "10", "1000", "10000": a decade as people write it. */
const char *svg_decade_label(int exp, char *buf, size_t len);

/* Grid lines and labels of a horizontal log axis across [y_top, y_bottom],
 * labels under y_bottom, then the axis title centred below them. */
void svg_log_axis_x(FILE *f, const struct log_axis *a, double y_top,
		    double y_bottom, const char *title);
/* The same for a vertical log axis across [x_left, x_right], labels left of
 * x_left; the title is written by the caller. */
void svg_log_axis_y(FILE *f, const struct log_axis *a, double x_left,
		    double x_right);

/* A number for a label: 2 decimals below 10, 1 below 100, none above. */
const char *svg_num3(double v, char *buf, size_t len);

#endif
