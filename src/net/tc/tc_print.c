// SPDX-License-Identifier: GPL-2.0
/*
 * What show prints of a classifier or an action, written by the kind's own dump as a list of
 * print items (include/netbpf/tc.h) in iproute2's print_* manner, so that a front end prints
 * any kind in text or JSON without knowing it: the kinds' shared pieces (a verdict, a program)
 * and the verdict words themselves.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netbpf/prog.h>

#include "net/tc/pkt_cls.h"

static struct nb_tc_print_item *print_item(struct nb_tc_print_list *list,
					   enum nb_tc_print_type type, u8 value_type,
					   const char *key, const char *fmt)
{
	struct nb_tc_print_item *it;

	if (list->err)
		return NULL;
	if (list->cnt == list->cap) {
		unsigned int cap = list->cap ? 2 * list->cap : 16;
		struct nb_tc_print_item *items = realloc(list->items, cap * sizeof(*items));

		if (!items) {
			list->err = -ENOMEM;
			return NULL;
		}
		list->items = items;
		list->cap = cap;
	}
	it = &list->items[list->cnt++];
	memset(it, 0, sizeof(*it));
	it->type = type;
	it->value_type = value_type;
	it->key = key;
	it->fmt = fmt;
	return it;
}

void nb_tc_print_string(struct nb_tc_print_list *list, enum nb_tc_print_type type,
			const char *key, const char *fmt, const char *value)
{
	struct nb_tc_print_item *it = print_item(list, type, NB_TC_PRINT_STRING, key, fmt);

	if (!it)
		return;
	it->s = strdup(value);
	if (!it->s) {
		list->cnt--;
		list->err = -ENOMEM;
	}
}

void nb_tc_print_uint(struct nb_tc_print_list *list, enum nb_tc_print_type type,
		      const char *key, const char *fmt, u64 value)
{
	struct nb_tc_print_item *it = print_item(list, type, NB_TC_PRINT_UINT, key, fmt);

	if (it)
		it->u = value;
}

void nb_tc_print_int(struct nb_tc_print_list *list, enum nb_tc_print_type type,
		     const char *key, const char *fmt, s64 value)
{
	struct nb_tc_print_item *it = print_item(list, type, NB_TC_PRINT_INT, key, fmt);

	if (it)
		it->u = (u64)value;
}

void nb_tc_print_hex(struct nb_tc_print_list *list, enum nb_tc_print_type type, const char *key,
		     const char *fmt, u64 value)
{
	struct nb_tc_print_item *it = print_item(list, type, NB_TC_PRINT_HEX, key, fmt);

	if (it)
		it->u = value;
}

void nb_tc_print_bool(struct nb_tc_print_list *list, enum nb_tc_print_type type,
		      const char *key, const char *fmt)
{
	print_item(list, type, NB_TC_PRINT_BOOL, key, fmt);
}

void nb_tc_print_open(struct nb_tc_print_list *list, const char *key)
{
	print_item(list, NB_TC_PRINT_JSON, NB_TC_PRINT_OPEN, key, NULL);
}

void nb_tc_print_close(struct nb_tc_print_list *list)
{
	print_item(list, NB_TC_PRINT_JSON, NB_TC_PRINT_CLOSE, NULL, NULL);
}

void nb_tc_print_list_free(struct nb_tc_print_list *list)
{
	for (unsigned int i = 0; i < list->cnt; i++)
		free(list->items[i].s);
	free(list->items);
	memset(list, 0, sizeof(*list));
}

const struct nb_tc_print_item *nb_tc_print_find(const struct nb_tc_print_list *list,
						const char *key)
{
	for (unsigned int i = 0; i < list->cnt; i++)
		if (list->items[i].key && !strcmp(list->items[i].key, key))
			return &list->items[i];
	return NULL;
}

void nb_tc_action_info_release(struct nb_tc_action_info *info)
{
	nb_tc_print_list_free(&info->print);
}

void nb_tc_filter_info_release(struct nb_tc_filter_info *info)
{
	for (unsigned int a = 0; a < info->action_cnt; a++)
		nb_tc_action_info_release(&info->actions[a]);
	nb_tc_print_list_free(&info->print);
}

/* The verdict words: the first of each value is the name tc prints. */
static const struct { const char *word; int control; } controls[] = {
	{ "pass", TC_ACT_OK }, { "ok", TC_ACT_OK }, { "drop", TC_ACT_SHOT },
	{ "shot", TC_ACT_SHOT }, { "pipe", TC_ACT_PIPE }, { "reclassify", TC_ACT_RECLASSIFY },
	{ "continue", TC_ACT_UNSPEC }, { "trap", TC_ACT_TRAP }, { "stolen", TC_ACT_STOLEN },
};

