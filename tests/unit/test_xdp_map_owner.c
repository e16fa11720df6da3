// SPDX-License-Identifier: GPL-2.0
/*
 * The owner of devmaps, devmap hashes and cpumaps: an XDP program redirecting through a devmap
 * or cpumap claims it at load (the kernel's map_type_contains_progs), and a program that uses it
 * or is stored in one of its entries must then share its frags setting. A devmap hash is
 * claimed by its entries' programs only: a program using it loads whatever the owner. The
 * expected attach type is not compared (only program arrays compare it), nor the engine (a
 * devmap or cpumap program runs on its own, never through a tail call).
 */
#include "map_test.h"
#include "xdp_test.h"
#include "bpf/epoch.h"

/* bpf_redirect_map(map, 0, 0), verified, with flags and attach type: 0 or the error. */
static int load_user(struct nb_map *map, unsigned int flags, enum bpf_attach_type attach,
		     struct nb_log *log, struct nb_prog **progp)
{
	const struct bpf_insn insns[] = {
		NB_LD_MAP_ID(BPF_REG_1, nb_map_id(map)),
		NB_MOV64_IMM(BPF_REG_2, 0),
		NB_MOV64_IMM(BPF_REG_3, 0),
		NB_CALL_HELPER(BPF_FUNC_redirect_map),
		NB_EXIT(),
	};
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .name = "user", .license = "GPL", .log = log,
		.flags = flags, .expected_attach_type = attach,
	};

	*progp = NULL;
	return nb_prog_load(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns), &opts, progp);
}

/* An entry program ("return XDP_PASS") with flags and attach type. */
static struct nb_prog *load_entry(unsigned int flags, enum bpf_attach_type attach)
{
	const struct bpf_insn insns[] = { NB_MOV64_IMM(BPF_REG_0, XDP_PASS), NB_EXIT() };
	struct nb_log log = { 0 };
	struct nb_prog_load_opts opts = {
		.sz = sizeof(opts), .name = "entry", .license = "GPL", .log = &log,
		.flags = flags, .expected_attach_type = attach,
	};
	struct nb_prog *prog;

	if (nb_prog_load(BPF_PROG_TYPE_XDP, insns, ARRAY_SIZE(insns), &opts, &prog))
		NB_FAIL("load: %s", nb_log_text(&log));
	nb_log_free(&log);
	return prog;
}

/* Store prog in entry 0: a devmap's to dev, a cpumap's with a queue of 8. */
static int store(struct nb_map *map, struct nb_dev *dev, const struct nb_prog *prog)
{
	__u32 key = 0;

	if (nb_map_type(map) == BPF_MAP_TYPE_CPUMAP) {
		struct bpf_cpumap_val val = { .qsize = 8, .bpf_prog.fd = (int)nb_prog_id(prog) };

		return nb_map_update_elem(map, &key, &val, BPF_ANY);
	}
	struct bpf_devmap_val val = { .ifindex = dev->ifindex,
				      .bpf_prog.fd = (int)nb_prog_id(prog) };

	return nb_map_update_elem(map, &key, &val, BPF_ANY);
}

/* What a refused store returns: devmaps -EINVAL, cpumaps -ENOMEM (as the kernel's). */
static int store_refused(const struct nb_map *map)
{
	return nb_map_type(map) == BPF_MAP_TYPE_CPUMAP ? -ENOMEM : -EINVAL;
}

static enum bpf_attach_type entry_attach(const struct nb_map *map)
{
	return nb_map_type(map) == BPF_MAP_TYPE_CPUMAP ? BPF_XDP_CPUMAP : BPF_XDP_DEVMAP;
}

static const char *type_name(const struct nb_map *map)
{
	switch (nb_map_type(map)) {
	case BPF_MAP_TYPE_CPUMAP:
		return "cpumap";
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return "devmap_hash";
	default:
		return "devmap";
	}
}

/*
 * A user without frags claims the map: a user with frags is refused at load with the log, an
 * entry program with frags at store; attach types differ freely (BPF_XDP user, entry programs
 * loaded for the map), and so do engines.
 */
static void claimed_by_user(enum bpf_map_type type)
{
	struct nb_dev *dev = xt_dev("own0", NULL);
	struct nb_map *map = mt_map(type, 4, 8, 4, 0);
	struct nb_prog *user, *other = (void *)1, *attached;
	struct nb_prog *frags = load_entry(NB_PROG_LOAD_XDP_HAS_FRAGS, entry_attach(map));
	struct nb_prog *entry = load_entry(0, entry_attach(map));
	struct nb_prog *interp = load_entry(NB_PROG_LOAD_INTERP, entry_attach(map));
	struct nb_log log = { 0 };
	enum bpf_prog_type owner_type;
	bool owner_jited;
	char want[128];

	NB_ASSERT_EQ(nb_map_owner(map, &owner_type, &owner_jited), -ENOENT);
	NB_ASSERT_EQ(load_user(map, 0, 0, &log, &user), 0);
	NB_ASSERT_EQ(nb_map_owner(map, &owner_type, &owner_jited), 0);
	NB_ASSERT_EQ(owner_type, BPF_PROG_TYPE_XDP);
	NB_ASSERT_EQ(owner_jited, nb_prog_is_jited(user));
	NB_ASSERT_EQ(load_user(map, NB_PROG_LOAD_XDP_HAS_FRAGS, 0, &log, &other), -EINVAL);
	NB_ASSERT(other == NULL);
	snprintf(want, sizeof(want), "with frags) cannot use %s map m (id %u), whose programs are "
		 "xdp, any engine: ", type_name(map), nb_map_id(map));
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "program user (xdp, ");
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), want);
	NB_ASSERT_EQ(store(map, dev, frags), store_refused(map));
	NB_ASSERT_EQ(store(map, dev, entry), 0);
	NB_ASSERT_EQ(store(map, dev, interp), 0);
	NB_ASSERT_EQ(load_user(map, 0, BPF_XDP, &log, &attached), 0);
	NB_ASSERT_EQ(store(map, dev, frags), store_refused(map));
	nb_log_free(&log);
	nb_prog_put(user);
	nb_prog_put(attached);
	nb_prog_put(frags);
	nb_prog_put(entry);
	nb_prog_put(interp);
	nb_map_put(map);
	nb_epoch_synchronize();
	xt_teardown();
}

