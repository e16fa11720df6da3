/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer for every command's -j output (-p: pretty, four spaces per level,
 * as bpftool prints). Members inside an object take a name; values inside an array pass NULL.
 *
 *	struct nb_json *j = nb_json_new(stdout, pretty);
 *	nb_json_start_object(j, NULL);
 *	nb_json_uint(j, "id", 1);
 *	nb_json_end_object(j);
 *	nb_json_free(j);	// ends the line
 */
#ifndef NB_CTL_JSON_H
#define NB_CTL_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct nb_json;

struct nb_json *nb_json_new(FILE *out, bool pretty);
/*
 * The layout of bpftool's text output of BTF-typed data (its json_writer, pretty): a new line
 * and indentation before each object member, array values one after another on the line.
 */
struct nb_json *nb_json_new_bpftool_text(FILE *out);
void nb_json_free(struct nb_json *j);

void nb_json_start_object(struct nb_json *j, const char *name);
void nb_json_end_object(struct nb_json *j);
void nb_json_start_array(struct nb_json *j, const char *name);
void nb_json_end_array(struct nb_json *j);

void nb_json_string(struct nb_json *j, const char *name, const char *value);
void nb_json_uint(struct nb_json *j, const char *name, uint64_t value);
void nb_json_int(struct nb_json *j, const char *name, int64_t value);
/* A number with 4 significant digits; null for NaN and infinities. */
void nb_json_double(struct nb_json *j, const char *name, double value);
void nb_json_bool(struct nb_json *j, const char *name, bool value);
void nb_json_null(struct nb_json *j, const char *name);
/* A printf-formatted string value: nb_json_printf(j, "flags", "%#x", flags). */
void nb_json_printf(struct nb_json *j, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A value written as it is (a number, or text already in JSON's syntax). */
void nb_json_raw(struct nb_json *j, const char *name, const char *text);
/* Bytes as bpftool prints keys and values: an array of "0x01" strings. */
void nb_json_hex_bytes(struct nb_json *j, const char *name, const void *buf, size_t len);

/*
 * An array of the JSON documents text holds one after another (what -j show commands printed),
 * each copied as it is: several documents become one.
 */
void nb_json_raw_values(struct nb_json *j, const char *name, const char *text);

#endif /* NB_CTL_JSON_H */
