// SPDX-License-Identifier: GPL-2.0
/*
 * Policy routing rules, the twin of net/core/fib_rules.c with the IPv4 and IPv6 selectors of
 * fib4_rules.c and fib6_rules.c: a list per family in priority order (equal priorities in the
 * order they came), starting with the kernel's defaults (0 local, 32766 main and, for IPv4,
 * 32767 default). A lookup walks the rules that match the flow and asks each one's table until
 * one answers with something other than "nothing here" (-EAGAIN).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/fib_rules.h>
#include <linux/rtnetlink.h>

#include "bpf/epoch.h"
#include "net/dev.h"
#include "net/fib.h"

struct rules_snapshot {
	struct nb_epoch_head rcu;
	bool custom[2];			/* fib_has_custom_rules per family */
	u32 cnt;
	struct nb_fib_rule rules[];	/* IPv4 then IPv6, each in priority order */
};

static struct rules_snapshot *rules_snap;

static void rules_free_rcu(struct nb_epoch_head *head)
{
	free(container_of(head, struct rules_snapshot, rcu));
}

static const struct rules_snapshot *rules_get(void)
{
	return __atomic_load_n(&rules_snap, __ATOMIC_ACQUIRE);
}

static void rules_publish(struct rules_snapshot *s)
{
	struct rules_snapshot *old = rules_snap;

	__atomic_store_n(&rules_snap, s, __ATOMIC_RELEASE);
	if (old)
		nb_epoch_call(&old->rcu, rules_free_rcu);
}

static struct rules_snapshot *rules_alloc(u32 cnt)
{
	return calloc(1, sizeof(struct rules_snapshot) + cnt * sizeof(struct nb_fib_rule));
}

/* fib_default_rules_init of both families. */
#define DEFAULT_RULE(fam, prio, tbl)                                                        \
	{ .family = fam, .action = FR_ACT_TO_TBL, .has_priority = true, .priority = prio,    \
	  .table = tbl }

static const struct nb_fib_rule default_rules[] = {
	DEFAULT_RULE(AF_INET, 0, RT_TABLE_LOCAL),
	DEFAULT_RULE(AF_INET, 0x7ffe, RT_TABLE_MAIN),
	DEFAULT_RULE(AF_INET, 0x7fff, RT_TABLE_DEFAULT),
	DEFAULT_RULE(AF_INET6, 0, RT_TABLE_LOCAL),
	DEFAULT_RULE(AF_INET6, 0x7ffe, RT_TABLE_MAIN),
};

static int rules_init_locked(void)
{
	struct rules_snapshot *s;

	if (rules_snap)
		return 0;
	s = rules_alloc(ARRAY_SIZE(default_rules));
	if (!s)
		return -ENOMEM;
	s->cnt = ARRAY_SIZE(default_rules);
	memcpy(s->rules, default_rules, sizeof(default_rules));
	rules_publish(s);
	return 0;
}

/* The rules of family: the defaults until something changed them. */
static const struct nb_fib_rule *rules_of(const struct rules_snapshot *s, int family, u32 *cnt)
{
	const struct nb_fib_rule *r = s ? s->rules : default_rules;
	u32 n = s ? s->cnt : ARRAY_SIZE(default_rules), first = 0;

	while (first < n && r[first].family != family)
		first++;
	*cnt = 0;
	while (first + *cnt < n && r[first + *cnt].family == family)
		(*cnt)++;
	return r + first;
}

bool nb_fib_has_custom_rules(int family)
{
	const struct rules_snapshot *s = rules_get();

	return s && s->custom[nb_inet_family_index(family)];
}

/* Does dev_name name the device at ifindex (the kernel resolves iif/oif names the same way)? */
static bool dev_matches(const char *dev_name, u32 ifindex)
{
	char buf[IFNAMSIZ];

	if (!dev_name[0])
		return true;
	if (!ifindex)
		return false;
	return !strcmp(nb_fib_dev_name(ifindex, buf), dev_name);
}

/* fib_rule_match with fib4_rule_match / fib6_rule_match. */
static bool rule_matches(const struct nb_fib_rule *r, const struct nb_flowi *fl)
{
	bool ret = false;

	if (!dev_matches(r->iif, fl->iif) || !dev_matches(r->oif, fl->oif))
		goto out;
	if (r->has_mark && ((r->mark ^ fl->mark) & r->mark_mask))
		goto out;
	if (r->src_len && !nb_inet_prefix_match(fl->family, &r->src, r->src_len, &fl->saddr))
		goto out;
	if (r->dst_len && !nb_inet_prefix_match(fl->family, &r->dst, r->dst_len, &fl->daddr))
		goto out;
	ret = true;
out:
	return r->invert ? !ret : ret;
}

int nb_fib_rules_lookup(const struct nb_flowi *fl,
			int (*action)(const struct nb_fib_rule *rule, const struct nb_flowi *fl,
				      void *arg),
			void *arg)
{
	u32 cnt;
	const struct nb_fib_rule *r = rules_of(rules_get(), fl->family, &cnt);

	for (u32 i = 0; i < cnt; i++) {
		int err;

		if (!rule_matches(&r[i], fl))
			continue;
		err = action(&r[i], fl, arg);
		if (err != -EAGAIN)
			return err;
	}
	return -ENETUNREACH;
}

