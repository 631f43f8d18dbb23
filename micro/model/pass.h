/* pass.h - the passes of a configuration: first and repeat are the pair;
 * reference, where launch had one, is a program outside the work folder
 * launched after each block's repeats. */
#ifndef EXECLAG_PASS_H
#define EXECLAG_PASS_H

enum pass { PASS_FIRST, PASS_REPEAT, PASS_REFERENCE };
#define PASS_COUNT 2 /* the pair: first and repeat */
#define PASS_ALL 3

#endif
