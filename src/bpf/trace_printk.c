// SPDX-License-Identifier: GPL-2.0
/*
 * The printf-like helpers with the kernel's format rules (bpf_bprintf_prepare): bpf_trace_printk
 * (at most three arguments), bpf_trace_vprintk and bpf_snprintf (at most twelve, from an
 * array). Conversions: %d %i %u %x %X with l/ll, %c, %s, %p, %pK, %px, %pB, %pks, %pus, %pi4,
 * %pI4, %pi6, %pI6, flags "0+- " and a width; %% prints a percent sign. Anything else fails with
 * -EINVAL and prints nothing; arguments whose copies overflow the kernel's 512-byte argument
 * buffer fail with -ENOSPC. The trace text goes to the trace stream (include/netbpf/trace.h).
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

/* MAX_TRACE_PRINTK_VARARGS and MAX_BPRINTF_VARARGS. */
#define TRACE_MAX_ARGS 3
#define BPRINTF_MAX_ARGS 12
/* The kernel's bprintf output buffer (MAX_BPRINTF_BUF) and argument buffer. */
#define TRACE_BUF_SIZE 512
#define BPRINTF_BIN_ARGS 512

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

/*
 * Where formatted text goes: size bytes at buf (NUL-terminated, cut when full), total what the
 * whole text needs, and bin the bytes the kernel's argument buffer would hold by now.
 */
struct out {
	char *buf;
	size_t size;
	size_t len;
	size_t total;
	u32 bin;
};

