/* csource.h - the C source of a compiled unit: its nonce in a string
 * literal (so its bytes are its own), the payload (--payload kill|fail),
 * and its padding's file (--size) pulled in by the assembler's .incbin. */
#ifndef EXECLAG_CSOURCE_H
#define EXECLAG_CSOURCE_H

#include "mkrun.h"

/* The source of unit u with nonce, padded by the file pad (NULL: none);
 * malloc'd. */
char *csource(enum unit u, const char *nonce, const char *pad);

#endif
