// SPDX-License-Identifier: GPL-2.0
/* Helper names by id, generated from the uapi header's own list so that they never drift. */
#include "bpf/helper_proto.h"

#define NB_HELPER_NAME(x) [BPF_FUNC_##x] = "bpf_" #x
static const char *const helper_names[__BPF_FUNC_MAX_ID] = {
	__BPF_FUNC_MAPPER(NB_HELPER_NAME)
};
#undef NB_HELPER_NAME

const char *nb_helper_name(s32 id)
{
	if (id <= 0 || id >= __BPF_FUNC_MAX_ID)
		return NULL;
	return helper_names[id];
}
