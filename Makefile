# dfsim: build, test, demo and benchmark. `make help` lists the targets.
CC      ?= cc
PKGS    := libconfig libcjson otf2
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Iinclude \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS  := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)

CORE_SRC := $(filter-out src/main.c,$(wildcard src/*.c)) $(wildcard src/*/*.c) $(wildcard routers/*.c) \
            $(wildcard routers/*/*.c) $(wildcard arbiters/*.c) $(wildcard traffic/*.c) \
            $(wildcard traffic/*/*.c)
TEST_SRC := $(wildcard tests/*.c)

BUILD    := build
OBJ      := $(CORE_SRC:%.c=$(BUILD)/release/%.o)
TEST_OBJ := $(CORE_SRC:%.c=$(BUILD)/test/%.o) $(TEST_SRC:%.c=$(BUILD)/test/%.o)
SAN      := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

.PHONY: all deps demo test test-unit bench clean help
all: dfsim

help:
	@echo "make            build ./dfsim"
	@echo "make deps       install missing Debian packages (as root) or print the apt-get line"
	@echo "make demo       deps + build + run conf/default.cfg -> results/default.json"
	@echo "make test       deps + the whole test suite (release build and ASan/UBSan build)"
	@echo "make bench      speed of the reference network (not part of the tests)"
	@echo "make refcheck   compare a dozen small reference points with tests/reference/ (part of make test)"
	@echo "make readme     regenerate conf/SETTINGS.md's and results/README.md's tables"
	@echo "make figures    the reference study's sweeps (h=6, hours) and plots into plots/out/"
	@echo "make figures-quick  the same on h=3 in minutes (smoke test)"
	@echo "make test-python    the plotting scripts' and the Python package's unit tests (part of make test)"
	@echo "make python     make \`import dfsim\` work for $(PYTHON): a .pth file naming plots/ (part of make demo)"
	@echo "make validate   rerun the comparison with FOGSim, BookSim2 and CODES (results/validation/)"
	@echo "make bench-peers  dfsim's speed on the points timed with BookSim2 and FOGSim (results/validation/speed/)"
	@echo "make test-slurm the Slurm round trip of sweeps (one-node cluster; part of make test)"
	@echo "make fuzz       fuzz the config loader, small runs and the sweep loader, FUZZ_SECONDS (60) each"
	@echo "make memcheck   valgrind memcheck of the end-to-end runs (no error, no leak)"
	@echo "make soak       every routing at offered 1.0 for 10^6 cycles on h=3 with --check"

deps:
	@sh tools/deps.sh

dfsim: $(OBJ) $(BUILD)/release/src/main.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/release/src/version.o: CFLAGS += -DDFSIM_VERSION='"$(VERSION)"'
$(BUILD)/test/src/version.o: CFLAGS += -DDFSIM_VERSION='"$(VERSION)"'
# The stamp holds the last version compiled in: version.o is rebuilt whenever `git describe`
# changes (a commit, a dirty tree), so every result names the code that made it.
$(BUILD)/release/src/version.o $(BUILD)/test/src/version.o: $(BUILD)/version.stamp
$(BUILD)/version.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(VERSION)' | cmp -s - $@ || echo '$(VERSION)' > $@
.PHONY: FORCE
FORCE:

$(BUILD)/release/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

# The test build: assertions on, sanitizers on, CUnit linked in.
$(BUILD)/test/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -O1 $(SAN) -DDFSIM_TEST $(shell pkg-config --cflags cunit 2>/dev/null) \
	    -MMD -MP -c -o $@ $<

dfsim-test: $(TEST_OBJ)
	$(CC) $(CFLAGS) $(SAN) -o $@ $^ $(LDLIBS) $(shell pkg-config --libs cunit 2>/dev/null)

# The unit/property suites run under the sanitizers; the end-to-end tests inside them run the
# release binary ./dfsim (built first) and the sanitized ./dfsim-san.
dfsim-san: $(CORE_SRC:%.c=$(BUILD)/test/%.o) $(BUILD)/test/src/main.o
	$(CC) $(CFLAGS) $(SAN) -o $@ $^ $(LDLIBS)

# make test: every group runs, one after the other, even after one failed; then the summary of
# what each actually ran, failed and skipped (and why), from the records tools/test-group.sh
# keeps in build/test-results; make test fails if any group failed or left no record.
TEST_GROUPS := test-unit refcheck test-python test-slurm test-fuzz
test: deps
	@rm -rf $(BUILD)/test-results
	@status=0; for group in $(TEST_GROUPS); do \
	    $(MAKE) --no-print-directory $$group || status=1; \
	done; \
	sh tools/test-group.sh summary $(TEST_GROUPS) || status=1; \
	exit $$status

test-unit: dfsim dfsim-san dfsim-test
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	    sh tools/test-group.sh counts test-unit ./dfsim-test

demo: deps
	@$(MAKE) --no-print-directory dfsim python
	./dfsim run conf/default.cfg

bench: dfsim
	@sh tools/bench.sh

# The reference points (tools/refcheck.sh): every routing, pattern and arbiter on small networks,
# compared with the documents recorded in tests/reference/ (part of make test). Re-record only
# on a deliberate model change, in its own commit that says why.
.PHONY: refcheck refcheck-record
refcheck: dfsim
	@sh tools/test-group.sh counts refcheck sh tools/refcheck.sh

refcheck-record: dfsim
	@REFCHECK_RECORD=1 sh tools/refcheck.sh

# The generated reference tables (conf/SETTINGS.md, results/README.md): rewrite them after changing a
# setting or the result schema; the tests fail while they are stale.
.PHONY: readme
readme: dfsim
	@$(PYTHON) tools/readme_tables.py ./dfsim

# The Slurm round trip of sweeps: installs and starts a one-node cluster on localhost,
# runs a small sweep through `dfsim sweep --slurm` and compares it with the same sweep run
# locally; skipped (counted as such, with the reason) only where tools/slurm-cluster.sh check
# finds beforehand that no cluster can be had (not root, no cgroup filesystem for slurmd, ...).
.PHONY: test-slurm
test-slurm: dfsim
	@sh tools/test-group.sh commands test-slurm 'bash tests/slurm_test.sh'

clean:
	rm -rf $(BUILD) dfsim dfsim-test dfsim-san

# ---- robustness: fuzzing, valgrind, soak --------------------------------------------------------
# make fuzz       libFuzzer (clang), FUZZ_SECONDS (60) each with a random seed, over the config
#                 loader and --set (fuzz_config, from tests/fuzz/corpus), over short runs of
#                 the small configs it accepts with the invariant recount on (fuzz_run, from
#                 the same corpus) and over the sweep loader and grid expansion (fuzz_sweep,
#                 from tests/fuzz/corpus_sweep) and over the trace reader and replay (fuzz_trace,
#                 a file of the coverage trace replaced, from tests/fuzz/corpus_trace); new
#                 inputs go to build/fuzz/TARGET/corpus,
#                 crashes to build/fuzz/artifacts (fix, then keep them in tests/fuzz/regressions,
#                 regressions_run or regressions_sweep)
# make test-fuzz  FUZZ_RUNS (40000) config, FUZZ_RUN_RUNS (10000) run, FUZZ_SWEEP_RUNS
#                 (10000) sweep and FUZZ_TRACE_RUNS (500) trace inputs from FUZZ_SEED (1) and the repository's corpora only
#                 (part of make test): the same search on every machine, whatever its speed;
#                 finding new bugs is make fuzz's job
# make memcheck   valgrind memcheck of the end-to-end runs: no error, no leak
# make soak       every routing at offered 1.0 for 10^6 cycles on h=3 with --check
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= 40000
FUZZ_RUN_RUNS ?= 10000
FUZZ_SWEEP_RUNS ?= 10000
FUZZ_TRACE_RUNS ?= 500
FUZZ_SEED    ?= 1
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_OBJ     := $(CORE_SRC:%.c=$(BUILD)/fuzz/%.o) $(BUILD)/fuzz/tests/fuzz/fuzz_input.o \
                $(BUILD)/fuzz/tests/fuzz/fuzz_sweep_input.o $(BUILD)/fuzz/tests/fuzz/fuzz_trace_input.o
SOAK_CHECK_EVERY ?= 1
SOAK_CYCLES  ?= 1000000

.PHONY: fuzz test-fuzz memcheck soak

$(BUILD)/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CFLAGS) -O1 $(FUZZ_SAN) -fsanitize=fuzzer-no-link -DDFSIM_FUZZ -MMD -MP -c -o $@ $<

FUZZ_BINS := $(BUILD)/fuzz/fuzz_config $(BUILD)/fuzz/fuzz_run $(BUILD)/fuzz/fuzz_sweep \
             $(BUILD)/fuzz/fuzz_trace

# A static pattern rule: its objects are not intermediate, so make keeps them between runs.
$(FUZZ_BINS): $(BUILD)/fuzz/fuzz_%: $(FUZZ_OBJ) $(BUILD)/fuzz/tests/fuzz/fuzz_%.o
	$(FUZZ_CC) $(CFLAGS) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# The CUnit suite "fuzz" replays the corpora and the regression inputs under ASan/UBSan.
dfsim-test: $(BUILD)/test/tests/fuzz/fuzz_input.o $(BUILD)/test/tests/fuzz/fuzz_sweep_input.o \
            $(BUILD)/test/tests/fuzz/fuzz_trace_input.o

fuzz: $(FUZZ_BINS)
	@sh tools/fuzz.sh explore config $(FUZZ_SECONDS)
	@sh tools/fuzz.sh explore run $(FUZZ_SECONDS)
	@sh tools/fuzz.sh explore sweep $(FUZZ_SECONDS)
	@sh tools/fuzz.sh explore trace $(FUZZ_SECONDS)

test-fuzz: $(FUZZ_BINS)
	@sh tools/test-group.sh commands test-fuzz \
	    'sh tools/fuzz.sh check config $(FUZZ_RUNS) $(FUZZ_SEED)' \
	    'sh tools/fuzz.sh check run $(FUZZ_RUN_RUNS) $(FUZZ_SEED)' \
	    'sh tools/fuzz.sh check sweep $(FUZZ_SWEEP_RUNS) $(FUZZ_SEED)' \
	    'sh tools/fuzz.sh check trace $(FUZZ_TRACE_RUNS) $(FUZZ_SEED)'

memcheck: dfsim
	@sh tools/memcheck.sh

soak: dfsim
	@sh tools/soak.sh $(SOAK_CYCLES) $(SOAK_CHECK_EVERY)

# ---- figures: the reference study's sweeps and plots; see plots/README.md -----------------------
# make figures        conf/sweeps/{load_*,injection,scaling_h*}.cfg on h=6 (h=8, 10 for the size
#                     study), resumable, all cores (JOBS=N), then plots/out/*.png|pdf|md|csv: hours
# make figures-quick  their h=3 twins (conf/sweeps/quick_*.cfg) into plots/out/quick/: minutes
# make test-python    the unittest suite of plots/ (builds tiny results with ./dfsim)
PYTHON ?= /usr/bin/python3

.PHONY: figures figures-quick test-python python

# make python: `import dfsim` (the analysis package, plots/dfsim/) for $(PYTHON) from anywhere,
# without copying it: a dfsim.pth file in the user site-packages names this checkout's plots/
# folder (an editable install: edits take effect at once). Remove that file to undo.
python:
	@site=$$($(PYTHON) -m site --user-site) && mkdir -p "$$site" && \
	    echo "$(CURDIR)/plots" > "$$site/dfsim.pth" && \
	    echo "python: $$site/dfsim.pth -> $(CURDIR)/plots" && \
	    cd / && $(PYTHON) -c 'import dfsim' || \
	    { echo "python: import dfsim failed (is python3-pandas installed? make deps)" >&2; exit 1; }

figures: deps
	@$(MAKE) --no-print-directory dfsim
	PYTHON=$(PYTHON) sh plots/figures.sh

figures-quick: deps
	@$(MAKE) --no-print-directory dfsim
	PYTHON=$(PYTHON) sh plots/figures.sh --quick

test-python: dfsim
	@sh tools/test-group.sh unittest test-python $(PYTHON) -m unittest discover -s plots/tests -v

# The validation suite (results/validation/README.md): dfsim on the points measured with FOGSim,
# BookSim2 and CODES (results/validation/peers/), side-by-side tables and overlay figures per
# peer; resumable (documents already in results/validation/<peer>/runs/ are kept), all cores
# (JOBS=N to change). Its quick subset is plots/tests/test_validation.py (part of test-python).
.PHONY: validate
validate: dfsim
	$(PYTHON) tools/validate.py $(if $(JOBS),--jobs $(JOBS))

# dfsim's whole-process wall time on the very points whose speed was measured with BookSim2 and
# FOGSim, fastest of three, one at a time: a benchmark (run it on an idle machine), not a test.
.PHONY: bench-peers
bench-peers: dfsim
	$(PYTHON) tools/peer_speed.py

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
