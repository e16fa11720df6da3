// SPDX-License-Identifier: GPL-2.0
/* The JSON writer: a stack of open containers, each knowing whether it has a member yet. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/json.h"

#define JSON_MAX_DEPTH 32

struct nb_json {
	FILE *out;
	bool pretty;
	bool members_only;	/* a new line before members, not before array values */
	int depth;
	bool has_member[JSON_MAX_DEPTH];
};

struct nb_json *nb_json_new(FILE *out, bool pretty)
{
	struct nb_json *j = calloc(1, sizeof(*j));

	if (j) {
		j->out = out;
		j->pretty = pretty;
	}
	return j;
}

struct nb_json *nb_json_new_bpftool_text(FILE *out)
{
	struct nb_json *j = nb_json_new(out, true);

	if (j)
		j->members_only = true;
	return j;
}

void nb_json_free(struct nb_json *j)
{
	if (!j)
		return;
	fputc('\n', j->out);
	free(j);
}

static void indent(struct nb_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("    ", j->out);
}

static void put_string(struct nb_json *j, const char *s)
{
	fputc('"', j->out);
	for (; *s; s++) {
		unsigned char c = *s;

		switch (c) {
		case '"':
			fputs("\\\"", j->out);
			break;
		case '\\':
			fputs("\\\\", j->out);
			break;
		case '\n':
			fputs("\\n", j->out);
			break;
		case '\t':
			fputs("\\t", j->out);
			break;
		case '\r':
			fputs("\\r", j->out);
			break;
		default:
			if (c < 0x20)
				fprintf(j->out, "\\u%04x", c);
			else
				fputc(c, j->out);
		}
	}
	fputc('"', j->out);
}

/* Separator, indentation and name before any value. */
static void begin_value(struct nb_json *j, const char *name)
{
	if (j->depth > 0) {
		if (j->has_member[j->depth])
			fputc(',', j->out);
		j->has_member[j->depth] = true;
		if (name || !j->members_only)
			indent(j);
	}
	if (name) {
		put_string(j, name);
		fputs(j->pretty ? ": " : ":", j->out);
	}
}

static void open_container(struct nb_json *j, const char *name, char c)
{
	begin_value(j, name);
	fputc(c, j->out);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_member[j->depth] = false;
}

static void close_container(struct nb_json *j, char c)
{
	bool had = j->has_member[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	fputc(c, j->out);
}

void nb_json_start_object(struct nb_json *j, const char *name)
{
	open_container(j, name, '{');
}

void nb_json_end_object(struct nb_json *j)
{
	close_container(j, '}');
}

void nb_json_start_array(struct nb_json *j, const char *name)
{
	open_container(j, name, '[');
}

void nb_json_end_array(struct nb_json *j)
{
	close_container(j, ']');
}

void nb_json_string(struct nb_json *j, const char *name, const char *value)
{
	begin_value(j, name);
	put_string(j, value ? value : "");
}

void nb_json_uint(struct nb_json *j, const char *name, uint64_t value)
{
	begin_value(j, name);
	fprintf(j->out, "%llu", (unsigned long long)value);
}

void nb_json_double(struct nb_json *j, const char *name, double value)
{
	begin_value(j, name);
	if (value != value || value - value != 0)	/* NaN, infinity: JSON has no such number */
		fputs("null", j->out);
	else
		fprintf(j->out, "%.4g", value);
}

void nb_json_int(struct nb_json *j, const char *name, int64_t value)
{
	begin_value(j, name);
	fprintf(j->out, "%lld", (long long)value);
}

void nb_json_bool(struct nb_json *j, const char *name, bool value)
{
	begin_value(j, name);
	fputs(value ? "true" : "false", j->out);
}

void nb_json_null(struct nb_json *j, const char *name)
{
	begin_value(j, name);
	fputs("null", j->out);
}

void nb_json_printf(struct nb_json *j, const char *name, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	nb_json_string(j, name, buf);
}

void nb_json_raw(struct nb_json *j, const char *name, const char *text)
{
	begin_value(j, name);
	fputs(text, j->out);
}

void nb_json_hex_bytes(struct nb_json *j, const char *name, const void *buf, size_t len)
{
	const unsigned char *p = buf;
	char s[8];

	nb_json_start_array(j, name);
	for (size_t i = 0; i < len; i++) {
		snprintf(s, sizeof(s), "0x%02x", p[i]);
		nb_json_string(j, NULL, s);
	}
	nb_json_end_array(j);
}

void nb_json_raw_values(struct nb_json *j, const char *name, const char *text)
{
	const char *p = text ? text : "";

	nb_json_start_array(j, name);
	for (;;) {
		const char *start;
		bool in_string = false;
		int depth = 0;

		while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
			p++;
		if (!*p)
			break;
		start = p;
		for (; *p; p++) {
			if (in_string) {
				if (*p == '\\' && p[1])
					p++;
				else if (*p == '"')
					in_string = false;
			} else if (*p == '"') {
				in_string = true;
			} else if (*p == '[' || *p == '{') {
				depth++;
			} else if (*p == ']' || *p == '}') {
				if (--depth <= 0) {
					p++;
					break;
				}
			} else if (!depth && strchr(" \n\t\r", *p)) {
				break;	/* the end of a bare scalar */
			}
		}
		begin_value(j, NULL);
		fwrite(start, 1, (size_t)(p - start), j->out);
	}
	nb_json_end_array(j);
}
