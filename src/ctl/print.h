/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One printer for text and JSON, in iproute2's print_* style (lib/json_print.c): each call names
 * the JSON member and gives the text form's format, and prints whichever form the output is in.
 *
 *	nb_print_uint(p, NB_PRINT_ANY, "order", "order %llu ", 2048);
 *
 * prints "order 2048 " as text or "order": 2048 into the JSON object. NB_PRINT_FP prints text
 * only, NB_PRINT_JSON JSON only. The text format takes the one value: a string (%s), an
 * unsigned long long (uint, hex: %llu, %llx), a long long (int: %lld); a bool's none.
 */
#ifndef NB_CTL_PRINT_H
#define NB_CTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct nb_json;

enum nb_print_type {
	NB_PRINT_FP = 1,
	NB_PRINT_JSON = 2,
	NB_PRINT_ANY = NB_PRINT_FP | NB_PRINT_JSON,
};

struct nb_print {
	FILE *f;		/* the text output */
	struct nb_json *j;	/* JSON when set: text calls print nothing */
};

void nb_print_string(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		     const char *value);
void nb_print_uint(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		   uint64_t value);
void nb_print_int(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		  int64_t value);
/* A number as a JSON string in hex ("%x" unless fmt for the text says otherwise). */
void nb_print_hex(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		  uint64_t value);
/* A true bool: the text is fmt as it is; JSON "key": true. */
void nb_print_bool(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		   bool value);
/* Text only: fmt as it is. */
void nb_print_text(struct nb_print *p, const char *text);
void nb_print_open_object(struct nb_print *p, const char *key);
void nb_print_close_object(struct nb_print *p);

#endif /* NB_CTL_PRINT_H */
