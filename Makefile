# Thin front for CMake. The README's two commands are `make demo` and `make test`; both install
# what they need first (scripts/setup.sh) and build from scratch if necessary.
JOBS ?= $(shell nproc)
BUILD ?= build
ASAN_BUILD ?= build-asan
RELEASE_BUILD ?= build-release
VENV := .venv
export PATH := $(CURDIR)/$(BUILD):$(PATH)

.PHONY: all setup build build-asan test test-c test-asan test-release test-python test-package demo bench fuzz format clean install

all: build

setup:
	@bash scripts/setup.sh

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DPython3_EXECUTABLE=$(CURDIR)/$(VENV)/bin/python >/dev/null

$(ASAN_BUILD)/CMakeCache.txt:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DCPAIMON_SANITIZE=ON >/dev/null

# Building also installs the Python package into .venv (a .pth entry pointing at python/).

build: setup $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j $(JOBS)
	@$(VENV)/bin/python -c "import site,sys; open(site.getsitepackages()[0]+'/cpaimon-dev.pth','w').write(sys.argv[1]+'\\n')" $(CURDIR)/python

build-asan: setup $(ASAN_BUILD)/CMakeCache.txt
	cmake --build $(ASAN_BUILD) -j $(JOBS)

test-c: build
	@echo "== C unit tests =="
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	@echo "== C unit tests under ASan+UBSan =="
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 ctest --output-on-failure -j $(JOBS)

# The library and CLI at -O3 (CMake's Release): GCC's optimiser finds maybe-uninitialized
# warnings that -O2 does not, and -Werror makes them build failures for anyone building Release.
test-release: setup
	@echo "== Release (-O3) build of the library and CLI =="
	cmake -S . -B $(RELEASE_BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(RELEASE_BUILD) -j $(JOBS) --target cpaimon cpaimon_shared

test-python: build
	@echo "== Python tests (pytest) =="
	CPAIMON_BUILD=$(CURDIR)/$(BUILD) $(VENV)/bin/python -m pytest -q tests/python

# The pip-installable package (pyproject.toml): sdist, wheel built from it by pip, auditwheel
# repair, installed into fresh virtual environments with the oldest and the newest pyarrow allowed.
test-package: build
	@echo "== Python package (sdist, wheel, fresh environments) =="
	CPAIMON_BUILD=$(CURDIR)/$(BUILD) $(VENV)/bin/python -m pytest -q -s -p no:cacheprovider tests/package

# All tests: C unit tests (plain and sanitized) and pytest. Each part runs even if an earlier one
# failed, so the log shows every summary; the target fails if any part failed.
test: build build-asan
	@rc=0; \
	$(MAKE) --no-print-directory test-c || rc=1; \
	$(MAKE) --no-print-directory test-asan || rc=1; \
	$(MAKE) --no-print-directory test-release || rc=1; \
	$(MAKE) --no-print-directory test-python || rc=1; \
	$(MAKE) --no-print-directory test-package || rc=1; \
	$(MAKE) --no-print-directory fuzz || rc=1; \
	if [ $$rc -ne 0 ]; then echo "make test: FAILED"; else echo "make test: all passed"; fi; \
	exit $$rc

demo: build
	@bash examples/demo.sh

# Parquet and table suites (bench/run.py), the data-evolution suite (bench/bench_update.py),
# the maintenance suite (bench/bench_maintenance.py, against Java Paimon) and the compaction
# suite (bench/bench_compact.py, against pyarrow's floor), the BLOB suite (bench/bench_blob.py,
# against pypaimon), the Avro data-file suite (bench/bench_avro.py, against pypaimon), the
# nested-projection suite (bench/bench_nested.py, against pypaimon).
bench: build
	$(VENV)/bin/python bench/run.py
	$(VENV)/bin/python bench/bench_update.py
	$(VENV)/bin/python bench/bench_maintenance.py
	$(VENV)/bin/python bench/bench_compact.py
	$(VENV)/bin/python bench/bench_blob.py
	$(VENV)/bin/python bench/bench_avro.py
	$(VENV)/bin/python bench/bench_nested.py

# Every fuzz harness for FUZZ_SECONDS each (5 in `make test`; set it higher for real runs).
fuzz: setup
	@echo "== fuzz harnesses (libFuzzer, $${FUZZ_SECONDS:-5}s each) =="
	bash scripts/fuzz.sh

format:
	clang-format -i $$(find src include tests python bench examples -name '*.[ch]' ! -name '*_vectors.h' 2>/dev/null)

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(RELEASE_BUILD) build-fuzz
