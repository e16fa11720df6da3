// SPDX-License-Identifier: GPL-2.0
/* One printer for text and JSON (print.h). */
#include <inttypes.h>

#include "ctl/json.h"
#include "ctl/print.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static bool text(const struct nb_print *p, enum nb_print_type t, const char *fmt)
{
	return !p->j && (t & NB_PRINT_FP) && fmt;
}

static bool json(const struct nb_print *p, enum nb_print_type t)
{
	return p->j && (t & NB_PRINT_JSON);
}

void nb_print_string(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		     const char *value)
{
	if (text(p, t, fmt))
		fprintf(p->f, fmt, value);
	else if (json(p, t))
		nb_json_string(p->j, key, value);
}

void nb_print_uint(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		   uint64_t value)
{
	if (text(p, t, fmt))
		fprintf(p->f, fmt, (unsigned long long)value);
	else if (json(p, t))
		nb_json_uint(p->j, key, value);
}

void nb_print_int(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		  int64_t value)
{
	if (text(p, t, fmt))
		fprintf(p->f, fmt, (long long)value);
	else if (json(p, t))
		nb_json_int(p->j, key, value);
}

void nb_print_hex(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		  uint64_t value)
{
	if (text(p, t, fmt))
		fprintf(p->f, fmt, (unsigned long long)value);
	else if (json(p, t))
		nb_json_printf(p->j, key, "%" PRIx64, value);
}

void nb_print_bool(struct nb_print *p, enum nb_print_type t, const char *key, const char *fmt,
		   bool value)
{
	if (text(p, t, fmt)) {
		if (value)
			fputs(fmt, p->f);
	} else if (json(p, t)) {
		nb_json_bool(p->j, key, value);
	}
}

void nb_print_text(struct nb_print *p, const char *s)
{
	if (!p->j)
		fputs(s, p->f);
}

void nb_print_open_object(struct nb_print *p, const char *key)
{
	if (p->j)
		nb_json_start_object(p->j, key);
}

void nb_print_close_object(struct nb_print *p)
{
	if (p->j)
		nb_json_end_object(p->j);
}
