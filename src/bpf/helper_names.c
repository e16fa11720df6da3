// SPDX-License-Identifier: GPL-2.0
/* Helper names by id, generated from the uapi header's own list so that they never drift. */
#include "bpf/helper_avail.h"
#include "bpf/helper_proto.h"

#define NB_HELPER_NAME(x) [BPF_FUNC_##x] = "bpf_" #x
static const char *const helper_names[__BPF_FUNC_MAX_ID] = {
	__BPF_FUNC_MAPPER(NB_HELPER_NAME)
};
#undef NB_HELPER_NAME

const char *nb_helper_name(s32 id)
{
	/* the ids of Linux 6.18 the uapi header does not list yet (helper_avail.h) */
	switch (id) {
	case NB_FUNC_CGRP_STORAGE_GET:
		return id < __BPF_FUNC_MAX_ID ? helper_names[id] : "bpf_cgrp_storage_get";
	case NB_FUNC_CGRP_STORAGE_DELETE:
		return id < __BPF_FUNC_MAX_ID ? helper_names[id] : "bpf_cgrp_storage_delete";
	default:
		break;
	}
	if (id <= 0 || id >= __BPF_FUNC_MAX_ID)
		return NULL;
	return helper_names[id];
}