/* fib_default_rule_pref: one below the second rule's priority, when that is not 0. */
static u32 default_pref(const struct nb_fib_rule *r, u32 cnt)
{
	if (cnt >= 2 && r[1].priority)
		return r[1].priority - 1;
	return 0;
}

int nb_rule_add(const struct nb_fib_rule *in, struct nb_log *log)
{
	struct nb_fib_rule rule = *in;
	const struct nb_fib_rule *r;
	struct rules_snapshot *s;
	u32 cnt, pos, base;
	int err;

	if (rule.family != AF_INET && rule.family != AF_INET6) {
		nb_log_printf(log, "rule family %u is not IPv4 or IPv6\n", rule.family);
		return -EAFNOSUPPORT;
	}
	if (rule.action == FR_ACT_TO_TBL && !rule.table) {
		nb_log_printf(log, "Invalid table.\n");
		return -EINVAL;
	}
	if (rule.action != FR_ACT_TO_TBL && rule.action != FR_ACT_BLACKHOLE &&
	    rule.action != FR_ACT_UNREACHABLE && rule.action != FR_ACT_PROHIBIT) {
		nb_log_printf(log, "rule action %u is not supported by netbpf\n", rule.action);
		return -EOPNOTSUPP;
	}
	if (rule.src_len > nb_inet_addr_bits(rule.family) ||
	    rule.dst_len > nb_inet_addr_bits(rule.family)) {
		nb_log_printf(log, "prefix length is too long\n");
		return -EINVAL;
	}
	/* the selectors keep the address as given: only the prefix length's bits are compared */
	if (rule.has_mark && !rule.mark_mask)
		rule.mark_mask = rule.mark ? 0xffffffff : 0;
	nb_route_lock();
	err = rules_init_locked();
	if (err)
		goto out;
	r = rules_of(rules_snap, rule.family, &cnt);
	base = (u32)(r - rules_snap->rules);
	if (!rule.has_priority) {
		rule.priority = default_pref(r, cnt);
		rule.has_priority = true;
	}
	for (pos = 0; pos < cnt; pos++)
		if (r[pos].priority > rule.priority)
			break;
	s = rules_alloc(rules_snap->cnt + 1);
	if (!s) {
		err = -ENOMEM;
		goto out;
	}
	memcpy(s->custom, rules_snap->custom, sizeof(s->custom));
	s->custom[nb_inet_family_index(rule.family)] = true;
	s->cnt = rules_snap->cnt + 1;
	memcpy(s->rules, rules_snap->rules, (base + pos) * sizeof(rule));
	s->rules[base + pos] = rule;
	memcpy(&s->rules[base + pos + 1], &rules_snap->rules[base + pos],
	       (rules_snap->cnt - base - pos) * sizeof(rule));
	rules_publish(s);
out:
	nb_route_unlock();
	return err;
}

/* Every selector the request gives must be the rule's (rule_find of fib_nl_delrule). */
static bool del_matches(const struct nb_fib_rule *have, const struct nb_fib_rule *want)
{
	if (want->has_priority && have->priority != want->priority)
		return false;
	if (want->table && have->table != want->table)
		return false;
	if (want->action && have->action != want->action)
		return false;
	if (want->has_mark && (have->mark != want->mark ||
			       (want->mark_mask && have->mark_mask != want->mark_mask)))
		return false;
	if (want->src_len && (have->src_len != want->src_len ||
			      memcmp(&have->src, &want->src, sizeof(have->src))))
		return false;
	if (want->dst_len && (have->dst_len != want->dst_len ||
			      memcmp(&have->dst, &want->dst, sizeof(have->dst))))
		return false;
	if (want->iif[0] && strcmp(have->iif, want->iif))
		return false;
	if (want->oif[0] && strcmp(have->oif, want->oif))
		return false;
	if (want->invert && !have->invert)
		return false;
	return true;
}

int nb_rule_del(const struct nb_fib_rule *in, struct nb_log *log)
{
	struct nb_fib_rule want = *in;
	struct rules_snapshot *s;
	int err = -ENOENT;

	nb_route_lock();
	if (rules_init_locked()) {
		err = -ENOMEM;
		goto out;
	}
	for (u32 i = 0; i < rules_snap->cnt; i++) {
		if (rules_snap->rules[i].family != want.family ||
		    !del_matches(&rules_snap->rules[i], &want))
			continue;
		s = rules_alloc(rules_snap->cnt - 1);
		if (!s) {
			err = -ENOMEM;
			goto out;
		}
		memcpy(s->custom, rules_snap->custom, sizeof(s->custom));
		s->custom[nb_inet_family_index(want.family)] = true;
		s->cnt = rules_snap->cnt - 1;
		memcpy(s->rules, rules_snap->rules, i * sizeof(want));
		memcpy(&s->rules[i], &rules_snap->rules[i + 1],
		       (rules_snap->cnt - i - 1) * sizeof(want));
		rules_publish(s);
		err = 0;
		break;
	}
out:
	nb_route_unlock();
	if (err == -ENOENT)
		nb_log_printf(log, "No such file or directory\n");
	return err;
}

int nb_rule_dump(int family, int (*cb)(const struct nb_fib_rule *rule, void *arg), void *arg)
{
	const struct nb_fib_rule *r;
	u32 cnt;
	int ret = 0;

	nb_epoch_read_lock();
	r = rules_of(rules_get(), family, &cnt);
	for (u32 i = 0; i < cnt && !ret; i++)
		ret = cb(&r[i], arg);
	nb_epoch_read_unlock();
	return ret;
}