/* An entry program with frags claims an empty map: users must then take frags too. */
static void claimed_by_store(enum bpf_map_type type)
{
	struct nb_dev *dev = xt_dev("own0", NULL);
	struct nb_map *map = mt_map(type, 4, 8, 4, 0);
	struct nb_prog *frags = load_entry(NB_PROG_LOAD_XDP_HAS_FRAGS, entry_attach(map));
	struct nb_prog *plain = load_entry(0, entry_attach(map));
	struct nb_prog *user, *other = (void *)1;
	struct nb_log log = { 0 };

	NB_ASSERT_EQ(store(map, dev, frags), 0);
	NB_ASSERT_EQ(store(map, dev, plain), store_refused(map));
	NB_ASSERT_EQ(load_user(map, 0, BPF_XDP, &log, &other), -EINVAL);
	NB_ASSERT(other == NULL);
	NB_ASSERT_STR_CONTAINS(nb_log_text(&log), "whose programs are xdp, any engine, with frags");
	NB_ASSERT_EQ(load_user(map, NB_PROG_LOAD_XDP_HAS_FRAGS, BPF_XDP, &log, &user), 0);
	nb_log_free(&log);
	nb_prog_put(user);
	nb_prog_put(frags);
	nb_prog_put(plain);
	nb_map_put(map);
	nb_epoch_synchronize();
	xt_teardown();
}

NB_TEST(xdp_devmap_owner_claimed_by_user)
{
	claimed_by_user(BPF_MAP_TYPE_DEVMAP);
}

NB_TEST(cpumap_owner_claimed_by_user)
{
	claimed_by_user(BPF_MAP_TYPE_CPUMAP);
}

NB_TEST(xdp_devmap_owner_claimed_by_store)
{
	claimed_by_store(BPF_MAP_TYPE_DEVMAP);
}

/*
 * A devmap hash: programs redirecting through it neither claim it nor are checked, with or
 * without frags; its first entry program claims it, and a later one must match.
 */
NB_TEST(xdp_devmap_hash_owner_claimed_by_stores_only)
{
	struct nb_dev *dev = xt_dev("own0", NULL);
	struct nb_map *map = mt_map(BPF_MAP_TYPE_DEVMAP_HASH, 4, 8, 4, 0);
	struct nb_prog *frags = load_entry(NB_PROG_LOAD_XDP_HAS_FRAGS, BPF_XDP_DEVMAP);
	struct nb_prog *plain = load_entry(0, BPF_XDP_DEVMAP);
	struct nb_prog *interp = load_entry(NB_PROG_LOAD_INTERP, BPF_XDP_DEVMAP);
	struct nb_prog *user, *user_frags, *late_frags;
	enum bpf_prog_type owner_type;
	struct nb_log log = { 0 };
	bool owner_jited;

	NB_ASSERT_EQ(load_user(map, 0, 0, &log, &user), 0);
	NB_ASSERT_EQ(load_user(map, NB_PROG_LOAD_XDP_HAS_FRAGS, 0, &log, &user_frags), 0);
	NB_ASSERT_EQ(nb_map_owner(map, &owner_type, &owner_jited), -ENOENT);
	NB_ASSERT_EQ(store(map, dev, plain), 0);
	NB_ASSERT_EQ(store(map, dev, frags), -EINVAL);
	NB_ASSERT_EQ(store(map, dev, interp), 0);
	NB_ASSERT_EQ(load_user(map, NB_PROG_LOAD_XDP_HAS_FRAGS, BPF_XDP, &log, &late_frags), 0);
	/* the first store's: the users did not claim it */
	NB_ASSERT_EQ(nb_map_owner(map, &owner_type, &owner_jited), 0);
	NB_ASSERT_EQ(owner_type, BPF_PROG_TYPE_XDP);
	NB_ASSERT_EQ(owner_jited, nb_prog_is_jited(plain));
	nb_log_free(&log);
	nb_prog_put(user);
	nb_prog_put(user_frags);
	nb_prog_put(late_frags);
	nb_prog_put(frags);
	nb_prog_put(plain);
	nb_prog_put(interp);
	nb_map_put(map);
	nb_epoch_synchronize();
	xt_teardown();
}

NB_TEST(cpumap_owner_claimed_by_store)
{
	claimed_by_store(BPF_MAP_TYPE_CPUMAP);
}
