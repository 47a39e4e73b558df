#!/bin/sh
# SPDX-License-Identifier: Apache-2.0 OR MIT
# Runs tlog_oracle.go against merklize with Debian's golang.org/x/mod (golang-golang-x-mod-dev),
# in GOPATH mode, offline, Go's build cache in the build tree; skipped without them.
# Usage: run.sh MERKLIZE WORKDIR SIZE...
set -eu
gopath=/usr/share/gocode
command -v go > /dev/null || { echo "SKIPPED: go not found (install golang-go)"; exit 77; }
[ -f "$gopath/src/golang.org/x/mod/sumdb/tlog/tlog.go" ] ||
  { echo "SKIPPED: golang.org/x/mod not found (install golang-golang-x-mod-dev)"; exit 77; }
work=$2
mkdir -p "$work/gocache"
here=$(cd "$(dirname "$0")" && pwd)
GO111MODULE=off GOPATH=$gopath GOCACHE="$work/gocache" GOFLAGS= GOPROXY=off \
  go build -o "$work/tlog_oracle" "$here/tlog_oracle.go"
exec "$work/tlog_oracle" "$@"