int nb_tc_control_parse(const char *word, int *control)
{
	for (size_t i = 0; i < ARRAY_SIZE(controls); i++)
		if (!strcmp(word, controls[i].word)) {
			*control = controls[i].control;
			return 0;
		}
	return -EINVAL;
}

const char *nb_tc_control_name(int control, char *buf, size_t size)
{
	if (TC_ACT_EXT_CMP(control, TC_ACT_GOTO_CHAIN)) {
		snprintf(buf, size, "goto chain %u", control & TC_ACT_EXT_VAL_MASK);
		return buf;
	}
	if (TC_ACT_EXT_CMP(control, TC_ACT_JUMP)) {
		snprintf(buf, size, "jump %u", control & TC_ACT_EXT_VAL_MASK);
		return buf;
	}
	for (size_t i = 0; i < ARRAY_SIZE(controls); i++)
		if (controls[i].control == control) {
			snprintf(buf, size, "%s", controls[i].word);
			return buf;
		}
	snprintf(buf, size, "%d", control);
	return buf;
}

void nb_tc_print_control(struct nb_tc_print_list *list, const char *key, int control)
{
	char buf[32];

	nb_tc_print_open(list, key);
	if (TC_ACT_EXT_CMP(control, TC_ACT_GOTO_CHAIN)) {
		nb_tc_print_string(list, NB_TC_PRINT_JSON, "type", NULL, "goto");
		nb_tc_print_uint(list, NB_TC_PRINT_JSON, "chain", NULL,
				 control & TC_ACT_EXT_VAL_MASK);
	} else if (TC_ACT_EXT_CMP(control, TC_ACT_JUMP)) {
		nb_tc_print_string(list, NB_TC_PRINT_JSON, "type", NULL, "jump");
		nb_tc_print_uint(list, NB_TC_PRINT_JSON, "jump", NULL,
				 control & TC_ACT_EXT_VAL_MASK);
	} else {
		nb_tc_print_string(list, NB_TC_PRINT_JSON, "type", NULL,
				   nb_tc_control_name(control, buf, sizeof(buf)));
	}
	nb_tc_print_close(list);
}

void nb_tc_print_prog(struct nb_tc_print_list *list, const struct nb_prog *prog)
{
	char name[BPF_OBJ_NAME_LEN], tag[2 * BPF_TAG_SIZE + 1] = "?";
	__u8 raw[BPF_TAG_SIZE];

	/* the kernel keeps BPF_OBJ_NAME_LEN - 1 characters of the name */
	snprintf(name, sizeof(name), "%s", nb_prog_name(prog));
	if (!nb_prog_tag(prog, raw))
		for (int i = 0; i < BPF_TAG_SIZE; i++)
			sprintf(tag + 2 * i, "%02x", raw[i]);
	nb_tc_print_open(list, "prog");
	nb_tc_print_uint(list, NB_TC_PRINT_ANY, "id", "id %llu ", nb_prog_id(prog));
	nb_tc_print_string(list, NB_TC_PRINT_ANY, "name", "name %s ", name);
	nb_tc_print_string(list, NB_TC_PRINT_ANY, "tag", "tag %s ", tag);
	nb_tc_print_uint(list, NB_TC_PRINT_JSON, "jited", NULL, nb_prog_is_jited(prog));
	if (nb_prog_is_jited(prog))
		nb_tc_print_string(list, NB_TC_PRINT_FP, NULL, "%s", "jited ");
	nb_tc_print_close(list);
}
