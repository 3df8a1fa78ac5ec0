# dfsim: build, test, demo and benchmark. `make help` lists the targets.
CC      ?= cc
PKGS    := libconfig libcjson
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -Iinclude \
           $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LDLIBS  := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lm
VERSION := $(shell git describe --always --dirty --tags 2>/dev/null || echo unknown)

CORE_SRC := $(filter-out src/main.c,$(wildcard src/*.c)) $(wildcard routers/*.c) \
            $(wildcard arbiters/*.c) $(wildcard traffic/*.c)
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

deps:
	@sh tools/deps.sh

dfsim: $(OBJ) $(BUILD)/release/src/main.o
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/release/src/version.o: CFLAGS += -DDFSIM_VERSION='"$(VERSION)"'
$(BUILD)/test/src/version.o: CFLAGS += -DDFSIM_VERSION='"$(VERSION)"'

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

test: deps
	@$(MAKE) --no-print-directory test-unit

test-unit: dfsim dfsim-san dfsim-test
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ./dfsim-test

demo: deps
	@$(MAKE) --no-print-directory dfsim
	./dfsim run conf/default.cfg

bench: dfsim
	@sh tools/bench.sh

clean:
	rm -rf $(BUILD) dfsim dfsim-test dfsim-san

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
