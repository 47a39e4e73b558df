# SPDX-License-Identifier: Apache-2.0 OR MIT
# Two commands do all the set-up on a fresh Debian 12 / Ubuntu machine (as root, or with sudo):
#   make         installs missing packages, builds the merklize command and libmerklize (no tests,
#                no benchmark) and installs them into $(PREFIX) (build/install unless PREFIX=)
#   make test    installs missing packages, builds everything, runs the tests
#   make bench   installs missing packages, builds, runs the benchmark on the default device
#   make plot    plots the benchmark's CSV (running the benchmark first if there is none)
# SKIP_DEPS=1 skips the package step (for machines whose dependencies come from elsewhere).

BUILD ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BENCH_ARGS ?=
BENCH_CSV ?= $(BUILD)/bench.csv
PLOT_PNG ?= $(BUILD)/throughput.png
# The interpreter Debian's python3-matplotlib serves (a pyenv or venv python3 first in PATH
# would not see it).
PYTHON ?= /usr/bin/python3
CMAKE_ARGS ?=
PREFIX ?= $(BUILD)/install

# python3-venv: the tests' oracles from PyPI (pymerkle, remerkleable) go into a venv of the build;
# golang-golang-x-mod-dev: Go's sumdb/tlog, the oracle of C2SP tiles and log proofs;
# python3-dev: the Python package's test builds its extension there (pip install .).
PACKAGES := cmake make g++ ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers \
            pocl-opencl-icd catch2 libbenchmark-dev libssl-dev b3sum libcli11-dev \
            libopenmpi-dev openmpi-bin pkgconf python3-venv python3-dev cryptsetup-bin fsverity python3 \
            golang-golang-x-mod-dev
# The bindings' toolchains, for their tests: golang-go (bindings/go) and cargo (bindings/rust),
# each from Debian unless one is on PATH already (rustup's cargo, a newer Go).
PACKAGES += $(if $(shell command -v go 2>/dev/null),,golang-go) \
            $(if $(shell command -v cargo 2>/dev/null),,cargo)
AOT_PACKAGES := clang-14 llvm-spirv-14 spirv-tools
PLOT_PACKAGES := python3-matplotlib
AOT_DIR ?= $(BUILD)/kernels
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all install deps configure configure-tools build test bench plot aot clean

all: install

deps:
ifndef SKIP_DEPS
	@missing=""; \
	for p in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing missing packages:$$missing"; \
	  $(SUDO) apt-get update && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y --no-install-recommends $$missing; \
	fi
endif

# The same build folder either way: `make` turns the tests and the benchmark off, `make test`
# on again, and what both build (the library's objects) is built once.
configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DMERKLIZE_BUILD_TESTS=ON \
	  -DMERKLIZE_BUILD_BENCH=ON $(CMAKE_ARGS)

configure-tools: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DMERKLIZE_BUILD_TESTS=OFF \
	  -DMERKLIZE_BUILD_BENCH=OFF $(CMAKE_ARGS)

# The command and the library alone, installed by their two components (cmake --install --component
# merklize_runtime, merklize_development: the README's "Install").
install: configure-tools
	cmake --build $(BUILD) -j $(JOBS) --target merklize_cli merklize_shared merklize_static
	cmake --install $(BUILD) --prefix $(abspath $(PREFIX)) --component merklize_runtime
	cmake --install $(BUILD) --prefix $(abspath $(PREFIX)) --component merklize_development
	@echo "installed into $(abspath $(PREFIX)): try $(abspath $(PREFIX))/bin/merklize root FILE"

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# Then the README example's compile time, which a test measured (tests/compile_time.sh).
test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@grep -h "CPU-seconds to compile header-only" $(BUILD)/Testing/Temporary/LastTest.log || true

# Appends its rows to $(BENCH_CSV) for `make plot` (a device and size measured again replaces
# the earlier row in the plot).
bench: build
	$(BUILD)/bench/merklize_bench --csv=$(BENCH_CSV) $(BENCH_ARGS)

# Plots $(BENCH_CSV) into $(PLOT_PNG), with matplotlib (installed here, not for `make test`).
plot: PACKAGES += $(PLOT_PACKAGES)
plot: deps
	@[ -s $(BENCH_CSV) ] || $(MAKE) bench
	$(PYTHON) bench/plot.py $(BENCH_CSV) $(PLOT_PNG)
	@echo "plot written: $(PLOT_PNG)"

# Compiles every kernel program ahead of time to SPIR-V and SPIR bitcode (cmake/aot.cmake).
aot: PACKAGES += $(AOT_PACKAGES)
aot: CMAKE_ARGS += -DMERKLIZE_AOT=ON -DMERKLIZE_AOT_DIR=$(abspath $(AOT_DIR))
aot: configure
	cmake --build $(BUILD) -j $(JOBS) --target merklize_aot
	@echo "kernels compiled ahead of time: export MERKLIZE_KERNEL_DIR=$(abspath $(AOT_DIR))"

clean:
	rm -rf $(BUILD)