static void out_printf(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out_printf(struct out *o, const char *fmt, ...)
{
	size_t room = o->len < o->size ? o->size - o->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? o->buf + o->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	o->total += (size_t)n;
	if (o->size)
		o->len = min_t(size_t, o->len + (size_t)n, o->size - 1);
}

/* Take size bytes of the argument buffer, 4-byte aligned when align: -ENOSPC when full. */
static int bin_take(struct out *o, u32 size, bool align)
{
	u32 at = align ? (o->bin + 3) & ~3U : o->bin;

	if (at > BPRINTF_BIN_ARGS || BPRINTF_BIN_ARGS - at < size)
		return -ENOSPC;
	o->bin = at + size;
	return 0;
}

/*
 * What the kernel dereferences while it prepares the arguments (%pks, %pus, %pI4 and friends,
 * %pB) is kept as text in its argument buffer (with a NUL: bin bytes), and bstr_printf copies
 * that text as it is, with no width, and only while the output has room: once it is full, such
 * a conversion adds nothing to the length either (bstr_printf's "str < end" test).
 */
static int deref_emit(struct out *o, const char *text)
{
	size_t len = strlen(text);

	if (len + 1 > BPRINTF_BIN_ARGS - o->bin)
		return -ENOSPC;
	o->bin += (u32)len + 1;
	if (o->total < o->size)
		out_printf(o, "%s", text);
	return 0;
}

/* %pI4 and friends: the address is read without faulting; an unreadable one prints as zeros. */
static int print_ip(struct out *o, u64 addr, char kind, char ver)
{
	char text[48];
	u8 ip[16];
	int n = 0;

	if (BPRINTF_BIN_ARGS - o->bin < (ver == '4' ? 4u : 16u))
		return -ENOSPC;
	if (nb_copy_nofault(ip, (const void *)(uintptr_t)addr, ver == '4' ? 4 : 16))
		memset(ip, 0, sizeof(ip));
	if (ver == '4') {
		snprintf(text, sizeof(text), kind == 'i' ? "%03u.%03u.%03u.%03u" : "%u.%u.%u.%u",
			 ip[0], ip[1], ip[2], ip[3]);
	} else {
		/* %pI6: eight groups with colons; %pi6: 32 hex digits. */
		for (int g = 0; g < 8; g++)
			n += snprintf(text + n, sizeof(text) - (size_t)n, "%02x%02x%s", ip[2 * g],
				      ip[2 * g + 1], kind == 'I' && g < 7 ? ":" : "");
	}
	return deref_emit(o, text);
}

/*
 * %p, %pK, %px: 16 hex digits, as the kernel prints them (it hashes %p and, with
 * kptr_restrict 0, %pK: netbpf prints the value, having no hash key to keep secret); %pB, %ps,
 * %pS: a symbol, which netbpf never has, so 0x and the value, as the kernel prints addresses
 * without one. A null %p, %pB, %ps or %pS prints "(null)".
 */
static int print_pointer(struct out *o, char kind, u64 addr)
{
	char text[24];

	if (!addr && kind != 'K' && kind != 'x')
		snprintf(text, sizeof(text), "(null)");
	else if (!kind || kind == 'K' || kind == 'x')
		snprintf(text, sizeof(text), "%016llx", (unsigned long long)addr);
	else
		snprintf(text, sizeof(text), "0x%llx", (unsigned long long)addr);
	if (kind == 'B')
		return deref_emit(o, text);
	if (bin_take(o, 8, true))
		return -ENOSPC;
	out_printf(o, "%s", text);
	return 0;
}

/*
 * %s (spec with its flags and width), %pks and %pus (spec NULL): the string at addr, read
 * without faulting (an unreadable one prints as empty, as the kernel's bpf_trace_copy_string
 * leaves it); the conversion must end the word.
 */
static int print_string(struct out *o, const char *spec, u64 addr, char next)
{
	char str[BPRINTF_BIN_ARGS];
	u32 room = BPRINTF_BIN_ARGS - o->bin;
	long n;

	if (next && !isspace((unsigned char)next) && !ispunct((unsigned char)next))
		return -EINVAL;
	if (!room)
		return -ENOSPC;
	/* the copy takes what is left of the argument buffer, its NUL included */
	n = nb_strncpy_nofault(str, (const void *)(uintptr_t)addr, room);
	if (n < 0)
		str[0] = 0;
	if (!spec)
		return deref_emit(o, str);
	o->bin += n < 0 ? 1 : (u32)n;
	out_printf(o, spec, str);
	return 0;
}

/*
 * Format fmt (NUL-terminated) with at most max_args of args into o; -EINVAL for what the
 * kernel refuses, -ENOSPC when the arguments overflow its argument buffer.
 */
static int bprintf_format(struct out *o, const char *fmt, const u64 *args, int max_args)
{
	int nargs = 0, err;

	for (const char *p = fmt; *p; p++) {
		char spec[16];
		size_t sl = 0;
		int size = 4;
		u64 arg;

		/* ASCII control characters are refused; bytes above 0x7f (UTF-8) pass */
		if (isascii((unsigned char)*p) && !isprint((unsigned char)*p) &&
		    !isspace((unsigned char)*p))
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
		if (nargs >= max_args)
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
				err = print_string(o, NULL, arg, p[1]);
				if (err)
					return err;
				continue;
			}
			if (!p[1] || isspace((unsigned char)p[1]) || ispunct((unsigned char)p[1]) ||
			    p[1] == 'K' || p[1] == 'x' || p[1] == 'B' || p[1] == 's' ||
			    p[1] == 'S') {
				char kind = 0;

				if (p[1] && !isspace((unsigned char)p[1]) &&
				    !ispunct((unsigned char)p[1]))
					kind = *++p;
				err = print_pointer(o, kind, arg);
				if (err)
					return err;
				continue;
			}
			if ((p[1] != 'i' && p[1] != 'I') || (p[2] != '4' && p[2] != '6'))
				return -EINVAL;
			err = print_ip(o, arg, p[1], p[2]);
			if (err)
				return err;
			p += 2;
			continue;
		}
		if (*p == 's') {
			spec[sl++] = 's';
			spec[sl] = 0;
			err = print_string(o, spec, arg, p[1]);
			if (err)
				return err;
			continue;
		}
		if (*p == 'c') {
			spec[sl++] = 'c';
			spec[sl] = 0;
			if (bin_take(o, 1, false))
				return -ENOSPC;
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
		if (bin_take(o, (u32)size, true))
			return -ENOSPC;
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

int nb_bprintf_check(const char *fmt, u32 num_args)
{
	static const u64 zeros[BPRINTF_MAX_ARGS];
	struct out o = { .size = 0 };

	/* formatted into nothing, with null arguments: only the format's validity counts */
	return bprintf_format(&o, fmt, zeros, (int)min_t(u32, num_args, BPRINTF_MAX_ARGS)) ==
	       -EINVAL ? -EINVAL : 0;
}

static void trace_emit(const struct out *o)
{
	pthread_mutex_lock(&trace_lock);
	fwrite(o->buf, 1, o->len, nb_trace_stream());
	fflush(nb_trace_stream());
	pthread_mutex_unlock(&trace_lock);
}

/* The length of the whole text, as bstr_printf counts it, however much the trace got. */
static u64 bpf_trace_printk(u64 fmt, u64 fmt_size, u64 arg1, u64 arg2, u64 arg3)
{
	const char *f = (const char *)(uintptr_t)fmt;
	const u64 args[TRACE_MAX_ARGS] = { arg1, arg2, arg3 };
	char buf[TRACE_BUF_SIZE];
	struct out o = { .buf = buf, .size = sizeof(buf) };
	int err;

	if (!fmt_size || !memchr(f, 0, fmt_size))
		return (u64)-EINVAL;
	err = bprintf_format(&o, f, args, TRACE_MAX_ARGS);
	if (err)
		return (u64)(s64)err;
	trace_emit(&o);
	return o.total;
}

const struct nb_func_proto nb_trace_printk_proto = {
	.func = bpf_trace_printk,
	.gpl_only = true,
	.ret_type = NB_RET_INTEGER,
	/* The arguments after the format are not checked: only the format says which exist. */
	.arg_type = { NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE },
};

/* The argument array's words: data_len a multiple of 8, at most twelve of them. */
static int vargs_count(u64 args, u64 data_len)
{
	if ((data_len & 7) || data_len > BPRINTF_MAX_ARGS * 8 || (data_len && !args))
		return -EINVAL;
	return (int)(data_len / 8);
}

static u64 bpf_trace_vprintk(u64 fmt, u64 fmt_size, u64 args, u64 data_len, u64 r5)
{
	const char *f = (const char *)(uintptr_t)fmt;
	char buf[TRACE_BUF_SIZE];
	struct out o = { .buf = buf, .size = sizeof(buf) };
	int nargs = vargs_count(args, data_len), err;

	(void)r5;
	if (nargs < 0)
		return (u64)(s64)nargs;
	if (!memchr(f, 0, fmt_size))
		return (u64)-EINVAL;
	err = bprintf_format(&o, f, (const u64 *)(uintptr_t)args, nargs);
	if (err)
		return (u64)(s64)err;
	trace_emit(&o);
	return o.total;
}

const struct nb_func_proto nb_trace_vprintk_proto = {
	.func = bpf_trace_vprintk,
	.gpl_only = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_MEM, NB_ARG_CONST_SIZE, NB_ARG_PTR_TO_MEM_OR_NULL,
		      NB_ARG_CONST_SIZE_OR_ZERO },
};

/* Into str, cut to str_size with its NUL; the length of the whole text plus one. */
static u64 bpf_snprintf(u64 str, u64 str_size, u64 fmt, u64 args, u64 data_len)
{
	struct out o = { .buf = (char *)(uintptr_t)str, .size = (u32)str_size };
	int nargs = vargs_count(args, data_len), err;

	if (nargs < 0)
		return (u64)(s64)nargs;
	if (o.size)
		o.buf[0] = 0;
	err = bprintf_format(&o, (const char *)(uintptr_t)fmt, (const u64 *)(uintptr_t)args,
			     nargs);
	if (err)
		return (u64)(s64)err;
	return o.total + 1;
}

const struct nb_func_proto nb_snprintf_proto = {
	.func = bpf_snprintf,
	.gpl_only = true,
	.ret_type = NB_RET_INTEGER,
	.arg_type = { NB_ARG_PTR_TO_MEM_OR_NULL, NB_ARG_CONST_SIZE_OR_ZERO, NB_ARG_CONST_STR,
		      NB_ARG_PTR_TO_MEM_OR_NULL, NB_ARG_CONST_SIZE_OR_ZERO },
};
