# Two commands do all the set-up on a fresh Debian 12 / Ubuntu machine (as root, or with sudo):
#   make test    installs missing packages, builds, runs the tests
#   make bench   installs missing packages, builds, runs the benchmark on the default device
# SKIP_DEPS=1 skips the package step (for machines whose dependencies come from elsewhere).

BUILD ?= build
BUILD_TYPE ?= Release
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BENCH_ARGS ?=
CMAKE_ARGS ?=

PACKAGES := cmake make g++ ocl-icd-opencl-dev opencl-c-headers opencl-clhpp-headers \
            pocl-opencl-icd catch2 libbenchmark-dev libssl-dev b3sum libcli11-dev \
            libopenmpi-dev openmpi-bin
AOT_PACKAGES := clang-14 llvm-spirv-14 spirv-tools
AOT_DIR ?= $(BUILD)/kernels
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps embed configure build test bench aot clean

all: build

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

# Regenerates the header that embeds kernels/*.cl (CMake builds do this too).
embed:
	cmake -DKERNEL_DIR=kernels -DOUTPUT=include/merklize/detail/kernel_sources.hpp \
	  -P cmake/embed_kernels.cmake

configure: deps embed
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_ARGS)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	$(BUILD)/bench/merklize_bench $(BENCH_ARGS)

# Compiles every kernel program ahead of time to SPIR-V and SPIR bitcode (cmake/aot.cmake).
aot: PACKAGES += $(AOT_PACKAGES)
aot: CMAKE_ARGS += -DMERKLIZE_AOT=ON -DMERKLIZE_AOT_DIR=$(abspath $(AOT_DIR))
aot: configure
	cmake --build $(BUILD) -j $(JOBS) --target merklize_aot
	@echo "kernels compiled ahead of time: export MERKLIZE_KERNEL_DIR=$(abspath $(AOT_DIR))"

clean:
	rm -rf $(BUILD)
