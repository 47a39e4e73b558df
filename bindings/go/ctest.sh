#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# The ctest go_bindings: gofmt, go vet and go test of this module against libmerklize installed
# in PREFIX (the fixture merklize_installed), offline, with Go's caches in WORK_DIR of the build
# tree. Skipped (77) where Go 1.19 or later is not installed. Subtests run one a core (Go's
# default), with room for first compiles: PoCL 3.1 takes about 300 CPU-seconds for poseidon2-bn254's
# kernels on an AVX-512 Xeon, and each process that finds no cache entry compiles them itself.
# Usage: ctest.sh PKG_CONFIG PREFIX WORK_DIR MERKLIZE_CLI VECTOR_DIR
set -eu
PKG_CONFIG=$1 prefix=$2 work=$3 cli=$4 vectors=$5
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v go > /dev/null 2>&1; then
  echo "SKIPPED: go not found (install golang-go, 1.19 or later: make deps)"
  exit 77
fi
version=$(go env GOVERSION)
minor=$(echo "$version" | sed -n 's/^go1\.\([0-9]*\).*/\1/p')
if [ -z "$minor" ] || [ "$minor" -lt 19 ]; then
  echo "SKIPPED: $version is older than Go 1.19, which the module needs"
  exit 77
fi

pc=$(find "$prefix" -name merklize.pc | head -n 1)
[ -n "$pc" ] || { echo "FAILED: no merklize.pc under $prefix (the fixture merklize_installed)"; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
LD_LIBRARY_PATH=$(cd "$(dirname "$pc")/.." && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$work"
export PKG_CONFIG PKG_CONFIG_PATH LD_LIBRARY_PATH
export GOCACHE="$work/cache" GOPATH="$work/path" GOENV=off GOFLAGS=-mod=mod GOPROXY=off \
  GOTOOLCHAIN=local GOTELEMETRY=off CGO_ENABLED=1
export MERKLIZE_CLI="$cli" MERKLIZE_TEST_VECTOR_DIR="$vectors"
echo "$version, libmerklize $("$PKG_CONFIG" --modversion merklize) from $prefix"

cd "$here"
unformatted=$(gofmt -l .)
[ -z "$unformatted" ] || { echo "FAILED: gofmt -l lists: $unformatted"; exit 1; }
go vet ./...
go test -count=1 -timeout 40m -v ./... > "$work/go-test.log" 2>&1 || { cat "$work/go-test.log"; exit 1; }
grep -E '^(ok|FAIL|---)|^=== RUN +[A-Za-z0-9]+$' "$work/go-test.log" | grep -v '^=== RUN' || true
echo "ok: $(grep -c -- '--- PASS' "$work/go-test.log") tests and subtests passed," \
  "$(grep -c -- '--- SKIP' "$work/go-test.log") skipped (log: $work/go-test.log)"
