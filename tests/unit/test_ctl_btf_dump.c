// SPDX-License-Identifier: GPL-2.0
/*
 * Map data in the form its BTF types give it (src/ctl/btf_dump.c), map dump -j's "formatted"
 * member, on BTF built here: without root, and with what clang never emits (a char of
 * BTF_INT_CHAR's encoding). tests/cli/bpftool_compare.sh holds clang's types to bpftool's forms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "ctl/btf_dump.h"
#include "test.h"

/* data of type id as the only element of a JSON array, on one line; *err nb_ctl_btf_dump's. */
static char *dump(const struct btf *btf, __u32 id, const void *data, int *err)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct nb_json *j;

	NB_ASSERT(f);
	j = nb_json_new(f, false);
	NB_ASSERT(j);
	nb_json_start_array(j, NULL);
	*err = nb_ctl_btf_dump(j, NULL, btf, id, data, false);
	nb_json_end_array(j);
	nb_json_free(j);
	fclose(f);
	if (len && text[len - 1] == '\n')
		text[len - 1] = '\0';
	return text;
}

/* A printable char is a string of it, escaped where JSON needs it; any other \u00XX. */
NB_TEST(ctl_btf_dump_char_escaped)
{
	const unsigned char chars[] = { 'a', '"', '\\', 0x01, 0x80 };
	const char *const want[] = { "[\"a\"]", "[\"\\\"\"]", "[\"\\\\\"]", "[\"\\u0001\"]",
				     "[\"\\u0080\"]" };
	struct btf *btf = btf__new_empty();
	int id, err;

	NB_ASSERT(btf);
	id = btf__add_int(btf, "char", 1, BTF_INT_CHAR);
	NB_ASSERT(id > 0);
	for (unsigned int i = 0; i < sizeof(chars); i++) {
		char *text = dump(btf, id, &chars[i], &err);

		NB_ASSERT_EQ(err, 0);
		if (strcmp(text, want[i]))
			NB_FAIL("char 0x%02x: %s, not %s", chars[i], text, want[i]);
		free(text);
	}
	btf__free(btf);
}

/* A struct of bitfields (hex, as bpftool), a signed short and a char array holding a string. */
NB_TEST(ctl_btf_dump_struct_bitfields_string)
{
	/* flags:3 = 3, prio:5 = 5 in the first byte, a pad byte, -2, then "eth0" */
	const unsigned char data[9] = { 0x2b, 0x00, 0xfe, 0xff, 'e', 't', 'h', '0', '\0' };
	struct btf *btf = btf__new_empty();
	int u8_id, s16_id, char_id, arr_id, id, err;
	char *text;

	NB_ASSERT(btf);
	u8_id = btf__add_int(btf, "unsigned char", 1, 0);
	s16_id = btf__add_int(btf, "short", 2, BTF_INT_SIGNED);
	char_id = btf__add_int(btf, "char", 1, BTF_INT_SIGNED);
	arr_id = btf__add_array(btf, u8_id, char_id, 5);
	id = btf__add_struct(btf, "key", 9);
	NB_ASSERT(u8_id > 0 && s16_id > 0 && char_id > 0 && arr_id > 0 && id > 0);
	NB_ASSERT(!btf__add_field(btf, "flags", u8_id, 0, 3));
	NB_ASSERT(!btf__add_field(btf, "prio", u8_id, 3, 5));
	NB_ASSERT(!btf__add_field(btf, "delta", s16_id, 16, 0));
	NB_ASSERT(!btf__add_field(btf, "ifname", arr_id, 32, 0));
	text = dump(btf, id, data, &err);
	NB_ASSERT_EQ(err, 0);
	if (strcmp(text, "[{\"flags\":\"0x3\",\"prio\":\"0x5\",\"delta\":-2,\"ifname\":\"eth0\"}]"))
		NB_FAIL("struct: %s", text);
	free(text);
	btf__free(btf);
}

/*
 * The plain form, bpftool's text output: bitfields and characters that do not print as bare hex,
 * pointers as %p ("(nil)" for NULL), laid out as bpftool's json_writer lays it out.
 */
NB_TEST(ctl_btf_dump_plain_text)
{
	/* flags:3 = 3, prio:5 = 5, a pad byte, char 0x01, then NULL and 0x1234 as pointers */
	const unsigned char data[24] = { 0x2b, 0x00, 0x01, 0, 0, 0, 0, 0,
					 0, 0, 0, 0, 0, 0, 0, 0,
					 0x34, 0x12, 0, 0, 0, 0, 0, 0 };
	const char *want = "[{\n"
			   "        \"flags\": 0x3,\n"
			   "        \"prio\": 0x5,\n"
			   "        \"c\": 0x1,\n"
			   "        \"p\": (nil),\n"
			   "        \"q\": 0x1234,\n"
			   "        \"a\": [1,0\n"
			   "        ]\n"
			   "    }\n"
			   "]\n";
	struct btf *btf = btf__new_empty();
	int u8_id, char_id, ptr_id, arr_id, id;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct nb_json *j;

	NB_ASSERT(btf && f);
	u8_id = btf__add_int(btf, "unsigned char", 1, 0);
	char_id = btf__add_int(btf, "char", 1, BTF_INT_CHAR);
	ptr_id = btf__add_ptr(btf, u8_id);
	arr_id = btf__add_array(btf, u8_id, u8_id, 2);
	id = btf__add_struct(btf, "v", 24);
	NB_ASSERT(u8_id > 0 && char_id > 0 && ptr_id > 0 && arr_id > 0 && id > 0);
	NB_ASSERT(!btf__add_field(btf, "flags", u8_id, 0, 3));
	NB_ASSERT(!btf__add_field(btf, "prio", u8_id, 3, 5));
	NB_ASSERT(!btf__add_field(btf, "c", char_id, 16, 0));
	NB_ASSERT(!btf__add_field(btf, "p", ptr_id, 64, 0));
	NB_ASSERT(!btf__add_field(btf, "q", ptr_id, 128, 0));
	NB_ASSERT(!btf__add_field(btf, "a", arr_id, 16, 0));
	j = nb_json_new_bpftool_text(f);
	NB_ASSERT(j);
	nb_json_start_array(j, NULL);
	NB_ASSERT_EQ(nb_ctl_btf_dump(j, NULL, btf, id, data, true), 0);
	nb_json_end_array(j);
	nb_json_free(j);
	fclose(f);
	if (strcmp(text, want))
		NB_FAIL("plain: %s", text);
	free(text);
	btf__free(btf);
}
