// SPDX-License-Identifier: GPL-2.0
/*
 * Program tags: every program of the example objects, loaded by libbpf into the running kernel
 * and by netbpf, has the same tag (bpf_prog_info.tag against nb_prog_tag), maps and global data
 * included; and SHA-256 itself on the FIPS 180-4 examples.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <netbpf/object.h>
#include <netbpf/prog.h>

#include "bpf/sha256.h"
#include "kcase.h"

static void hex(const u8 *b, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

NB_TEST(sha256_fips_examples)
{
	static const struct { const char *msg; const char *digest; } v[] = {
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	u8 d[NB_SHA256_SIZE];
	char s[2 * NB_SHA256_SIZE + 1];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		nb_sha256(v[i].msg, strlen(v[i].msg), d);
		hex(d, sizeof(d), s);
		NB_ASSERT(!strcmp(s, v[i].digest));
	}
}

static void tags_equal(const void *arg)
{
	const char *name = arg;
	struct nb_object_open_opts oopts = { .sz = sizeof(oopts) };
	struct nb_object_load_opts lopts = { .sz = sizeof(lopts),
					     .prog_type = strstr(name, "/tc") ?
							  BPF_PROG_TYPE_SCHED_CLS : 0 };
	struct nb_object_prog *np;
	struct nb_object *nobj;
	struct bpf_program *kp;
	struct bpf_object *kobj;
	char path[4096];
	int compared = 0;

	need_kernel_prog(BPF_PROG_TYPE_SCHED_CLS);
	nb_test_build_path(path, sizeof(path), name);
	kobj = bpf_object__open_file(path, NULL);
	NB_ASSERT(kobj != NULL);
	/* sections libbpf does not know (tcbpf1's "redirect_xmit") load as tc does them */
	bpf_object__for_each_program(kp, kobj)
		if (bpf_program__type(kp) == BPF_PROG_TYPE_UNSPEC)
			bpf_program__set_type(kp, BPF_PROG_TYPE_SCHED_CLS);
	if (bpf_object__load(kobj)) {
		bpf_object__close(kobj);
		nb_test_skip("the kernel does not load %s: %s", name, strerror(errno));
	}
	NB_ASSERT_EQ(nb_object_open_file(path, &oopts, &nobj), 0);
	NB_ASSERT_EQ(nb_object_load(nobj, &lopts), 0);
	bpf_object__for_each_program(kp, kobj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		u8 tag[BPF_TAG_SIZE];
		char want[20], got[20];
		bool found = false;

		NB_ASSERT_EQ(bpf_obj_get_info_by_fd(bpf_program__fd(kp), &info, &len), 0);
		nb_object_for_each_prog(np, nobj) {
			if (strcmp(nb_object_prog_name(np), bpf_program__name(kp)))
				continue;
			NB_ASSERT_EQ(nb_prog_tag(nb_object_prog_prog(np), tag), 0);
			hex(info.tag, BPF_TAG_SIZE, want);
			hex(tag, BPF_TAG_SIZE, got);
			if (strcmp(want, got))
				NB_FAIL("%s %s: kernel tag %s, netbpf %s", name, bpf_program__name(kp),
					want, got);
			found = true;
			compared++;
		}
		NB_ASSERT(found);
	}
	NB_ASSERT(compared > 0);
	nb_object_close(nobj);
	bpf_object__close(kobj);
}

static const char *const objects[] = {
	"examples/tcbpf1.o", "examples/tc_classifier.o", "examples/xdp_drop_proto.o",
	"examples/xdp_redirect_map.o", "examples/xdp_devmap_smac.o", "examples/xdp_broadcast.o",
	"examples/xdp_meta_mark.o", "examples/xdp_ipip_encap.o",
};

static void __attribute__((constructor)) register_tags(void)
{
	for (size_t i = 0; i < sizeof(objects) / sizeof(objects[0]); i++) {
		static char names[16][64];

		snprintf(names[i], sizeof(names[i]), "prog_tag_kernel_%s", objects[i] + 9);
		nb_test_register(names[i], tags_equal, objects[i]);
	}
}
