/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bob Jenkins' lookup3 hash as the kernel's hash maps use it (jhash for byte strings, jhash2 for
 * arrays of 32-bit words), so that with BPF_F_ZERO_SEED the buckets, and so the order of
 * get_next_key, are the kernel's.
 */
#ifndef NB_BPF_MAPS_JHASH_H
#define NB_BPF_MAPS_JHASH_H

#include <string.h>

#include "common/types.h"

#define NB_JHASH_INITVAL 0xdeadbeefU

static inline u32 nb_rol32(u32 w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

#define nb_jhash_mix(a, b, c)                                                               \
	do {                                                                                \
		a -= c; a ^= nb_rol32(c, 4);  c += b;                                      \
		b -= a; b ^= nb_rol32(a, 6);  a += c;                                      \
		c -= b; c ^= nb_rol32(b, 8);  b += a;                                      \
		a -= c; a ^= nb_rol32(c, 16); c += b;                                      \
		b -= a; b ^= nb_rol32(a, 19); a += c;                                      \
		c -= b; c ^= nb_rol32(b, 4);  b += a;                                      \
	} while (0)

#define nb_jhash_final(a, b, c)                                                             \
	do {                                                                                \
		c ^= b; c -= nb_rol32(b, 14);                                               \
		a ^= c; a -= nb_rol32(c, 11);                                               \
		b ^= a; b -= nb_rol32(a, 25);                                               \
		c ^= b; c -= nb_rol32(b, 16);                                               \
		a ^= c; a -= nb_rol32(c, 4);                                                \
		b ^= a; b -= nb_rol32(a, 14);                                               \
		c ^= b; c -= nb_rol32(b, 24);                                               \
	} while (0)

static inline u32 nb_load32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, 4);
	return v;
}

static inline u32 nb_jhash(const void *key, u32 length, u32 initval)
{
	const u8 *k = key;
	u32 a, b, c;

	a = b = c = NB_JHASH_INITVAL + length + initval;
	while (length > 12) {
		a += nb_load32(k);
		b += nb_load32(k + 4);
		c += nb_load32(k + 8);
		nb_jhash_mix(a, b, c);
		length -= 12;
		k += 12;
	}
	/* The last block: bytes added little end first, a short block zero-padded. */
	switch (length) {
	case 12: c += (u32)k[11] << 24; /* fall through */
	case 11: c += (u32)k[10] << 16; /* fall through */
	case 10: c += (u32)k[9] << 8;   /* fall through */
	case 9:  c += k[8];             /* fall through */
	case 8:  b += (u32)k[7] << 24;  /* fall through */
	case 7:  b += (u32)k[6] << 16;  /* fall through */
	case 6:  b += (u32)k[5] << 8;   /* fall through */
	case 5:  b += k[4];             /* fall through */
	case 4:  a += (u32)k[3] << 24;  /* fall through */
	case 3:  a += (u32)k[2] << 16;  /* fall through */
	case 2:  a += (u32)k[1] << 8;   /* fall through */
	case 1:  a += k[0];
		nb_jhash_final(a, b, c);
		break;
	default:
		break;
	}
	return c;
}

/* length counts 32-bit words. */
static inline u32 nb_jhash2(const void *key, u32 length, u32 initval)
{
	const u8 *k = key;
	u32 a, b, c;

	a = b = c = NB_JHASH_INITVAL + (length << 2) + initval;
	while (length > 3) {
		a += nb_load32(k);
		b += nb_load32(k + 4);
		c += nb_load32(k + 8);
		nb_jhash_mix(a, b, c);
		length -= 3;
		k += 12;
	}
	switch (length) {
	case 3: c += nb_load32(k + 8); /* fall through */
	case 2: b += nb_load32(k + 4); /* fall through */
	case 1: a += nb_load32(k);
		nb_jhash_final(a, b, c);
		break;
	default:
		break;
	}
	return c;
}

#endif /* NB_BPF_MAPS_JHASH_H */
