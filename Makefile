# netbpf: the Linux tc and XDP eBPF datapath in userspace.
#
#   make            build the library, the netbpf command and the BPF objects
#   make check      run every test (installs missing Debian packages when root)
#   make demo       the default run on built-in in-memory ports, then the seed's tc table in Mpps
#   make bench      netbpf bench (the seed's tables), then the benchmarks beside the kernel
#                   (BENCH_ARGS: netbpf bench's options, e.g. --quick)
#   make install    netbpf, libnetbpf.a/.so, the headers, netbpf.pc (PREFIX, LIBDIR, DESTDIR)
#   make fuzz       long fuzzing runs
#   make soak       10^9 packets while the control plane changes what runs
#   make sound      SOUND_PROGRAMS (10^7) generated programs verified and run under ASan
#   SANITIZE=1      build with ASan+UBSan (in build/asan); SANITIZE=thread: TSan
#   TEST_JOBS=N     make check runs up to N tests at once (default 1: some tests are timed)

BUILD   ?= build
PREFIX  ?= /usr/local
LIBDIR  ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
CC      ?= gcc
CLANG   ?= clang
OBJCOPY ?= objcopy
V       ?= 0
TEST_JOBS ?= 1

ifeq ($(SANITIZE),1)
BUILD   := build/asan
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(SANITIZE),thread)
BUILD   := build/tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
else ifeq ($(SANITIZE),fuzz)
# libFuzzer targets: the whole library built by clang with coverage, ASan and UBSan.
BUILD   := build/fuzz
CC      := $(CLANG)
SANFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	    -fno-omit-frame-pointer -Wno-unknown-attributes  # gcc-only attributes (optimize)
endif

PKGS    := libelf libbpf libpcap libxdp zlib
ARCH_INC := -I/usr/include/$(shell $(CC) -dumpmachine 2>/dev/null)

CFLAGS  ?= -O2 -g
CFLAGS  += -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
	   -Wstrict-prototypes -Wmissing-prototypes -fno-strict-aliasing -pthread \
	   -D_GNU_SOURCE -Iinclude -Isrc $(SANFLAGS)
LDFLAGS += -pthread $(SANFLAGS)
# The test runner's headers (netns, instruction builders) are for the tests, the harnesses and
# the benches' kernel baseline, never for the library.
RUNNER_CFLAGS := -Itests/runner
# Deferred (=): on a fresh machine pkg-config answers only after the dependencies are installed.
LDLIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm

BPF_CFLAGS := -O2 -g -target bpf -mcpu=v3 -Wall -Werror -Wno-unused-value \
	      -Wno-pointer-sign -Wno-compare-distinct-pointer-types $(ARCH_INC) -Itests/bpf -Iexamples

