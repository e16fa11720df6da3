// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_trace_printk with the kernel's format rules (bpf_bprintf_prepare): at most three
 * conversions among %d %i %u %x %X with l/ll, %c, %s, %p, %pK, %px, %pB, %pks, %pus, %pi4,
 * %pI4, %pi6, %pI6, flags "0+- " and a width; %% prints a percent sign. Anything else fails with
 * -EINVAL and prints nothing. The text goes to the trace stream (include/netbpf/trace.h).
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <netbpf/trace.h>

#include "bpf/helpers.h"
#include "bpf/nofault.h"

#define TRACE_MAX_ARGS 3
/* The kernel's bprintf buffer (MAX_BPRINTF_BUF). */
#define TRACE_BUF_SIZE 512

static FILE *trace_stream;
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;

void nb_trace_set_stream(FILE *stream)
{
	pthread_mutex_lock(&trace_lock);
	trace_stream = stream;
	pthread_mutex_unlock(&trace_lock);
}

FILE *nb_trace_stream(void)
{
	return trace_stream ? trace_stream : stderr;
}

struct out {
	char buf[TRACE_BUF_SIZE];
	size_t len;
};

static void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->len >= sizeof(o->buf) - 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, sizeof(o->buf) - o->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len = min_t(size_t, o->len + n, sizeof(o->buf) - 1);
}

/* %pI4 and friends: the address is read without faulting; an unreadable one prints as zeros. */
static void print_ip(struct out *o, u64 addr, char kind, char ver)
{
	u8 ip[16];

	nb_copy_nofault(ip, (const void *)(uintptr_t)addr, ver == '4' ? 4 : 16);
	if (ver == '4') {
		out_printf(o, kind == 'i' ? "%03u.%03u.%03u.%03u" : "%u.%u.%u.%u", ip[0], ip[1],
			   ip[2], ip[3]);
		return;
	}
	/* %pI6: eight groups with colons; %pi6: 32 hex digits. */
	for (int g = 0; g < 8; g++) {
		out_printf(o, "%02x%02x", ip[2 * g], ip[2 * g + 1]);
		if (kind == 'I' && g < 7)
			out_printf(o, ":");
	}
}

/*
 * %s, %pks, %pus: the string at addr, read without faulting (an unreadable one prints as empty,
 * as the kernel's bpf_trace_copy_string leaves it); the conversion must end the word.
 */
static int print_string(struct out *o, const char *spec, u64 addr, char next)
{
	char str[TRACE_BUF_SIZE];

	if (next && !isspace((unsigned char)next) && !ispunct((unsigned char)next))
		return -EINVAL;
	if (nb_strncpy_nofault(str, (const void *)(uintptr_t)addr, sizeof(str)) < 0)
		str[0] = 0;
	out_printf(o, spec, str);
	return 0;
}

/* Format fmt (NUL-terminated) with args into o; -EINVAL for what the kernel refuses. */
static int trace_format(struct out *o, const char *fmt, const u64 *args)
{
	int nargs = 0;

	for (const char *p = fmt; *p; p++) {
		char spec[16];
		size_t sl = 0;
		int size = 4;
		u64 arg;

		if ((!isprint((unsigned char)*p) && !isspace((unsigned char)*p)) ||
		    !isascii((unsigned char)*p))
			return -EINVAL;
		if (*p != '%') {
			out_printf(o, "%c", *p);
			continue;
		}
		if (p[1] == '%') {
			out_printf(o, "%%");
			p++;
			continue;
		}
		if (nargs >= TRACE_MAX_ARGS)
			return -EINVAL;
		arg = args[nargs++];
		spec[sl++] = '%';
		p++;
		/* Flags and width, kept up to a sane length (the output is bounded anyway). */
		while (*p == '0' || *p == '+' || *p == '-' || *p == ' ') {
			if (sl < 6)
				spec[sl++] = *p;
			p++;
		}
		if (*p >= '1' && *p <= '9') {
			while (*p >= '0' && *p <= '9') {
				if (sl < 10)
					spec[sl++] = *p;
				p++;
			}
		}
		if (*p == 'p') {
			if ((p[1] == 'k' || p[1] == 'u') && p[2] == 's') {
				p += 2;
				spec[sl++] = 's';
				spec[sl] = 0;
				if (print_string(o, spec, arg, p[1]))
					return -EINVAL;
				continue;
			}
			if (!p[1] || isspace((unsigned char)p[1]) || ispunct((unsigned char)p[1]) ||
			    p[1] == 'K' || p[1] == 'x' || p[1] == 'B' || p[1] == 's' ||
			    p[1] == 'S') {
				if (p[1] && !isspace((unsigned char)p[1]) &&
				    !ispunct((unsigned char)p[1]))
					p++;
				out_printf(o, "0x%016llx", (unsigned long long)arg);
				continue;
			}
			if ((p[1] != 'i' && p[1] != 'I') || (p[2] != '4' && p[2] != '6'))
				return -EINVAL;
			print_ip(o, arg, p[1], p[2]);
			p += 2;
			continue;
		}
		if (*p == 's') {
			spec[sl++] = 's';
			spec[sl] = 0;
			if (print_string(o, spec, arg, p[1]))
				return -EINVAL;
			continue;
		}
		if (*p == 'c') {
			spec[sl++] = 'c';
			spec[sl] = 0;
			out_printf(o, spec, (int)(u8)arg);
			continue;
		}
		if (*p == 'l') {
			size = 8;
			p++;
			if (*p == 'l')
				p++;
		}
		if (*p != 'i' && *p != 'd' && *p != 'u' && *p != 'x' && *p != 'X')
			return -EINVAL;
		spec[sl++] = 'l';
		spec[sl++] = 'l';
		spec[sl++] = *p;
		spec[sl] = 0;
		if (*p == 'd' || *p == 'i')
			out_printf(o, spec, size == 4 ? (long long)(s32)arg : (long long)arg);
		else
			out_printf(o, spec, size == 4 ? (unsigned long long)(u32)arg
						      : (unsigned long long)arg);
	}
	return 0;
}

static u64 bpf_trace_printk(u64 fmt, u64 fmt_size, u64 arg1, u64 arg2, u64 arg3)
{
	const char *f = (const char *)(uintptr_t)fmt;
	const u64 args[TRACE_MAX_ARGS] = { arg1, arg2, arg3 };
	struct out o = { .len = 0 };
	int err;

	if (!fmt_size || !memchr(f, 0, fmt_size))
		return (u64)-EINVAL;
	err = trace_format(&o, f, args);
	if (err)
		return (u64)(s64)err;
	pthread_mutex_lock(&trace_lock);
	fwrite(o.buf, 1, o.len, nb_trace_stream());
	fflush(nb_trace_stream());
	pthread_mutex_unlock(&trace_lock);
	return o.len;
}

const struct nb_func_proto nb_trace_printk_proto = {
	.func = bpf_trace_printk,
	.gpl_only = true,
	.ret_type = NB_RET_INTEGER,
	/* The arguments after the format are not checked: only the format says which exist. */
	.arg_type = { NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE },
};
