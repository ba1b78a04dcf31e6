# CHAD-C build. `make` builds libchad and the `chad` command line.
# Sources are found by wildcard: add a .c file to a module folder and it is built.
CC      ?= cc
STD      = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN     = -Wall -Wextra -Werror
CFLAGS  ?= -O2 -g
ALL_CFLAGS = $(STD) $(WARN) $(CFLAGS) -Iinclude -Isrc
LDLIBS   = -ljansson -lflint-arb -lflint -lgmp -lquadmath -lm

# Quiet by default: one line per file built; V=1 prints the full commands.
V ?= 0
ifeq ($(V),1)
quiet =
else
quiet = @printf '  %-4s %s\n' $(1) $(2);
endif

SAN_FLAGS = -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all

KERNEL_SRC  = $(wildcard src/kernel/*.c)
LIB_SRC     = $(KERNEL_SRC) $(wildcard src/*.c src/surface/*.c src/eval/*.c src/chad/*.c src/certified/*.c src/export/*.c)
# fast evaluator (src/fast): OpenMP in every compile and link
LIB_SRC    += $(wildcard src/fast/*.c)
STD        += -fopenmp
LDLIBS     += -fopenmp -lmvec
CLI_SRC     = src/cli/chad.c
UNIT_SRC    = $(wildcard tests/unit/test_*.c)

B = build/release
S = build/asan

LIB_OBJ     = $(LIB_SRC:%.c=$(B)/%.o)
LIB_OBJ_SAN = $(LIB_SRC:%.c=$(S)/%.o)
UNIT_BIN     = $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
UNIT_BIN_SAN = $(UNIT_SRC:tests/unit/%.c=$(S)/tests/%)

.PHONY: all deps test test-proof-gate test-release test-asan prove prove-quick prove-incremental proptest bench check demo fuzz mutation mutation-check clean
all: chad $(B)/libchad.a

# Debian packages the project needs, installed when missing.
deps:
	@scripts/deps.sh

$(B)/%.o: %.c | deps-build
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@
$(S)/%.o: %.c | deps-build
	@mkdir -p $(dir $@)
	$(call quiet,CC,$@)$(CC) $(STD) $(WARN) $(SAN_FLAGS) -Iinclude -Isrc -MMD -MP -c $< -o $@

# Only what compiling needs (jansson); the prover stack is installed by `prove`.
.PHONY: deps-build
deps-build:
	@scripts/deps.sh build

$(B)/libchad.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(call quiet,AR,$@)ar rcs $@ $^
$(S)/libchad.a: $(LIB_OBJ_SAN)
	@mkdir -p $(dir $@)
	$(call quiet,AR,$@)ar rcs $@ $^

chad: $(B)/src/cli/chad.o $(B)/libchad.a
	$(call quiet,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(S)/chad: $(S)/src/cli/chad.o $(S)/libchad.a
	$(call quiet,LD,$@)$(CC) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

# -MMD -MF $@.d: a test is rebuilt when a file it includes changes (headers,
# and proptests/vec.c + adapter.c, which test_proptest_vec.c compiles in);
# those become prerequisites too, so the recipe names its inputs ($<, lib).
$(B)/tests/%: tests/unit/%.c $(B)/libchad.a
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(ALL_CFLAGS) -Itests -MMD -MP -MF $@.d -o $@ $< $(B)/libchad.a $(LDLIBS)
$(S)/tests/%: tests/unit/%.c $(S)/libchad.a
	@mkdir -p $(dir $@)
	$(call quiet,LD,$@)$(CC) $(STD) $(WARN) $(SAN_FLAGS) -Iinclude -Isrc -Itests -MMD -MP -MF $@.d -o $@ $< $(S)/libchad.a $(LDLIBS)

# Unit tests, plain and under AddressSanitizer + UndefinedBehaviorSanitizer.
# Each part of make test (each `test: test-X` below) is also a stage of make
# check: one line of the table in scripts/check.sh.
# test-release also checks the CHAD rule files' layout (scripts/rule_layout.py).
test: test-release test-asan
test-release: chad $(UNIT_BIN)
	@/usr/bin/python3 scripts/rule_layout.py
	@tests/run-unit.sh release $(UNIT_BIN)
test-asan: $(S)/chad $(UNIT_BIN_SAN)
	@tests/run-unit.sh asan $(UNIT_BIN_SAN)

# Frama-C/WP over the kernel and the CHAD macros, every rule's own proof
# included (the full gate, about 75 minutes cold on 2 cores); fails on any
# unproved goal.
prove:
	@scripts/deps.sh prove
	@proofs/prove.sh

# The same without the rules' own proofs, whose contracts it relies on
# (proofs/assumed.txt, full-only): a cold check of the kernel in under
# 15 minutes (proofs/README.md "Gates").
prove-quick:
	@scripts/deps.sh prove
	@PROVE_RULES=0 proofs/prove.sh

# Every job of the full gate, each accepted from proofs/record.tsv when the
# hash of its inputs matches its row, else proved (proofs/README.md
# "Gates"); PROVE_STATUS=1: only say which jobs would be proved.
prove-incremental:
	@scripts/deps.sh prove
	@proofs/incremental.sh $(if $(PROVE_STATUS),--status)

proptest: chad
	+@if [ -x proptests/run.sh ]; then proptests/run.sh; else echo "proptest: none yet"; fi

# Mutation testing (scripts/mutation.py, spec/mutation.md): mutants generated
# over src/, each built in a scratch tree and run against the tests. `make
# mutation` tests every mutant (some 35,000: days to weeks on this shared machine, spec/mutation.md) and writes
# tests/mutation/RESULTS.md and the kill record tests/mutation/killed.txt;
# MUTATION_ARGS gives a sample instead, e.g. "--per-file 2 --seed 1 -j2".
# `make mutation-check`, the stage "mutation" of make check: the id scheme's
# and the object-code comparison's tests, no stale entry in the equivalent and proof-only lists, and
# MUTATION_CHECK_N (default 8) mutants drawn from those recorded killed by a
# failing suite (the seed from the commit) must still be killed.
MUTATION_CHECK_N ?= 8
MUTATION_CHECK_SEED ?= commit
mutation:
	@/usr/bin/python3 scripts/mutation.py $(or $(MUTATION_ARGS),-j2) \
	  --report tests/mutation/RESULTS.md --record tests/mutation/killed.txt
mutation-check:
	@/usr/bin/python3 tests/mutation/test_ids.py
	@/usr/bin/python3 tests/mutation/test_code.py
	@/usr/bin/python3 scripts/mutation.py --from-record tests/mutation/killed.txt --strict \
	  --sample $(MUTATION_CHECK_N) --seed $(MUTATION_CHECK_SEED) --no-baseline -j2 $(MUTATION_CHECK_ARGS)

bench: chad
	@if [ -x bench/run.sh ]; then bench/run.sh; else echo "bench: none yet"; fi

# Everything the project checks within CI's time: the tests, the property
# tests, a short run of each fuzzer and the incremental proof gate (every
# job, rules included, from the record or re-proved), stage by stage with a summary at the end (scripts/check.sh:
# its stage table; logs in build/logs/).
check:
	+@scripts/check.sh

demo: chad python-setup
	@scripts/demo.sh

clean:
	rm -rf build chad

-include $(shell find build -name '*.d' 2>/dev/null)

# Shell tests of the command line (tests/cli/run.sh), plain and sanitized.
test: test-cli
.PHONY: test-cli
test-cli: chad $(S)/chad
	@tests/cli/run.sh ./chad; st=$$?; tests/cli/run.sh $(S)/chad && exit $$st

# The certified evaluator (--eval ball): command-line verdicts and chad check
# --candidate's grading, plain and sanitized, and its numbers against closed
# forms computed by mpmath.
test: test-certified
.PHONY: test-certified
test-certified: chad $(S)/chad
	@tests/certified/cli.sh ./chad
	@tests/certified/cli.sh $(S)/chad
	@tests/certified/check.sh ./chad
	@tests/certified/check.sh $(S)/chad
	@/usr/bin/python3 tests/certified/closed_forms.py ./chad

# The certified test-vector suite (vectors/, spec/vectors.md): chad vectors
# regenerates it byte for byte, the schema validates it, every reference
# lies in its enclosure.
test: test-vectors
.PHONY: test-vectors
test-vectors: chad
	@/usr/bin/python3 tests/vectors/check.py ./chad

# Differential testing of PyTorch and ADOL-C against the certified
# evaluator (difftest/README.md): small campaigns in make test (a finding in
# the generated or example programs fails them), the tests of the shrinker,
# the checkpoint, the exports (against chad eval) and the ADOL-C batches;
# the full campaigns, the runs of record, by make difftest: resumable (a
# stopped make difftest continues from build/difftest/record-*.jsonl).
test: test-difftest
.PHONY: test-difftest difftest
test-difftest: chad
	@scripts/deps.sh torch
	@scripts/deps.sh adolc
	@difftest/run.py --generated 200 --seed 1 --quiet --check
	@difftest/test_shrink.py
	@difftest/test_checkpoint.py
	@difftest/test_export.py 200
	@difftest/test_adolc.py
	@difftest/run.py --system adolc --generated 100 --seed 1 --quiet --check
difftest: chad
	@scripts/deps.sh torch
	@scripts/deps.sh adolc
	@difftest/run.py --generated 10000 --seed 20261127 --checkpoint build/difftest/record-torch.jsonl \
	  --shrink-budget 120 --record difftest/reproducers --report difftest/RESULTS.md
	@difftest/run.py --system adolc --generated 2000 --seed 20261127 --batch 100 \
	  --checkpoint build/difftest/record-adolc.jsonl --shrink-budget 120 \
	  --record difftest/reproducers --report difftest/RESULTS.md

# libFuzzer harnesses (fuzz/NAME/fuzz_NAME.c, fuzz/run.sh): the surface
# front end, the typed JSON reader, libchad's API, and the derivative
# commands on generated programs (proptests/gen.c driven by the fuzzer's
# bytes). clang 14 with ASan + UBSan; the library is built once for all.
# `make fuzz` runs each for FUZZ_SECONDS (default 60); `make fuzz-check`,
# part of `make check`, for FUZZ_CHECK_SECONDS (default 30) each, so that a
# harness that no longer builds or finds a crash fails CI.
FUZZ_CC    ?= clang-14
FUZZ_FLAGS  = -g -O1 -fno-omit-frame-pointer -Wno-pass-failed -fsanitize=address,undefined -fno-sanitize-recover=all
F           = build/fuzz
FUZZERS     = surface json api deriv
LIB_OBJ_FUZZ = $(LIB_SRC:%.c=$(F)/%.o)
FUZZ_EXTRA_deriv = -Iproptests -include fuzz/deriv/bytes_prng.h proptests/gen.c

.PHONY: deps-fuzz fuzz-build fuzz-check $(FUZZERS:%=fuzz-%)
deps-fuzz:
	@scripts/deps.sh fuzz
$(F)/%.o: %.c | deps-fuzz
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(STD) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -Iinclude -Isrc -MMD -MP -c $< -o $@
$(F)/libchad.a: $(LIB_OBJ_FUZZ)
	ar rcs $@ $^
.SECONDEXPANSION:
$(F)/fuzz_%: fuzz/$$*/fuzz_$$*.c $(F)/libchad.a
	$(FUZZ_CC) $(STD) $(FUZZ_FLAGS) -fsanitize=fuzzer -Iinclude -Isrc -MMD -MP -MF $@.d \
	  -o $@ $< $(FUZZ_EXTRA_$*) $(F)/libchad.a -ljansson -lflint-arb -lflint -lgmp -lm -fopenmp -lmvec
fuzz-build: $(FUZZERS:%=$(F)/fuzz_%)
$(FUZZERS:%=fuzz-%): fuzz-%: $(F)/fuzz_%
	@fuzz/run.sh $* $(or $(FUZZ_SECONDS),60)
fuzz: $(FUZZERS:%=fuzz-%)
fuzz-check: fuzz-build
	@for f in $(FUZZERS); do FUZZ_FRESH=1 fuzz/run.sh $$f $(or $(FUZZ_CHECK_SECONDS),30) || exit 1; done

# ---- libchad as a shared library, pkg-config and install -------------------
# build/pic: the library's objects compiled with -fPIC (the release and asan
# builds are untouched); libchad.so.$(SO_VERSION) with soname libchad.so.0,
# exporting the public API only (src/libchad.map: chad_*, diag_set,
# diag_print). `make install PREFIX=... [DESTDIR=...]` installs chad.h and
# chad/diag.h, libchad.so*, libchad.a, chad.pc, the chad binary, its man
# page chad(1) (scripts/man.sh: the --help text) and share/doc/chad.
PIC = build/pic
SO_MAJOR   = 0
SO_VERSION = 0.1.0
PREFIX    ?= /usr/local
LIBDIR    ?= $(PREFIX)/lib
LIB_OBJ_PIC = $(LIB_SRC:%.c=$(PIC)/%.o)

.PHONY: shared install test-install test-python
shared: $(PIC)/libchad.so $(PIC)/chad.pc

$(PIC)/%.o: %.c | deps-build
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(PIC)/libchad.so.$(SO_VERSION): $(LIB_OBJ_PIC) src/libchad.map
	$(CC) $(CFLAGS) -shared -Wl,-soname,libchad.so.$(SO_MAJOR) -Wl,--version-script=src/libchad.map \
	  -Wl,--no-undefined -o $@ $(LIB_OBJ_PIC) $(LDLIBS)
$(PIC)/libchad.so.$(SO_MAJOR): $(PIC)/libchad.so.$(SO_VERSION)
	ln -sf libchad.so.$(SO_VERSION) $@
$(PIC)/libchad.so: $(PIC)/libchad.so.$(SO_MAJOR)
	ln -sf libchad.so.$(SO_MAJOR) $@

# chad.pc: for the default PREFIX here; install writes it for the PREFIX given.
PC_SED = sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(SO_VERSION)|'
$(PIC)/chad.pc: scripts/chad.pc.in
	@mkdir -p $(dir $@)
	$(PC_SED) $< > $@

install: chad $(B)/libchad.a $(PIC)/libchad.so
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include/chad $(DESTDIR)$(LIBDIR)/pkgconfig \
	  $(DESTDIR)$(PREFIX)/share/doc/chad $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 chad $(DESTDIR)$(PREFIX)/bin/chad
	install -m 644 include/chad.h $(DESTDIR)$(PREFIX)/include/chad.h
	install -m 644 include/chad/diag.h $(DESTDIR)$(PREFIX)/include/chad/diag.h
	install -m 644 $(B)/libchad.a $(DESTDIR)$(LIBDIR)/libchad.a
	install -m 755 $(PIC)/libchad.so.$(SO_VERSION) $(DESTDIR)$(LIBDIR)/libchad.so.$(SO_VERSION)
	ln -sf libchad.so.$(SO_VERSION) $(DESTDIR)$(LIBDIR)/libchad.so.$(SO_MAJOR)
	ln -sf libchad.so.$(SO_MAJOR) $(DESTDIR)$(LIBDIR)/libchad.so
	$(PC_SED) scripts/chad.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/chad.pc
	./chad --help > $(DESTDIR)$(PREFIX)/share/doc/chad/chad-help.txt
	scripts/man.sh ./chad $(SO_VERSION) > $(DESTDIR)$(PREFIX)/share/man/man1/chad.1
	install -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/chad/README.md

# Installs into a temporary PREFIX and builds a program against it with
# pkg-config, shared and static (tests/install/run.sh).
test: test-install
test-install: chad $(B)/libchad.a $(PIC)/libchad.so
	@tests/install/run.sh

# `import chad` from this checkout without PYTHONPATH: libchad.so, numpy, and
# a .pth file naming python/ in the user site-packages of /usr/bin/python3 and
# of the python3 in PATH (scripts/python-setup.sh). `make demo` runs it.
.PHONY: python-setup
python-setup: shared
	@scripts/deps.sh python
	@scripts/python-setup.sh

test: test-proof-gate
# The proof gate's queue: fail-fast and the provers' CPU-time guard
# (tests/proofs/test_gate.sh; fake jobs and provers, no frama-c).
test-proof-gate:
	@scripts/deps.sh test
	@tests/proofs/test_gate.sh

# The Python package (python/chad) over build/pic/libchad.so, with pytest.
test: test-python
test-python: chad shared
	@scripts/deps.sh test
	@tests/python/run.sh