LIB_SRCS  := $(wildcard src/common/*.c src/bpf/*.c src/bpf/*/*.c src/pkt/*.c src/net/*.c \
			src/net/*/*.c src/io/*.c src/ctl/*.c)
# The kernel-facing half of netbpf diff (libbpf loads, network namespaces): the command's and
# the tests', not the library's.
KCOMPARE_SRCS := $(wildcard src/kcompare/*.c)
CLI_SRCS  := $(wildcard src/cli/*.c)
TEST_SRCS := $(wildcard tests/runner/*.c tests/unit/*.c tests/kernel/*.c)
BENCH_SRCS := $(wildcard bench/*.c)
FUZZ_SRCS := $(wildcard tests/fuzz/*.c)
BPF_SRCS  := $(wildcard tests/bpf/*.c examples/*.c)

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
KCOMPARE_OBJS := $(KCOMPARE_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/%.o)
BENCH_OBJS := $(BENCH_SRCS:%.c=$(BUILD)/%.o)
BPF_OBJS  := $(BPF_SRCS:%.c=$(BUILD)/%.o)

# libnetbpf.a as embedders link it: every kind registers itself from a constructor, so the
# library is one object, prelinked, in which only the nb_ symbols stay global. The command and
# the benches link it the ordinary way; the tests and fuzzers take the objects, internals too.
LIB     := $(BUILD)/libnetbpf.a
NETBPF  := $(BUILD)/netbpf
NBTEST  := $(BUILD)/nb-test
NBBENCH := $(BUILD)/nb-bench
NBSOAK  := $(BUILD)/nb-soak
SOAK_PACKETS ?= 1000000000
NBSOUND := $(BUILD)/nb-sound
SOUND_PROGRAMS ?= 10000000
SOUND_SEED ?= 1
# Fuzz targets always live in build/fuzz, whatever BUILD is.
FUZZ_BINS := $(FUZZ_SRCS:tests/fuzz/%.c=build/fuzz/%)
FUZZ_TIME ?= 600
DEPS_OK := $(BUILD)/.deps-ok

ifeq ($(V),0)
Q := @
msg = @printf '  %-6s %s\n' $(1) $(2);
else
Q :=
msg :=
endif

.PHONY: all check demo bench fuzz fuzz-build soak sound install stage clean deps
all: $(NETBPF) $(BPF_OBJS)

deps: $(DEPS_OK)

# Re-run the dependency check whenever the list of packages changes.
$(DEPS_OK): scripts/install-deps.sh
	$(Q)./scripts/install-deps.sh
	$(Q)mkdir -p $(@D) && touch $@

$(BUILD)/tests/%.o $(BUILD)/bench/%.o: CFLAGS += $(RUNNER_CFLAGS)

$(BUILD)/%.o: %.c | $(DEPS_OK)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# BPF objects: the same clang invocation users run for the kernel.
$(BUILD)/tests/bpf/%.o $(BUILD)/examples/%.o: | $(DEPS_OK)
$(BUILD)/tests/bpf/%.o: tests/bpf/%.c
	$(call msg,BPF,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/examples/%.o: examples/%.c
	$(call msg,BPF,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/libnetbpf.o: $(LIB_OBJS)
	$(call msg,LD,$@)
	$(Q)$(LD) -r -o $@.all $^
	$(Q)$(OBJCOPY) --wildcard --keep-global-symbol='nb_*' $@.all $@ && rm -f $@.all

$(LIB): $(BUILD)/libnetbpf.o
	$(call msg,AR,$@)
	$(Q)rm -f $@ && ar rcs $@ $^

# netbpf bench's kernel column measures with the benches' kernel baseline
NETBPF_BENCH_OBJS := $(BUILD)/bench/kernel_baseline.o $(BUILD)/bench/clock.o

$(NETBPF): $(CLI_OBJS) $(KCOMPARE_OBJS) $(NETBPF_BENCH_OBJS) $(LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(NBTEST): $(TEST_OBJS) $(KCOMPARE_OBJS) $(LIB_OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(NBBENCH): $(BENCH_OBJS) $(LIB)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(BENCH_OBJS) $(LIB) $(LDLIBS)

# netbpf bench's DPDK peer (bench/dpdk), built by make bench only: Debian's libdpdk-dev is a
# bench dependency, not a build one. Its headers are system headers to our warnings.
DPDK_PEER := $(BUILD)/dpdk-peer
DPDK_PROGS := $(BUILD)/bench/dpdk/peer_prog.o
DPDK_CFLAGS = $(patsubst -I%,-isystem %,$(shell pkg-config --cflags libdpdk 2>/dev/null))

$(BUILD)/bench/dpdk/peer.o: bench/dpdk/peer.c | $(DEPS_OK)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(DPDK_CFLAGS) -MMD -MP -c $< -o $@

$(DPDK_PEER): $(BUILD)/bench/dpdk/peer.o
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(shell pkg-config --libs libdpdk)

# librte_bpf (DPDK 22.11) knows no JMP32: the peer's programs are built for -mcpu=v1.
$(DPDK_PROGS): $(BUILD)/bench/dpdk/%.o: bench/dpdk/%.c | $(DEPS_OK)
	$(call msg,BPF,$<)
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(filter-out -mcpu=v3,$(BPF_CFLAGS)) -mcpu=v1 -MMD -MP -c $< -o $@

$(NBSOAK): $(BUILD)/tests/soak/soak.o $(LIB_OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

SOUND_OBJS := $(BUILD)/tests/sound/sound_many.o $(BUILD)/tests/runner/sound_gen.o \
	      $(BUILD)/tests/runner/sound_run.o
$(NBSOUND): $(SOUND_OBJS) $(LIB_OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(SOUND_OBJS) $(LIB_OBJS) $(LDLIBS)

# The plain check also fuzzes briefly (tests/cli/fuzz_*.sh, about 20 s each).
ifeq ($(SANITIZE),)
CHECK_FUZZ := fuzz-build
# The embedding test builds against the installed library (sanitizer builds skip it).
CHECK_STAGE := stage
endif

# NETBPF_RUNDIR: daemons the tests start, and the commands they run, never meet a user's.
check: $(NBTEST) $(NETBPF) $(NBSOAK) $(NBSOUND) $(BPF_OBJS) $(CHECK_FUZZ) $(CHECK_STAGE)
	$(Q)NB_BUILD=$(BUILD) NETBPF=$(abspath $(NETBPF)) NB_FUZZ_DIR=$(abspath build/fuzz) \
		NETBPF_RUNDIR=$(abspath $(BUILD))/run $(NBTEST) -j $(TEST_JOBS) --scripts tests/cli

demo: $(NETBPF) $(BPF_OBJS)
	$(Q)$(NETBPF) run
	$(Q)$(NETBPF) bench --quick tc

bench: $(NBBENCH) $(NETBPF) $(BPF_OBJS)
	$(Q)./scripts/install-deps.sh bench
	$(Q)$(MAKE) --no-print-directory $(DPDK_PEER) $(DPDK_PROGS)
	$(Q)$(NETBPF) bench $(BENCH_ARGS)
	$(Q)NB_BUILD=$(BUILD) $(NBBENCH)

# SOAK_PACKETS frames (10^9) while filters, XDP programs and a devmap entry change (tests/soak).
soak: $(NBSOAK) $(BPF_OBJS)
	$(Q)NB_BUILD=$(BUILD) $(NBSOAK) --packets $(SOAK_PACKETS)

# The soundness fuzzer's long run, always in the ASan build: only there does an access the
# verifier should have refused end the run (tests/sound/sound_many.c). SOUND_SEED moves the
# range, so that runs add up; SOUND_JOBS processes (one per CPU).
SOUND_JOBS ?= $(shell nproc)
sound:
	$(Q)$(MAKE) --no-print-directory SANITIZE=1 build/asan/nb-sound
	$(Q)build/asan/nb-sound --programs $(SOUND_PROGRAMS) --seed $(SOUND_SEED) \
		--jobs $(SOUND_JOBS)

ifeq ($(SANITIZE),fuzz)
build/fuzz/%: build/fuzz/tests/fuzz/%.o $(LIB_OBJS)
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $< $(LIB_OBJS) $(LDLIBS)
endif

fuzz-build: $(BPF_OBJS)
	$(Q)$(MAKE) --no-print-directory SANITIZE=fuzz $(FUZZ_BINS)

# Long runs (FUZZ_TIME seconds per target, or FUZZ=TARGET for one), each with its seeds and
# limits (tests/fuzz/run.sh); the corpus grows in build/fuzz/corpus/TARGET.
fuzz: fuzz-build $(NETBPF)
	$(Q)for f in $(if $(FUZZ),build/fuzz/$(FUZZ),$(FUZZ_BINS)); do \
		n=$$(basename $$f); echo "  FUZZ   $$n for $(FUZZ_TIME) s"; \
		NB_BUILD=$(BUILD) NETBPF=$(abspath $(NETBPF)) NB_FUZZ_DIR=build/fuzz \
			bash tests/fuzz/run.sh $$n $(FUZZ_TIME) || exit 1; \
	done

# libnetbpf.so: the same library from position-independent objects, exporting only the nb_
# symbols (src/libnetbpf.map). Thread-locals use the initial-exec model, as the executable's
# do: programs link the library at start, and the per-packet paths read them.
VERSION := 0.1.0
SONAME  := libnetbpf.so.$(firstword $(subst ., ,$(VERSION)))
SOLIB   := $(BUILD)/libnetbpf.so
PIC_OBJS := $(LIB_SRCS:%.c=$(BUILD)/pic/%.o)

$(BUILD)/pic/%.o: %.c | $(DEPS_OK)
	$(call msg,CC,$@)
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) -fPIC -ftls-model=initial-exec -MMD -MP -c $< -o $@

$(SOLIB): $(PIC_OBJS) src/libnetbpf.map
	$(call msg,LD,$@)
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=src/libnetbpf.map \
		-Wl,-z,defs -o $@ $(PIC_OBJS) $(LDLIBS)

# netbpf.pc names the directories of this install; a sanitizer build's carries its runtime.
install: $(NETBPF) $(LIB) $(SOLIB) $(BPF_OBJS)
	$(Q)install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(LIBDIR)/pkgconfig \
		$(DESTDIR)$(INCLUDEDIR)/netbpf
	$(Q)install -m 755 $(NETBPF) $(DESTDIR)$(PREFIX)/bin/netbpf
	$(Q)install -m 644 $(LIB) $(DESTDIR)$(LIBDIR)/libnetbpf.a
	$(Q)install -m 755 $(SOLIB) $(DESTDIR)$(LIBDIR)/libnetbpf.so.$(VERSION)
	$(Q)ln -sf libnetbpf.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	$(Q)ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libnetbpf.so
	$(Q)sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
		-e 's|@VERSION@|$(VERSION)|; s|@REQUIRES@|$(PKGS)|; s|@SANFLAGS@|$(SANFLAGS)|' \
		src/netbpf.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/netbpf.pc
	$(Q)install -m 644 include/netbpf/*.h $(DESTDIR)$(INCLUDEDIR)/netbpf/
	$(Q)install -d $(DESTDIR)$(PREFIX)/share/netbpf/examples
	$(Q)install -m 644 $(filter $(BUILD)/examples/%,$(BPF_OBJS)) examples/*.tc \
		$(DESTDIR)$(PREFIX)/share/netbpf/examples/

# An install into $(BUILD)/stage, which tests/cli/embed.sh builds examples/embed/ against.
stage: $(NETBPF) $(LIB) $(SOLIB) $(BPF_OBJS)
	$(Q)rm -rf $(BUILD)/stage
	$(Q)$(MAKE) --no-print-directory install DESTDIR=$(abspath $(BUILD))/stage PREFIX=/usr

clean:
	rm -rf build

-include $(LIB_OBJS:.o=.d) $(PIC_OBJS:.o=.d) $(CLI_OBJS:.o=.d) $(KCOMPARE_OBJS:.o=.d) \
	 $(TEST_OBJS:.o=.d) $(BENCH_OBJS:.o=.d) $(BUILD)/tests/soak/soak.d \
	 $(BUILD)/tests/sound/sound_many.d \
	 $(BPF_OBJS:.o=.d) $(FUZZ_SRCS:%.c=build/fuzz/%.d) $(BUILD)/bench/dpdk/peer.d \
	 $(DPDK_PROGS:.o=.d)
